// Writes dist/esm/index.mjs: a thin ES module over the CommonJS build, so `import` and
// `require` share one copy of the code (one metadata store, one `instanceof` identity).
import { createRequire } from "node:module";
import { mkdirSync, writeFileSync } from "node:fs";

const require = createRequire(import.meta.url);
const entries = { index: "../dist/cjs/index.js" };
mkdirSync(new URL("../dist/esm/", import.meta.url), { recursive: true });
for (const [name, path] of Object.entries(entries)) {
  const names = Object.keys(require(path)).filter((key) => key !== "default" && key !== "__esModule");
  const body = [
    `import cjs from ${JSON.stringify(`../cjs/${name}.js`)};`,
    `export const { ${names.join(", ")} } = cjs;`,
    `export default cjs;`,
    "",
  ].join("\n");
  writeFileSync(new URL(`../dist/esm/${name}.mjs`, import.meta.url), body);
}
