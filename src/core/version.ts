import { readFileSync } from "node:fs";
import { dirname, join } from "node:path";

let cached: string | undefined;

/** This package's version, read from its package.json (found from here, built or not). */
export function packageVersion(): string {
  if (cached !== undefined) return cached;
  for (let dir = __dirname, parent = dirname(dir); ; dir = parent, parent = dirname(dir)) {
    try {
      const manifest = JSON.parse(readFileSync(join(dir, "package.json"), "utf8")) as {
        name?: string;
        version?: string;
      };
      if (manifest.name === "toolnexus" && typeof manifest.version === "string") return (cached = manifest.version);
    } catch {
      // not here: keep walking up
    }
    if (parent === dir) return (cached = "0.0.0");
  }
}
