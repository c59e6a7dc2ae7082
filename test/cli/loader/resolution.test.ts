/** The TypeScript files an import may stand for, NodeNext style, when the JavaScript file it names does not exist. */
import { typeScriptAlternatives } from "../../../src/cli/loader/resolution";

it("an import names the compiled file: .js is .ts or .tsx, .mjs is .mts, .cjs is .cts, .jsx is .tsx", () => {
  expect(typeScriptAlternatives("./services.js")).toEqual(["./services.ts", "./services.tsx"]);
  expect(typeScriptAlternatives("../lib/a.mjs")).toEqual(["../lib/a.mts"]);
  expect(typeScriptAlternatives("/abs/a.cjs")).toEqual(["/abs/a.cts"]);
  expect(typeScriptAlternatives("./view.jsx")).toEqual(["./view.tsx"]);
});

it("package names, other extensions and no extension have none", () => {
  expect(typeScriptAlternatives("lodash/fp.js")).toEqual([]);
  expect(typeScriptAlternatives("./data.json")).toEqual([]);
  expect(typeScriptAlternatives("./services")).toEqual([]);
});
