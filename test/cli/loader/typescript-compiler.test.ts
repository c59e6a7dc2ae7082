/**
 * Which TypeScript the CLI compiles a project's .ts files with: the project's own, else the one
 * beside toolnexus, else the TypeScript 5 typescript-json-schema brings; TypeScript 7 (no
 * JavaScript compiler API) and TypeScript 4 are passed over; with none usable, an error that
 * says what to install. Fake `typescript` packages in temporary directories stand in for each.
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { isSetupError } from "../../../src/cli/loader/setup-error";
import { typeScriptFor, typeScriptPackages } from "../../../src/cli/loader/typescript-compiler";

const root = mkdtempSync(join(tmpdir(), "toolnexus-compiler-choice-"));
afterAll(() => rmSync(root, { recursive: true, force: true }));

let made = 0;
/** A fresh directory (an empty "project" or "toolnexus location"). */
function directory(): string {
  const dir = join(root, `dir-${made++}`);
  mkdirSync(dir, { recursive: true });
  return dir;
}

/**
 * A `typescript` package of `version` in `where`/node_modules: TypeScript 7's has only
 * `{ version }` (as its npm package), the others a `transpileModule` that names the package.
 */
function installTypeScript(where: string, version: string): string {
  const directory = join(where, "node_modules", "typescript");
  mkdirSync(directory, { recursive: true });
  writeFileSync(join(directory, "package.json"), JSON.stringify({ name: "typescript", version, main: "index.js" }));
  const api = version.startsWith("7.")
    ? `{ version: ${JSON.stringify(version)} }`
    : `{ version: ${JSON.stringify(version)}, transpileModule: () => ({ outputText: ${JSON.stringify(directory)} }) }`;
  writeFileSync(join(directory, "index.js"), `module.exports = ${api};\n`);
  return directory;
}

/** typescript-json-schema in `where`, with its own TypeScript `version` nested under it. */
function installSchemaGenerator(where: string, version: string): string {
  const directory = join(where, "node_modules", "typescript-json-schema");
  mkdirSync(directory, { recursive: true });
  writeFileSync(join(directory, "package.json"), JSON.stringify({ name: "typescript-json-schema", version: "0.68.0" }));
  return installTypeScript(directory, version);
}

/** Which fake package compiled: its transpileModule answers with its directory. */
const compilerOf = (project: string, toolnexus: string) =>
  typeScriptFor(project, toolnexus).transpileModule("", {}).outputText;

describe("the order the compilers are tried in", () => {
  it("the project's own TypeScript 5 comes first", () => {
    const [project, toolnexus] = [directory(), directory()];
    const own = installTypeScript(project, "5.4.5");
    installTypeScript(toolnexus, "5.9.3");
    installSchemaGenerator(project, "5.9.3");
    expect(compilerOf(project, toolnexus)).toBe(own);
  });

  it("then the one installed beside toolnexus", () => {
    const [project, toolnexus] = [directory(), directory()];
    const beside = installTypeScript(toolnexus, "5.9.3");
    installSchemaGenerator(project, "5.8.2");
    expect(compilerOf(project, toolnexus)).toBe(beside);
  });

  it("a project on TypeScript 7 compiles with the TypeScript 5 typescript-json-schema brings", () => {
    const [project, toolnexus] = [directory(), directory()];
    installTypeScript(project, "7.0.2");
    const fromSchemaGenerator = installSchemaGenerator(project, "5.9.3");
    expect(typeScriptPackages(project, toolnexus).map(({ version, whose }) => `${version} ${whose}`)).toEqual([
      "7.0.2 the project's",
      "5.9.3 typescript-json-schema's",
    ]);
    expect(compilerOf(project, toolnexus)).toBe(fromSchemaGenerator);
  });

  it("typescript-json-schema installed beside toolnexus is found too", () => {
    const [project, toolnexus] = [directory(), directory()];
    const fromSchemaGenerator = installSchemaGenerator(toolnexus, "5.9.3");
    expect(compilerOf(project, toolnexus)).toBe(fromSchemaGenerator);
  });

  it("TypeScript 4 is passed over like TypeScript 7", () => {
    const [project, toolnexus] = [directory(), directory()];
    installTypeScript(project, "4.9.5");
    const beside = installTypeScript(toolnexus, "6.0.1");
    expect(compilerOf(project, toolnexus)).toBe(beside);
  });
});

describe("no usable TypeScript", () => {
  const failureOf = (project: string, toolnexus: string): Error => {
    try {
      typeScriptFor(project, toolnexus);
    } catch (error) {
      return error as Error;
    }
    throw new Error("typeScriptFor found a compiler where none is usable");
  };

  it("none installed: says so, what to install, and that compiled JavaScript needs no compiler", () => {
    const [project, toolnexus] = [directory(), directory()];
    const error = failureOf(project, toolnexus);
    expect(isSetupError(error)).toBe(true);
    expect(error.message).toBe(
      `loading TypeScript files needs the TypeScript 5 compiler API, and no typescript package is installed (looked from ${project}). ` +
        "Install it in the project: `npm install --save-dev typescript@5`, or `npm install --save-dev typescript-json-schema`, " +
        "which brings TypeScript 5 (and toolnexus generate). Or compile the project and give the CLI the JavaScript " +
        "(e.g. `toolnexus list dist/tools.js`), which needs no compiler.",
    );
  });

  it("only TypeScript 7 installed: names it and why it cannot compile", () => {
    const [project, toolnexus] = [directory(), directory()];
    installTypeScript(project, "7.0.2");
    const error = failureOf(project, toolnexus);
    expect(isSetupError(error)).toBe(true);
    expect(error.message).toContain(
      "and typescript 7.0.2 (the project's) is the native compiler, whose package has no JavaScript compiler API (looked from",
    );
    expect(error.message).toContain("`npm install --save-dev typescript@5`");
  });

  it("a TypeScript that cannot be loaded: names it and says to reinstall", () => {
    const [project, toolnexus] = [directory(), directory()];
    const broken = installTypeScript(project, "5.9.3");
    writeFileSync(join(broken, "index.js"), 'throw new Error("lib/typescript.js is truncated");\n');
    const error = failureOf(project, toolnexus);
    expect(isSetupError(error)).toBe(true);
    expect(error.message).toBe(
      `typescript 5.9.3 (the project's, ${broken}) cannot be loaded (lib/typescript.js is truncated). ` +
        "Reinstall it: `npm install` in the project.",
    );
  });
});
