import { execFile } from "node:child_process";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import * as ts from "typescript";
import { MANIFEST_FILE } from "../../src/manifest";
import { assertBuilt, root } from "../generate/support";
import { cityManifest, removeTempTrees, tempTree, WEATHER_SOURCE } from "./temp-package";

/**
 * The built package, in a process of its own started from another directory: an ES module
 * application (whose stack frames are file:// URLs) finds the manifest at its package root.
 */
beforeAll(assertBuilt);
afterAll(removeTempTrees);

const toolnexus = pathToFileURL(join(root, "dist", "esm", "index.mjs")).href;

function run(file: string, cwd: string): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve, reject) => {
    execFile(
      process.execPath,
      [file],
      { cwd, encoding: "utf8", env: { ...process.env, TOOLNEXUS_MANIFEST: "" } },
      (error, stdout, stderr) => {
        if (error && typeof error.code !== "number") return reject(error);
        resolve({ code: error ? (error.code as number) : 0, stdout, stderr });
      },
    );
  });
}

it("an ES module application started from elsewhere finds the manifest next to its code", async () => {
  const tools = ts
    .transpileModule(WEATHER_SOURCE, {
      fileName: "weather.ts",
      compilerOptions: {
        module: ts.ModuleKind.ES2022,
        target: ts.ScriptTarget.ES2022,
        experimentalDecorators: true,
        emitDecoratorMetadata: false,
      },
    })
    .outputText.replace('from "toolnexus"', `from ${JSON.stringify(toolnexus)}`);
  const app = tempTree({
    "package.json": { type: "module" },
    [MANIFEST_FILE]: cityManifest("Weather.forecast", "From the package root."),
    "dist/tools/weather.mjs": tools,
    "dist/main.mjs": [
      `import { Toolkit } from ${JSON.stringify(toolnexus)};`,
      'import { Weather } from "./tools/weather.mjs";',
      "const tool = new Toolkit([new Weather()]).get('forecast');",
      "console.log(JSON.stringify({ description: tool.description, inputSchema: tool.inputSchema }));",
      "",
    ].join("\n"),
  });
  const elsewhere = tempTree({});
  const result = await run(join(app, "dist", "main.mjs"), elsewhere);
  expect(result.stderr).toBe("");
  expect(JSON.parse(result.stdout)).toEqual({
    description: "From the package root.",
    inputSchema: {
      type: "object",
      properties: { city: { type: "string", description: "The city." } },
      required: ["city"],
      additionalProperties: false,
    },
  });
});
