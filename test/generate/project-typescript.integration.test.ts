import {
  cpSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  renameSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from "node:fs";
import { createRequire } from "node:module";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { generateManifest } from "../../src/generate";
import { assertBuilt, fixtures, root, runBin, tempProject } from "./support";

/**
 * Generation runs on the TypeScript typescript-json-schema loads (toolnexus's compiler), never
 * on the project's: test/fixtures/generate/typescript7 is a project on TypeScript 7, whose
 * `typescript` package has no compiler API (its fake-typescript/ is put at node_modules/typescript).
 */
beforeAll(assertBuilt);

const made: string[] = [];
afterAll(() => {
  for (const dir of made) rmSync(dir, { recursive: true, force: true });
});

/** The version of the `typescript` typescript-json-schema resolves. */
const compilerVersion = (createRequire(require.resolve("typescript-json-schema"))("typescript") as { version: string })
  .version;

/** A copy of the typescript7 fixture in the temp directory, with its fake TypeScript 7 installed. */
function typescript7Project(): string {
  const dir = mkdtempSync(join(tmpdir(), "toolnexus-ts7-"));
  made.push(dir);
  cpSync(join(fixtures, "typescript7"), dir, { recursive: true });
  mkdirSync(join(dir, "node_modules"));
  renameSync(join(dir, "fake-typescript"), join(dir, "node_modules", "typescript"));
  return dir;
}

describe("a project on TypeScript 7 (no compiler API in its typescript package)", () => {
  it("the fake stands for TypeScript 7: its typescript package has a version and nothing else", () => {
    const dir = typescript7Project();
    const projectTypeScript = createRequire(join(dir, "package.json"))("typescript") as Record<string, unknown>;
    expect(projectTypeScript).toEqual({ version: "7.0.2", versionMajorMinor: "7.0" });
    expect(projectTypeScript.getParsedCommandLineOfConfigFile).toBeUndefined();
  });

  it("the bin writes the manifest with toolnexus's compiler and says which TypeScript it used", async () => {
    const dir = typescript7Project();
    const run = await runBin(["generate", "--json"], dir);
    expect(run.code).toBe(0);
    const described = `TypeScript ${compilerVersion} (toolnexus's compiler; the project has typescript 7.0.2)`;
    expect(JSON.parse(run.stdout)).toMatchObject({
      ok: true,
      written: true,
      tools: 1,
      compiler: described,
      errors: [],
      warnings: [],
    });
    expect(run.stderr).toContain(`tsconfig.json: 1 source file, ${described} (program in `);
    const manifest = JSON.parse(readFileSync(join(dir, "toolnexus.manifest.json"), "utf8"));
    expect(manifest.tools["WeatherService.current"].parameters[1]).toEqual({
      kind: "param",
      name: "units",
      optional: true,
      schema: { type: "string", enum: ["metric", "imperial"], default: "metric" },
    });
  });

  it("is strict unless its tsconfig says otherwise (TypeScript 6's default), unlike a project on toolnexus's TypeScript", () => {
    const dir = typescript7Project();
    const config = JSON.parse(readFileSync(join(dir, "tsconfig.json"), "utf8"));
    delete config.compilerOptions.strict;
    writeFileSync(join(dir, "tsconfig.json"), JSON.stringify(config));
    const noteOf = (project: string) =>
      generateManifest({ cwd: project }).manifest.tools["WeatherService.current"]!.parameters[2];
    expect(noteOf(dir)).toEqual({
      kind: "param",
      name: "note",
      optional: true,
      schema: { type: ["null", "string"], default: null },
    });

    const same = tempProject(
      { "src/weather.ts": readFileSync(join(dir, "src", "weather.ts"), "utf8") },
      { strict: undefined },
    );
    made.push(same);
    expect(noteOf(same)).toEqual({
      kind: "param",
      name: "note",
      optional: true,
      schema: { type: "string", default: null },
    });
  });

  it("tsconfig options only the newer TypeScript knows are warnings there, and errors in a project on toolnexus's TypeScript", () => {
    const options = { stableTypeOrderingOfTheFuture: true };
    const dir = typescript7Project();
    const config = JSON.parse(readFileSync(join(dir, "tsconfig.json"), "utf8"));
    const text = JSON.stringify({ ...config, compilerOptions: { ...config.compilerOptions, ...options } });
    writeFileSync(join(dir, "tsconfig.json"), text);
    const result = generateManifest({ cwd: dir });
    expect(Object.keys(result.manifest.tools)).toEqual(["WeatherService.current"]);
    expect(result.warnings).toEqual([
      `tsconfig.json:1:${text.indexOf('"stableTypeOrderingOfTheFuture"') + 1}: error TS5023: Unknown compiler option 'stableTypeOrderingOfTheFuture'. (the project has typescript 7.0.2; toolnexus reads it with TypeScript ${compilerVersion}, which ignores this option)`,
    ]);

    const same = tempProject({ "src/a.ts": "export const a = 1;\n" }, options);
    made.push(same);
    expect(() => generateManifest({ cwd: same })).toThrow(
      "error TS5023: Unknown compiler option 'stableTypeOrderingOfTheFuture'.",
    );
  });
});

describe("without typescript-json-schema", () => {
  it("generate exits 2 naming the package to install", async () => {
    // The built package alone, next to a node_modules holding everything but typescript-json-schema.
    const dir = mkdtempSync(join(tmpdir(), "toolnexus-no-tjs-"));
    made.push(dir);
    cpSync(join(root, "dist"), join(dir, "dist"), { recursive: true });
    cpSync(join(root, "package.json"), join(dir, "package.json"));
    mkdirSync(join(dir, "node_modules"));
    for (const name of readdirSync(join(root, "node_modules"))) {
      if (name !== "typescript-json-schema" && name !== ".bin")
        symlinkSync(join(root, "node_modules", name), join(dir, "node_modules", name));
    }
    const project = tempProject({ "src/a.ts": "export const a = 1;\n" });
    made.push(project);
    const run = await runBin(["generate"], project, join(dir, "dist", "cjs", "cli", "main.js"));
    expect(run.code).toBe(2);
    expect(run.stderr).toBe(
      "toolnexus generate: toolnexus generate needs typescript-json-schema (an optional peer dependency of toolnexus), which is not installed. Install it with `npm install --save-dev typescript-json-schema`.\ntoolnexus generate: failed with 1 error; nothing was written.\n",
    );
  });
});
