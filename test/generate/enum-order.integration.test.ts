import { rmSync } from "node:fs";
import { join } from "node:path";
import { generateManifest } from "../../src/generate";
import type { ManifestParameter } from "../../src/manifest";
import { tempProject } from "./support";

/** Enum values in the manifest are in the order the source writes them, not sorted. */
const made: string[] = [];
afterAll(() => {
  for (const dir of made) rmSync(dir, { recursive: true, force: true });
});

/** The schemas of `Service.run(signature)`'s parameters, after `declarations`. */
function schemasOf(signature: string, declarations: string) {
  // "a" and 1 are made (and so ordered first by the checker) before any union that holds them.
  const first = `export const early: ["a", 1, "email"] = ["a", 1, "email"];\n`;
  const dir = tempProject({
    "src/early.ts": first,
    "src/service.ts": `import { Tool } from "toolnexus";\nimport "./early";\n${declarations}\nexport class Service {\n  @Tool("t")\n  run(${signature}) {}\n}\n`,
  });
  made.push(dir);
  const { manifest } = generateManifest({ project: join(dir, "tsconfig.json"), cwd: dir });
  return (manifest.tools["Service.run"]!.parameters as Array<Extract<ManifestParameter, { kind: "param" }>>).map(
    (p) => p.schema,
  );
}

describe("enum order", () => {
  it("literal unions, inline and through aliases, of strings and numbers", () => {
    expect(
      schemasOf(
        `mode: "b" | "a" | "c", size: Size, count: 10 | 9 | 100 | 1, mixed: "z" | 1 | "a"`,
        `type Size = "m" | "s" | "xl" | "a";`,
      ),
    ).toEqual([
      { type: "string", enum: ["b", "a", "c"] },
      { type: "string", enum: ["m", "s", "xl", "a"] },
      { type: "integer", enum: [10, 9, 100, 1] },
      { enum: ["z", 1, "a"] },
    ]);
  });

  it("string and numeric enums, alone and in a union with null", () => {
    const enums = `enum Channel { Sms = "sms", Email = "email", Post = "post" }\nenum Priority { High = 30, Low = 4, Normal = 10 }`;
    expect(
      schemasOf(
        "channel: Channel, priority: Priority, maybeChannel: Channel | null, maybePriority: Priority | null",
        enums,
      ),
    ).toEqual([
      { type: "string", enum: ["sms", "email", "post"] },
      { type: "integer", enum: [30, 4, 10] },
      { anyOf: [{ type: "string", enum: ["sms", "email", "post"] }, { type: "null" }] },
      { anyOf: [{ type: "integer", enum: [30, 4, 10] }, { type: "null" }] },
    ]);
  });

  it("inside arrays, records and properties of interfaces", () => {
    const shapes = `interface Filter { order: "desc" | "asc"; kinds: Array<"z" | "a">; labels: Record<string, "y" | "x"> }`;
    const [filter, many] = schemasOf(`filter: Filter, many: ("b" | "a")[]`, shapes);
    expect(filter!.properties).toEqual({
      order: { type: "string", enum: ["desc", "asc"] },
      kinds: { type: "array", items: { type: "string", enum: ["z", "a"] } },
      labels: { type: "object", additionalProperties: { type: "string", enum: ["y", "x"] } },
    });
    expect(many).toEqual({ type: "array", items: { type: "string", enum: ["b", "a"] } });
  });
});
