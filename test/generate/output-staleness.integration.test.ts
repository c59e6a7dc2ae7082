import { readFileSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import {
  compareManifests,
  GenerateError,
  generateManifest,
  watchManifest,
  type GenerateResult,
  type WatchRun,
} from "../../src/generate";
import { assertBuilt, runBin, tempProject } from "./support";

/**
 * A tool's entry covers its result type where that gives an output schema: a changed result
 * type makes the entry stale (`--check`), anything else about it does not.
 */
const made: string[] = [];
afterAll(() => {
  for (const dir of made) rmSync(dir, { recursive: true, force: true });
});

const SHAPES = `/** The weather. */\nexport interface Weather {\n  /** Degrees Celsius. */\n  temperature: number;\n}\n`;
// `find` returns what `lookup` returns: its result type is written in this file, inferred.
const LOOKUP = `export function lookup(city: string) {\n  return { city, found: true };\n}\n`;
const TOOLS = `import { Tool } from "toolnexus";
import type { Weather } from "./shapes";
import { lookup } from "./lookup";

export class Tools {
  /** The weather in a city. */
  @Tool()
  weather(city: string): Weather {
    return { temperature: city.length };
  }

  /** Finds a city. */
  @Tool()
  find(city: string) {
    return lookup(city);
  }

  /** The city in words. */
  @Tool()
  words(city: string): string {
    return city;
  }
}
`;

function project(files: Record<string, string> = {}) {
  const dir = tempProject({ "src/shapes.ts": SHAPES, "src/lookup.ts": LOOKUP, "src/tools.ts": TOOLS, ...files });
  made.push(dir);
  return {
    dir,
    generate: (): GenerateResult => generateManifest({ project: join(dir, "tsconfig.json"), cwd: dir }),
    edit: (file: string, change: (text: string) => string) => {
      const path = join(dir, "src", file);
      writeFileSync(path, change(readFileSync(path, "utf8")));
    },
  };
}

describe("the hash and --check with output schemas", () => {
  it("a changed result type makes that entry stale, and only that one", () => {
    const p = project();
    const before = p.generate();
    expect(before.manifest.tools["Tools.weather"]!.output).toMatchObject({
      properties: { temperature: { type: "number", description: "Degrees Celsius." } },
    });
    p.edit("shapes.ts", (text) =>
      text.replace("temperature: number;", "temperature: number;\n  /** What the sky does. */\n  sky?: string;"),
    );
    const after = p.generate();
    expect(compareManifests(before.text, after.manifest, after.text)).toEqual({
      upToDate: false,
      changes: [{ key: "Tools.weather", tool: "weather", change: "changed", details: ["output"] }],
    });
    expect(after.manifest.tools["Tools.weather"]!.hash).not.toBe(before.manifest.tools["Tools.weather"]!.hash);
    expect(after.manifest.tools["Tools.find"]).toEqual(before.manifest.tools["Tools.find"]);
    expect(after.manifest.tools["Tools.words"]).toEqual(before.manifest.tools["Tools.words"]);
  });

  it("a JSDoc change in the result type changes the hash, as for parameter types", () => {
    const p = project();
    const before = p.generate();
    p.edit("shapes.ts", (text) => text.replace("/** Degrees Celsius. */", "/** Degrees Celsius, in the shade. */"));
    const after = p.generate();
    expect(compareManifests(before.text, after.manifest, after.text).changes).toEqual([
      { key: "Tools.weather", tool: "weather", change: "changed", details: ["output"] },
    ]);
  });

  it("an inferred result type: a body that changes what it returns makes the entry stale, one that does not leaves the manifest as it is", () => {
    const p = project();
    const before = p.generate();
    expect(before.manifest.tools["Tools.find"]!.output).toEqual({
      type: "object",
      properties: { city: { type: "string" }, found: { type: "boolean" } },
      required: ["city", "found"],
    });
    p.edit("lookup.ts", (text) =>
      text.replace("return { city, found: true };", "const found = city.length > 0;\n  return { city, found };"),
    );
    const same = p.generate();
    expect(same.text).toBe(before.text);
    p.edit("lookup.ts", (text) => text.replace("return { city, found };", "return { city, found, score: 1 };"));
    const changed = p.generate();
    expect(compareManifests(before.text, changed.manifest, changed.text).changes).toEqual([
      { key: "Tools.find", tool: "find", change: "changed", details: ["output"] },
    ]);
  });

  it("the return type of a tool without an output schema is not in its hash, and Promise<T> for T changes nothing", () => {
    const p = project();
    const before = p.generate();
    p.edit("tools.ts", (text) =>
      text.replace(
        "words(city: string): string {\n    return city;",
        "words(city: string): number {\n    return city.length;",
      ),
    );
    p.edit("tools.ts", (text) =>
      text.replace("weather(city: string): Weather {", "async weather(city: string): Promise<Weather> {"),
    );
    expect(p.generate().text).toBe(before.text);
  });

  it("a result type turning into an object, or out of one, is a change", () => {
    const p = project();
    const before = p.generate();
    p.edit("tools.ts", (text) =>
      text.replace(
        "words(city: string): string {\n    return city;",
        "words(city: string): Weather {\n    return { temperature: city.length };",
      ),
    );
    p.edit("tools.ts", (text) =>
      text.replace(
        "weather(city: string): Weather {\n    return { temperature: city.length };",
        "weather(city: string): string {\n    return city;",
      ),
    );
    const after = p.generate();
    expect(compareManifests(before.text, after.manifest, after.text).changes).toEqual([
      { key: "Tools.weather", tool: "weather", change: "changed", details: ["output"] },
      { key: "Tools.words", tool: "words", change: "changed", details: ["output"] },
    ]);
  });

  it("a type error in a file only a result type reaches stops generation (the manifest depends on it)", () => {
    const p = project({ "src/shapes.ts": `${SHAPES}export const broken: number = "text";\n` });
    expect(() => p.generate()).toThrow(GenerateError);
  });
});

describe("result types without a JSON form", () => {
  // The stub's @Tool takes `output`, as toolnexus's does.
  const SOURCE = `import { Tool } from "toolnexus";
export interface Job {
  id: string;
  onDone: () => void;
}
export class Jobs {
  /** Starts a job. */
  @Tool()
  start(): Job {
    return { id: "1", onDone: () => {} };
  }

  /** Starts a job, its result stated. */
  @Tool({ output: { type: "object", properties: { id: { type: "string" } } } })
  stated(): Job {
    return { id: "1", onDone: () => {} };
  }
}
`;

  it("give no output schema and a warning naming the property, none where @Tool({ output }) states it", () => {
    const dir = tempProject({ "src/jobs.ts": SOURCE });
    made.push(dir);
    const result = generateManifest({ project: join(dir, "tsconfig.json"), cwd: dir });
    expect(result.manifest.tools["Jobs.start"]!.output).toBeUndefined();
    expect(result.manifest.tools["Jobs.stated"]!.output).toBeUndefined();
    expect(result.warnings).toEqual([
      'src/jobs.ts:9:3: Jobs.start: its result type "Job" gives no output schema: its property "onDone" (declared at src/jobs.ts:4:3) has type "() => void": a function has no JSON Schema equivalent (structured results are JSON). State one with @Tool({ output }), or return a JSON type.',
    ]);
  });
});

describe("generate --watch with output schemas", () => {
  it("regenerates an entry when the file its inferred result type is written in changes", async () => {
    const { dir, edit } = project();
    const runs: WatchRun[] = [];
    const watcher = watchManifest({ cwd: dir, onRun: (run) => void runs.push(run) });
    const next = async (): Promise<GenerateResult> => {
      const deadline = Date.now() + 20_000;
      while (runs.length === 0) {
        if (Date.now() > deadline) throw new Error("no run within 20 s");
        await new Promise((resolve) => setTimeout(resolve, 100));
      }
      const run = runs.shift()!;
      if ("error" in run) throw run.error;
      return run.result;
    };
    try {
      const first = await next();
      expect(first.stats).toMatchObject({ tools: 3, reused: 0 });
      edit("lookup.ts", (text) =>
        text.replace("return { city, found: true };", "return { city, found: true, score: 1 };"),
      );
      const changed = await next();
      // tools.ts did not change: only the entry whose result type lookup.ts writes is made again.
      expect(changed.stats).toMatchObject({ tools: 3, reused: 2 });
      expect(Object.keys(changed.manifest.tools["Tools.find"]!.output!.properties!)).toEqual([
        "city",
        "found",
        "score",
      ]);
    } finally {
      watcher.close();
    }
  });
});

describe("toolnexus generate --check (the bin)", () => {
  beforeAll(assertBuilt);

  it("exits 1 and names the tool whose result type changed", async () => {
    const p = project();
    expect((await runBin(["generate", "--quiet"], p.dir)).code).toBe(0);
    expect((await runBin(["generate", "--check", "--quiet"], p.dir)).code).toBe(0);
    p.edit("shapes.ts", (text) => text.replace("temperature: number;", "temperature: number;\n  humidity?: number;"));
    const stale = await runBin(["generate", "--check", "--quiet"], p.dir);
    expect(stale.code).toBe(1);
    expect(stale.stderr).toContain("  ~ Tools.weather: output");
    expect(stale.stderr).not.toContain("Tools.find");
  });
});
