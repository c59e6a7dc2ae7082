/**
 * The CLI compiles decorators as the project does: legacy decorators with their metadata when
 * the nearest tsconfig.json (its `extends` followed) enables experimentalDecorators, standard
 * (TC39) decorators when it does not, and legacy ones where there is no tsconfig.json. Told
 * apart by the emitted JavaScript: TypeScript writes `__esDecorate` for standard decorators,
 * `__decorate` and `__metadata` for legacy ones.
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { compileTypeScript } from "../../../src/cli/loader/compile";
import { isSetupError } from "../../../src/cli/loader/setup-error";

const root = mkdtempSync(join(tmpdir(), "toolnexus-decorator-mode-"));
afterAll(() => rmSync(root, { recursive: true, force: true }));

const SERVICE = [
  "declare const Tool: any;",
  "export class Weather {",
  "  @Tool",
  "  forecast(city: string, days: number) { return `${city} ${days}`; }",
  "}",
].join("\n");

/** Writes `files` under a fresh project directory and compiles its src/tools.ts. */
function compiledIn(project: string, files: Record<string, string>): string {
  const dir = join(root, project);
  for (const [path, text] of Object.entries({ ...files, "src/tools.ts": SERVICE })) {
    mkdirSync(dirname(join(dir, path)), { recursive: true });
    writeFileSync(join(dir, path), text);
  }
  return compileTypeScript(SERVICE, join(dir, "src", "tools.ts"), "commonjs");
}

const experimental = JSON.stringify({ compilerOptions: { experimentalDecorators: true } });

it("a tsconfig.json that enables experimentalDecorators: legacy decorators with design:paramtypes", () => {
  const js = compiledIn("legacy", { "tsconfig.json": experimental });
  expect(js).toContain("__decorate(");
  expect(js).toContain('__metadata("design:paramtypes", [String, Number])');
  expect(js).not.toContain("__esDecorate");
});

it("experimentalDecorators from a file the tsconfig.json extends counts too", () => {
  const js = compiledIn("extended", {
    "tsconfig.base.json": experimental,
    "tsconfig.json": JSON.stringify({ extends: "./tsconfig.base.json", compilerOptions: { strict: true } }),
  });
  expect(js).toContain("__decorate(");
  expect(js).not.toContain("__esDecorate");
});

it("a tsconfig.json without experimentalDecorators: standard decorators, no metadata", () => {
  const js = compiledIn("standard", { "tsconfig.json": JSON.stringify({ compilerOptions: { strict: true } }) });
  expect(js).toContain("__esDecorate(");
  expect(js).not.toContain("__decorate(");
  expect(js).not.toContain("__metadata");
});

it("the nearest tsconfig.json decides: one in a subfolder overrides the project's", () => {
  const js = compiledIn("nested", {
    "tsconfig.json": experimental,
    "src/tsconfig.json": JSON.stringify({ compilerOptions: { experimentalDecorators: false } }),
  });
  expect(js).toContain("__esDecorate(");
});

it("no tsconfig.json anywhere up from the file: legacy decorators with metadata", () => {
  const js = compiledIn("bare", {});
  expect(js).toContain('__metadata("design:paramtypes", [String, Number])');
});

it("a tsconfig.json whose extends is missing is an error naming it, not a silent switch of decorators", () => {
  const project = join(root, "broken");
  const config = join(project, "tsconfig.json");
  let failure: unknown;
  try {
    compiledIn("broken", { "tsconfig.json": JSON.stringify({ extends: "./missing.json" }) });
  } catch (error) {
    failure = error;
  }
  expect(isSetupError(failure)).toBe(true);
  expect((failure as Error).message).toBe(
    `${config} cannot be read (Cannot read file '${join(project, "missing.json")}'.); the CLI reads it to compile ` +
      "decorators as the project does (experimentalDecorators, or standard decorators without it). Fix it or the " +
      "file it extends.",
  );
});
