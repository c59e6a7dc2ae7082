// Rewrites the built declarations' imports of peers that may be ES modules only (NestJS 12, AI SDK 7)
// as `import type ... with { "resolution-mode": "import" }`. The declarations are CommonJS;
// TypeScript refuses a plain import of an ES module there under `module: node16` (TS1479,
// TS1541), even though Node >= 20.19 loads it with require(). In a declaration file every
// import is a type import, so this changes no type, and it resolves the same file for the
// CommonJS releases of those peers (NestJS 11, AI SDK 6).
import { readdirSync, readFileSync, writeFileSync } from "node:fs";
import { join, relative } from "node:path";
import { fileURLToPath } from "node:url";

const ESM_ONLY_PEERS = /^(?:@nestjs\/|ai(?:\/|$))/;
const root = fileURLToPath(new URL("..", import.meta.url));
const declarations = join(root, "dist", "cjs");

const namedImport = /^import (type )?\{([^}]*)\} from "([^"]+)";$/;
let rewritten = 0;
for (const entry of readdirSync(declarations, { recursive: true })) {
  if (!entry.endsWith(".d.ts")) continue;
  const file = join(declarations, entry);
  const lines = readFileSync(file, "utf8").split("\n");
  let changed = false;
  const next = lines.map((line, index) => {
    const specifier = /from "([^"]+)"|import\("([^"]+)"\)/.exec(line);
    const module = specifier?.[1] ?? specifier?.[2];
    if (module === undefined || !ESM_ONLY_PEERS.test(module)) return line;
    const match = namedImport.exec(line);
    if (match === null) {
      throw new Error(
        `${relative(root, file)}:${index + 1}: cannot make this reference to ${module} a type import: ${line.trim()}\n` +
          `Import ${module} with named imports only (import { X } from "${module}") in src/, so the build can declare it for ES-module-only releases.`,
      );
    }
    changed = true;
    const names = match[2]
      .split(",")
      .map((name) => name.trim().replace(/^type\s+/, ""))
      .filter(Boolean);
    return `import type { ${names.join(", ")} } from "${module}" with { "resolution-mode": "import" };`;
  });
  if (changed) {
    writeFileSync(file, next.join("\n"));
    rewritten += 1;
  }
}
if (rewritten === 0)
  throw new Error(
    `no declaration in dist/cjs imports ${ESM_ONLY_PEERS}: run after tsc -p tsconfig.build.json, or remove this step.`,
  );
