import { execFileSync } from "node:child_process";
import { existsSync } from "node:fs";
import { join } from "node:path";

// `npm test` builds first; these run the *built* package the way users load it, by name
// (Node resolves "toolnexus" to this package through its own `exports`).
const root = join(__dirname, "..", "..");
const node = (args: string[]) => execFileSync(process.execPath, args, { cwd: root, encoding: "utf8" });

const program = `
  const weather = defineTool({
    name: "get_weather",
    description: "Current weather for a city",
    inputSchema: { type: "object", properties: { city: { type: "string" } }, required: ["city"] },
    execute: ({ city }) => "sunny in " + city,
  });
  const kit = new Toolkit([weather]);
  kit.execute("get_weather", { city: "Chennai" }).then((r) =>
    console.log(JSON.stringify({ decl: toGemini([weather])[0].functionDeclarations[0].name, r, same: Adapters.toGemini === toGemini })));
`;

describe("the built package", () => {
  it("has been built with type declarations", () => {
    expect(existsSync(join(root, "dist/cjs/index.js"))).toBe(true);
    expect(existsSync(join(root, "dist/cjs/index.d.ts"))).toBe(true);
    expect(existsSync(join(root, "dist/esm/index.mjs"))).toBe(true);
  });

  const expected = { decl: "get_weather", r: { output: "sunny in Chennai", isError: false }, same: true };

  it("loads with require()", () => {
    const out = node(["-e", `const { defineTool, Toolkit, toGemini, Adapters } = require("toolnexus");${program}`]);
    expect(JSON.parse(out)).toEqual(expected);
  });

  it("loads with import", () => {
    const out = node([
      "--input-type=module",
      "-e",
      `import { defineTool, Toolkit, toGemini, Adapters } from "toolnexus";${program}`,
    ]);
    expect(JSON.parse(out)).toEqual(expected);
  });

  it("shares one module instance between import and require (one metadata store)", () => {
    const out = node([
      "--input-type=module",
      "-e",
      `import { createRequire } from "node:module"; import * as esm from "toolnexus";
       const cjs = createRequire(import.meta.url)("toolnexus");
       console.log(JSON.stringify(esm.Toolkit === cjs.Toolkit && esm.Tool === cjs.Tool));`,
    ]);
    expect(JSON.parse(out)).toBe(true);
  });

  it("loads toolnexus/providers, which holds types only: nothing at run time, by import or require", () => {
    const out = node([
      "--input-type=module",
      "-e",
      `import { createRequire } from "node:module"; import * as esm from "toolnexus/providers";
       const cjs = createRequire(import.meta.url)("toolnexus/providers");
       console.log(JSON.stringify({ esm: Object.keys(esm).filter((name) => name !== "default"), cjs: Object.keys(cjs) }));`,
    ]);
    expect(JSON.parse(out)).toEqual({ esm: [], cjs: [] });
  });
});
