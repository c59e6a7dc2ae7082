import { readFileSync, rmSync } from "node:fs";
import { join } from "node:path";
import { GenerateError, generateManifest, type SourceProblem } from "../../src/generate";
import { assertBuilt, runBin, tempProject } from "./support";

/**
 * A type error stops generation only where the manifest depends on it: in a file that declares
 * a tool class or a type the tools' parameters reach (or that may declare tools the error
 * hides). Elsewhere it is a warning with its file:line, and the manifest is written.
 */
const made: string[] = [];
afterAll(() => {
  for (const dir of made) rmSync(dir, { recursive: true, force: true });
});

const TOOLS = `import { Tool } from "toolnexus";\nimport type { Query } from "./query";\nexport class Search {\n  @Tool("Searches.")\n  find(query: Query) {\n    return query.text;\n  }\n}\n`;
const QUERY = `export interface Query {\n  text: string;\n}\n`;
const BROKEN = `export const n: number = "text";\n`;
const TS2322 = "error TS2322: Type 'string' is not assignable to type 'number'.";

function project(files: Record<string, string>): string {
  const dir = tempProject({ "src/tools.ts": TOOLS, "src/query.ts": QUERY, ...files });
  made.push(dir);
  return dir;
}

function problemsOf(dir: string): SourceProblem[] {
  try {
    generateManifest({ cwd: dir });
  } catch (error) {
    expect(error).toBeInstanceOf(GenerateError);
    return (error as GenerateError).problems;
  }
  throw new Error("expected generation to fail");
}

describe("type errors and the files the tools depend on", () => {
  it("an error in a file no tool depends on is a warning with its location; the manifest is generated", () => {
    const result = generateManifest({ cwd: project({ "src/unrelated.ts": BROKEN }) });
    expect(Object.keys(result.manifest.tools)).toEqual(["Search.find"]);
    expect(result.warnings).toEqual([
      `src/unrelated.ts:1:14: ${TS2322} (no tool depends on src/unrelated.ts: the manifest was generated)`,
    ]);
  });

  it("an error in the file of a tool class stops it, wherever in the file", () => {
    expect(problemsOf(project({ "src/tools.ts": `${TOOLS}${BROKEN}` }))).toEqual([
      { file: "src/tools.ts", line: 9, column: 14, message: TS2322 },
    ]);
  });

  it("an error in a file declaring a type the tools' parameters reach stops it", () => {
    expect(problemsOf(project({ "src/query.ts": `${QUERY}${BROKEN}` }))).toEqual([
      { file: "src/query.ts", line: 4, column: 14, message: TS2322 },
    ]);
  });

  it("an error in a file that uses toolnexus's decorators stops it, even where no tool could be read", () => {
    const hidden = `import { Tool } from "toolnexus";\nexport class Hidden {\n  @Tool("Hides.")\n  run(x: Missing) {}\n}\n`;
    expect(problemsOf(project({ "src/hidden.ts": hidden }))).toEqual([
      { file: "src/hidden.ts", line: 4, column: 10, message: "error TS2304: Cannot find name 'Missing'." },
    ]);
  });

  it("errors of the whole project (options, globals) stop it", () => {
    const dir = tempProject(
      { "src/tools.ts": TOOLS, "src/query.ts": QUERY },
      { lib: ["ES2022"], types: ["no-such-types-package"] },
    );
    made.push(dir);
    expect(problemsOf(dir).map((p) => [p.file, p.message])).toEqual([
      [undefined, expect.stringContaining("Cannot find type definition file for 'no-such-types-package'")],
    ]);
  });
});

describe("the bin with type errors in files no tool depends on", () => {
  beforeAll(assertBuilt);

  it("writes the manifest, prints the warning with file:line (also with --quiet) and exits 0; --check the same", async () => {
    const dir = project({ "src/unrelated.ts": BROKEN });
    const warning = `toolnexus generate: warning: src/unrelated.ts:1:14: ${TS2322} (no tool depends on src/unrelated.ts: the manifest was generated)\n`;
    const written = await runBin(["generate", "--quiet"], dir);
    expect(written).toEqual({ code: 0, stdout: "", stderr: warning });
    expect(Object.keys(JSON.parse(readFileSync(join(dir, "toolnexus.manifest.json"), "utf8")).tools)).toEqual([
      "Search.find",
    ]);
    const checked = await runBin(["generate", "--check", "--quiet"], dir);
    expect(checked).toEqual({ code: 0, stdout: "", stderr: warning });
  });
});
