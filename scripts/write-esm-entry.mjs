// Writes dist/esm/<entry>.mjs: thin ES modules over the CommonJS build, so `import` and
// `require` share one copy of the code (one metadata store, one `instanceof` identity).
import { createRequire } from "node:module";
import { existsSync, mkdirSync, writeFileSync } from "node:fs";

const require = createRequire(import.meta.url);
const entries = { index: "index.js", mcp: "mcp/index.js", nestjs: "nestjs/index.js" };
mkdirSync(new URL("../dist/esm/", import.meta.url), { recursive: true });
for (const [name, path] of Object.entries(entries)) {
  const file = new URL(`../dist/cjs/${path}`, import.meta.url);
  if (!existsSync(file)) throw new Error(`dist/cjs/${path} is missing: every entry point in package.json "exports" must be built`);
  // Loading an optional edge needs its peer dependency; the build machine has them (devDependencies).
  const names = Object.keys(require(file.pathname)).filter((key) => key !== "default" && key !== "__esModule");
  const body = [`import cjs from ${JSON.stringify(`../cjs/${path}`)};`, names.length > 0 ? `export const { ${names.join(", ")} } = cjs;` : "", `export default cjs;`, ""].join(
    "\n",
  );
  writeFileSync(new URL(`../dist/esm/${name}.mjs`, import.meta.url), body);
}
