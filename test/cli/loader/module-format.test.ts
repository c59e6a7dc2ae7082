/** A file's format: by extension, else by the nearest package.json "type", as Node and TypeScript's NodeNext decide it. */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { moduleFormatOf } from "../../../src/cli/loader/module-format";

const root = mkdtempSync(join(tmpdir(), "toolnexus-format-"));
afterAll(() => rmSync(root, { recursive: true, force: true }));

function packageAt(path: string, manifest: string | undefined): string {
  const dir = join(root, path);
  mkdirSync(join(dir, "src", "deep"), { recursive: true });
  if (manifest !== undefined) writeFileSync(join(dir, "package.json"), manifest);
  return dir;
}

it(".mts/.mjs are ES modules and .cts/.cjs CommonJS, whatever the package says", () => {
  const esm = packageAt("esm-ext", '{ "type": "module" }');
  const cjs = packageAt("cjs-ext", "{}");
  for (const dir of [esm, cjs]) {
    expect([".mts", ".mjs"].map((extension) => moduleFormatOf(join(dir, `a${extension}`)))).toEqual([
      "module",
      "module",
    ]);
    expect([".cts", ".cjs"].map((extension) => moduleFormatOf(join(dir, `a${extension}`)))).toEqual([
      "commonjs",
      "commonjs",
    ]);
  }
});

it('.ts, .tsx and .js follow the nearest package.json: "module" is ESM, anything else CommonJS', () => {
  const esm = packageAt("esm", '{ "type": "module" }');
  expect(["a.ts", "a.tsx", "a.js"].map((file) => moduleFormatOf(join(esm, "src", "deep", file)))).toEqual([
    "module",
    "module",
    "module",
  ]);
  const commonjs = packageAt("esm/nested-cjs", '{ "type": "commonjs" }');
  expect(moduleFormatOf(join(commonjs, "src", "a.ts"))).toBe("commonjs");
  const untyped = packageAt("untyped", '{ "name": "x" }');
  expect(moduleFormatOf(join(untyped, "a.ts"))).toBe("commonjs");
});

it("a package.json that is not JSON is an error that names it", () => {
  const broken = packageAt("broken", "{ type: module }");
  expect(() => moduleFormatOf(join(broken, "a.ts"))).toThrow(`${join(broken, "package.json")} is not valid JSON`);
});
