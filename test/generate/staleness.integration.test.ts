import { readFileSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { compareManifests, generateManifest, renderManifest } from "../../src/generate";
import type { ToolnexusManifest } from "../../src/manifest";
import { fixtureProject, fixtures, root, tempProject } from "./support";

const made: string[] = [];
afterAll(() => {
  for (const dir of made) rmSync(dir, { recursive: true, force: true });
});

const SHAPES = `/** A point. */\nexport interface Point {\n  /** Across. */\n  x: number;\n  y: number;\n}\n`;
const SERVICE = `import { IsInt } from "./validators";
import { Tool } from "toolnexus";
import type { Point } from "./shapes";

export class Line {
  /** Length. */
  @IsInt()
  length!: number;
}

export class Geometry {
  /** Moves to a point. */
  @Tool()
  move(to: Point) {
    return to.x;
  }

  /** Measures a line. */
  @Tool()
  measure(line: Line) {
    return line.length;
  }

  /** Says hello. */
  @Tool()
  hello(name: string) {
    return name;
  }
}
`;
const VALIDATORS = `export function IsInt(_?: unknown): PropertyDecorator { return () => {}; }\nexport function Min(_: number): PropertyDecorator { return () => {}; }\n`;

/** A project whose files can be edited and regenerated. */
function project() {
  const dir = tempProject({
    "src/shapes.ts": SHAPES,
    "src/service.ts": SERVICE,
    "src/validators.ts": VALIDATORS,
    "src/other.ts": "export const other = 1;\n",
  });
  made.push(dir);
  return {
    generate: (): ToolnexusManifest => generateManifest({ project: join(dir, "tsconfig.json"), cwd: dir }).manifest,
    edit: (file: string, change: (text: string) => string) => {
      const path = join(dir, "src", file);
      writeFileSync(path, change(readFileSync(path, "utf8")));
    },
  };
}

const hashes = (manifest: ToolnexusManifest) =>
  Object.fromEntries(Object.entries(manifest.tools).map(([key, tool]) => [key, tool.hash]));

describe("the hash of what a tool was generated from", () => {
  const p = project();
  let first: ToolnexusManifest;
  beforeAll(() => {
    first = p.generate();
  });

  it("ignores what a method does (its body) and unrelated files", () => {
    p.edit("service.ts", (text) => text.replace("return name;", "return `hi ${name}`;"));
    p.edit("other.ts", () => "export const other = 2;\n");
    const again = p.generate();
    expect(renderManifest(again)).toBe(renderManifest(first));
  });

  it("changes for a tool when a type it reaches changes, in another file, and only for that tool", () => {
    p.edit("shapes.ts", (text) => text.replace("/** Across. */", "/** Left to right. */"));
    const again = p.generate();
    expect(again.tools["Geometry.move"]!.hash).not.toBe(first.tools["Geometry.move"]!.hash);
    expect(again.tools["Geometry.hello"]!.hash).toBe(first.tools["Geometry.hello"]!.hash);
    expect(again.tools["Geometry.measure"]!.hash).toBe(first.tools["Geometry.measure"]!.hash);
    expect(again.hash).not.toBe(first.hash);
    first = again;
  });

  it("changes with the method's JSDoc and signature", () => {
    p.edit("service.ts", (text) => text.replace("/** Says hello. */", "/** Greets someone. */"));
    const again = p.generate();
    expect(again.tools["Geometry.hello"]).toMatchObject({ description: "Greets someone." });
    expect(again.tools["Geometry.hello"]!.hash).not.toBe(first.tools["Geometry.hello"]!.hash);
    expect(hashes(again)["Geometry.move"]).toBe(hashes(first)["Geometry.move"]);
  });

  it("ignores a DTO's decorators (they are read at run time), not its property types", () => {
    p.edit("service.ts", (text) =>
      text
        .replace("@IsInt()\n  length", "@IsInt()\n  @Min(1)\n  length")
        .replace('import { IsInt } from "./validators";', 'import { IsInt, Min } from "./validators";'),
    );
    const decorated = p.generate();
    const before = first.tools["Geometry.measure"]!.hash;
    expect(decorated.tools["Geometry.measure"]!.hash).toBe(before);
    p.edit("service.ts", (text) => text.replace("length!: number;", "length!: string;"));
    expect(p.generate().tools["Geometry.measure"]!.hash).not.toBe(before);
  });
});

it("counts properties a type inherits: a base interface's JSDoc is part of the hash", () => {
  const dir = tempProject({
    "src/base.ts": `export interface Base {\n  /** The id. */\n  id: string;\n}\n`,
    "src/tools.ts": `import { Tool } from "toolnexus";\nimport type { Base } from "./base";\ninterface Item extends Base { name: string }\nexport class Items {\n  @Tool("Saves")\n  save(item: Item) {}\n}\n`,
  });
  made.push(dir);
  const generate = () =>
    generateManifest({ project: join(dir, "tsconfig.json"), cwd: dir }).manifest.tools["Items.save"]!;
  const before = generate();
  writeFileSync(join(dir, "src/base.ts"), `export interface Base {\n  /** The record's id. */\n  id: string;\n}\n`);
  const after = generate();
  expect((after.parameters[0] as unknown as { schema: { properties: { id: unknown } } }).schema.properties.id).toEqual({
    type: "string",
    description: "The record's id.",
  });
  expect(after.hash).not.toBe(before.hash);
});

describe("--check: comparing the manifest on disk with the sources", () => {
  let fresh: ReturnType<typeof generateManifest>;
  beforeAll(() => {
    fresh = generateManifest({ project: fixtureProject("stale"), cwd: root });
  });

  it("names the tools added, removed and changed in the stale fixture", () => {
    const existing = readFileSync(join(fixtures, "stale", "toolnexus.manifest.json"), "utf8");
    expect(compareManifests(existing, fresh.manifest, fresh.text)).toEqual({
      upToDate: false,
      changes: [
        { key: "CatalogService.brands", tool: "brands", change: "added", details: [] },
        { key: "CatalogService.categories", tool: "categories", change: "removed", details: [] },
        {
          key: "CatalogService.search",
          tool: "search",
          change: "changed",
          details: ["parameters (query, sort) → (query, sort, limit)", 'parameter "sort": schema'],
        },
      ],
    });
  });

  it("up to date only when byte-identical (CRLF line endings from a checkout aside)", () => {
    expect(compareManifests(fresh.text, fresh.manifest, fresh.text)).toEqual({ upToDate: true, changes: [] });
    expect(compareManifests(fresh.text.replace(/\n/g, "\r\n"), fresh.manifest, fresh.text)).toEqual({
      upToDate: true,
      changes: [],
    });
    const reformatted = JSON.stringify(fresh.manifest);
    expect(compareManifests(reformatted, fresh.manifest, fresh.text)).toEqual({
      upToDate: false,
      reason: "the file differs from what toolnexus generate writes (edited by hand?)",
      changes: [],
    });
  });

  it("says what changed inside a tool: description, one parameter's fields, or only the sources (hash)", () => {
    const old = structuredClone(fresh.manifest);
    const search = old.tools["CatalogService.search"]!;
    search.description = "Old text.";
    (search.parameters[2] as { optional: boolean }).optional = false;
    old.tools["CatalogService.product"]!.hash = "sha256:00000000000000000000000000000000";
    expect(compareManifests(renderManifest(old), fresh.manifest, fresh.text).changes).toEqual([
      {
        key: "CatalogService.product",
        tool: "product",
        change: "changed",
        details: ["its sources changed (hash), the generated entry did not"],
      },
      {
        key: "CatalogService.search",
        tool: "search",
        change: "changed",
        details: ["description", 'parameter "limit": optional'],
      },
    ]);
  });

  it("a missing, unreadable or foreign manifest is stale", () => {
    expect(compareManifests(undefined, fresh.manifest, fresh.text)).toMatchObject({
      upToDate: false,
      reason: "there is no manifest yet",
    });
    expect(compareManifests(undefined, fresh.manifest, fresh.text).changes.map((c) => c.change)).toEqual([
      "added",
      "added",
      "added",
    ]);
    expect(compareManifests("{ nope", fresh.manifest, fresh.text)).toEqual({
      upToDate: false,
      reason: "the manifest is not valid JSON",
      changes: [],
    });
    expect(compareManifests('{"manifestVersion":2,"tools":{}}', fresh.manifest, fresh.text)).toEqual({
      upToDate: false,
      reason: "the manifest is not a version 1 toolnexus manifest",
      changes: [],
    });
  });
});
