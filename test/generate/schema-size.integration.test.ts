import { rmSync } from "node:fs";
import { join } from "node:path";
import { GenerateError, generateManifest } from "../../src/generate";
import { DOUBLING_LEVELS } from "../support/doubling-schema";
import { tempProject } from "./support";

const made: string[] = [];
afterAll(() => {
  for (const dir of made) rmSync(dir, { recursive: true, force: true });
});

/** Interfaces `Level0` ... each with a `left` and a `right` of the next one: their schema, written out, doubles at each level. */
function doublingTypes(levels: number): string {
  const lines = Array.from(
    { length: levels },
    (_, level) => `export interface Level${level} { left: Level${level + 1}; right: Level${level + 1} }`,
  );
  return [...lines, `export interface Level${levels} { leaf: string }`].join("\n");
}

/** A project whose one tool is `method`, after the doubling types. */
function project(method: string): string {
  const dir = tempProject({
    "src/forest.ts": `import { Param, Tool } from "toolnexus";\n${doublingTypes(DOUBLING_LEVELS)}\nexport class Forest {\n  @Tool("Walks a tree")\n  ${method}\n}\n`,
  });
  made.push(dir);
  return dir;
}

/** The part of the message that says where the schema passed the bound, and the limit. */
const PAST_THE_LIMIT =
  /with each named type it uses written out wherever it is used, its schema grows past 1,000,000 characters of JSON \(toolnexus's limit, MAX_SCHEMA_SIZE\) at \/properties\/(?:left|right)(?:\/properties(?:\/(?:left|right))?)*: types used in many places multiply/;

describe("toolnexus generate and types whose schema would be too large written out", () => {
  it(`fails on a parameter whose type doubles at each of ${DOUBLING_LEVELS} levels, naming the tool, the parameter, where the schema passed the limit, and the limit`, () => {
    const dir = project('walk(@Param("tree") tree: Level0) {\n    return "walked";\n  }');
    let refused: unknown;
    try {
      generateManifest({ project: join(dir, "tsconfig.json"), cwd: dir });
    } catch (error) {
      refused = error;
    }
    expect(refused).toBeInstanceOf(GenerateError);
    const [problem, ...others] = (refused as GenerateError).problems;
    expect(others).toEqual([]);
    expect(problem).toMatchObject({ file: "src/forest.ts", className: "Forest", method: "walk", parameter: "tree" });
    expect(problem!.message).toMatch(
      /^Forest\.walk, parameter 0 \("tree"\): its type "Level0" cannot be turned into a JSON Schema: /,
    );
    expect(problem!.message).toMatch(PAST_THE_LIMIT);
    expect(problem!.message).toMatch(
      /\. Give the parameter an explicit schema with @Param\(\{ schema: \{\.\.\.\} \}\)\.$/,
    );
  });

  it("writes no output schema for such a result type, with a warning saying why", () => {
    const dir = project("walk(): Level0 {\n    return {} as Level0;\n  }");
    const { manifest, warnings } = generateManifest({ project: join(dir, "tsconfig.json"), cwd: dir });
    expect(manifest.tools["Forest.walk"]!.output).toBeUndefined();
    expect(warnings).toHaveLength(1);
    expect(warnings[0]).toMatch(
      /^src\/forest\.ts:\d+:\d+: Forest\.walk: its result type "Level0" gives no output schema: /,
    );
    expect(warnings[0]).toMatch(PAST_THE_LIMIT);
  });
});
