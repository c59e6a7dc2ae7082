// Writes the `import` side of every entry point in package.json "exports": a thin ES module
// (.mjs) over the CommonJS build, so `import` and `require` share one copy of the code (one
// metadata store, one `instanceof` identity), and its declarations (.d.mts), so TypeScript sees
// an ES module where Node loads one. Also checks that `typesVersions` gives node10 resolution
// the same declarations as `require` for every subpath.
import { createRequire } from "node:module";
import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { dirname, posix, relative } from "node:path";
import { fileURLToPath } from "node:url";

const root = fileURLToPath(new URL("..", import.meta.url));
const require = createRequire(import.meta.url);
const manifest = JSON.parse(readFileSync(`${root}package.json`, "utf8"));
const inPackage = (path) => `${root}${posix.normalize(path)}`;

for (const [subpath, target] of Object.entries(manifest.exports)) {
  if (typeof target === "string") continue; // a plain file such as ./package.json
  const { import: esm, require: cjs } = target;
  if (!esm?.types || !esm?.default || !cjs?.types || !cjs?.default) {
    throw new Error(
      `package.json exports["${subpath}"] needs import: { types, default } and require: { types, default }; got ${JSON.stringify(target)}.`,
    );
  }
  const cjsFile = inPackage(cjs.default);
  if (!existsSync(cjsFile))
    throw new Error(
      `${cjs.default} is missing: every entry point in package.json "exports" must be built (tsc -p tsconfig.build.json).`,
    );
  if (!existsSync(inPackage(cjs.types)))
    throw new Error(`${cjs.types} is missing: the build must emit declarations for exports["${subpath}"].`);
  assertTypesVersions(subpath, cjs.types);

  const esmFile = inPackage(esm.default);
  mkdirSync(dirname(esmFile), { recursive: true });
  const specifier = relative(dirname(esmFile), cjsFile).split("\\").join("/");
  const from = JSON.stringify(specifier.startsWith(".") ? specifier : `./${specifier}`);
  // Loading an optional edge needs its peer dependency; the build machine has them (devDependencies).
  const names = Object.keys(require(cjsFile)).filter((key) => key !== "default" && key !== "__esModule");
  writeFileSync(
    esmFile,
    [
      `import cjs from ${from};`,
      names.length > 0 ? `export const { ${names.join(", ")} } = cjs;` : "",
      `export default cjs;`,
      "",
    ].join("\n"),
  );
  // Types and values alike come from the CommonJS declarations; the default export is the
  // CommonJS module object, as Node gives it to `import cjs from`.
  writeFileSync(
    inPackage(esm.types),
    [`export * from ${from};`, `import cjs from ${from};`, `export default cjs;`, ""].join("\n"),
  );
}

/** node10 resolution ignores "exports": `typesVersions` must send `toolnexus/<subpath>` to its declarations. */
function assertTypesVersions(subpath, types) {
  if (subpath === ".") {
    if (posix.normalize(manifest.types ?? "") !== posix.normalize(types))
      throw new Error(`package.json "types" must be ${types}, the declarations of exports["."].`);
    return;
  }
  const key = subpath.replace(/^\.\//, "");
  const mapped = manifest.typesVersions?.["*"]?.[key];
  if (!Array.isArray(mapped) || mapped.length !== 1 || posix.normalize(mapped[0]) !== posix.normalize(types)) {
    throw new Error(
      `package.json typesVersions["*"]["${key}"] must be ["${types}"] so that node10 resolution finds the types of "${manifest.name}/${key}"; got ${JSON.stringify(mapped)}.`,
    );
  }
}
