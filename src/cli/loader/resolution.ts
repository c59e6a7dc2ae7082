import { extname } from "node:path";

/** What TypeScript (NodeNext) lets an import name for a TypeScript file: its output's extension. */
const SOURCE_EXTENSIONS: Readonly<Record<string, readonly string[]>> = {
  ".js": [".ts", ".tsx"],
  ".jsx": [".tsx"],
  ".mjs": [".mts"],
  ".cjs": [".cts"],
};

/**
 * The TypeScript files a relative or absolute specifier may stand for when the JavaScript file
 * it names does not exist: `./services.js` is `./services.ts` (or `.tsx`), `./a.mjs` is
 * `./a.mts`, `./a.cjs` is `./a.cts`. Package names get none: packages ship JavaScript.
 */
export function typeScriptAlternatives(specifier: string): string[] {
  if (!isPathSpecifier(specifier)) return [];
  const extension = extname(specifier);
  const sources = SOURCE_EXTENSIONS[extension.toLowerCase()] ?? [];
  return sources.map((source) => `${specifier.slice(0, -extension.length)}${source}`);
}

/** `./x`, `../x`, `/x`, `C:\x` or a file: URL, as opposed to a package name. */
export function isPathSpecifier(specifier: string): boolean {
  return (
    /^\.{1,2}(\/|\\|$)/.test(specifier) ||
    specifier.startsWith("/") ||
    specifier.startsWith("file:") ||
    /^[A-Za-z]:[\\/]/.test(specifier)
  );
}
