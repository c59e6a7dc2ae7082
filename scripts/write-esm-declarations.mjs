// Writes ES-module declarations (.d.mts) for the entry points whose types come from a peer
// that ships separate ES-module and CommonJS declarations (@langchain/core: .d.ts and .d.cts).
// The `import` side of every entry re-exports the CommonJS declarations (write-esm-entry.mjs),
// and there a peer's types resolve through its `require` condition: an ES-module project
// under node16/nodenext would see toolnexus's tools typed with the peer's CommonJS classes and
// its own code with the ES-module ones, two distinct declarations of one class (protected
// members make them incompatible), so `createAgent({ tools })` would not type-check. The copies
// written here import the peer as ES modules do; toolnexus's own types still come from the
// CommonJS declarations, as at run time. Run after write-esm-entry.mjs.
import { existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { dirname, join, posix, relative } from "node:path";
import { fileURLToPath } from "node:url";

/** package.json "exports" subpaths whose declarations import such a peer. */
const ENTRIES = ["./langchain"];

const root = fileURLToPath(new URL("..", import.meta.url));
const manifest = JSON.parse(readFileSync(join(root, "package.json"), "utf8"));
const toPosix = (path) => path.split("\\").join("/");

for (const subpath of ENTRIES) {
  const { import: esm, require: cjs } = manifest.exports[subpath] ?? {};
  if (esm?.types === undefined || cjs?.types === undefined)
    throw new Error(
      `package.json exports["${subpath}"] is missing: update ENTRIES in ${relative(root, fileURLToPath(import.meta.url))}.`,
    );
  const cjsDirectory = join(root, dirname(cjs.types));
  const esmDirectory = join(root, dirname(esm.types), posix.basename(subpath));
  for (const file of readdirSync(cjsDirectory, { recursive: true }).filter((name) => name.endsWith(".d.ts"))) {
    const source = join(cjsDirectory, file);
    const target = join(esmDirectory, file.replace(/\.d\.ts$/, ".d.mts"));
    mkdirSync(dirname(target), { recursive: true });
    writeFileSync(target, esmDeclaration(readFileSync(source, "utf8"), source, target, cjsDirectory));
  }
  // The entry's types: the ES-module copies; its default export stays the CommonJS module object.
  const entry = join(root, esm.types);
  const index = toPosix(relative(dirname(entry), join(esmDirectory, "index.d.mts"))).replace(/\.d\.mts$/, ".mjs");
  const cjsEntry = toPosix(relative(dirname(entry), join(root, cjs.default)));
  writeFileSync(
    entry,
    [
      `export * from "./${index}";`,
      `import cjs from "${cjsEntry.startsWith(".") ? cjsEntry : `./${cjsEntry}`}";`,
      `export default cjs;`,
      "",
    ].join("\n"),
  );
}

/**
 * `text` (a CommonJS declaration file at `source`) as an ES-module one at `target`: relative
 * specifiers into the entry's own directory point at the sibling copies (`.mjs`), the others
 * at the CommonJS declarations (`.js`); package specifiers stay as they are.
 */
function esmDeclaration(text, source, target, entryDirectory) {
  const rewrite = (specifier) => {
    if (!specifier.startsWith(".")) return specifier;
    const written = join(dirname(source), specifier);
    // A folder's import names its index (`../toolkit` is `../toolkit/index`).
    const resolved =
      existsSync(`${written}.d.ts`) || !existsSync(join(written, "index.d.ts")) ? written : join(written, "index");
    const inEntry = !relative(entryDirectory, resolved).startsWith("..");
    const path = inEntry ? join(dirname(target), relative(dirname(source), resolved)) : resolved;
    const pointed = toPosix(relative(dirname(target), path)) + (inEntry ? ".mjs" : ".js");
    return pointed.startsWith(".") ? pointed : `./${pointed}`;
  };
  return text
    .replace(/(from\s+|import\s*\(\s*)"([^"]+)"/g, (_match, lead, specifier) => `${lead}"${rewrite(specifier)}"`)
    .replace(/^\/\/# sourceMappingURL=.*$/m, "");
}
