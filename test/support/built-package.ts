import { existsSync } from "node:fs";
import { join } from "node:path";

/** The repository's root: the package `npm run build` builds into dist/. */
const packageRoot = join(__dirname, "..", "..");

/** Whether `npm run build` has made dist/. */
export const isBuilt = (): boolean => existsSync(join(packageRoot, "dist", "cjs", "index.js"));

/** Throws, saying to build first, when dist/ is missing; `needs` says what the caller runs from it. */
export function requireBuild(needs: string): void {
  if (!isBuilt()) throw new Error(`dist/ is missing: run \`npm run build\` first (${needs}; \`npm test\` builds).`);
}
