import { execFileSync } from "node:child_process";
import { join } from "node:path";

/**
 * tsc's diagnostics for `files` compiled together as a user's strict ES-module project would
 * compile them, against the built package (empty: no error).
 */
export function compileStrict(files: readonly string[]): string {
  const tsc = require.resolve("typescript/bin/tsc");
  const flags = [
    "--noEmit",
    "--strict",
    "--experimentalDecorators",
    "--emitDecoratorMetadata",
    "--skipLibCheck",
    "--module",
    "node16",
    "--moduleResolution",
    "node16",
    "--target",
    "es2022",
  ];
  try {
    execFileSync(process.execPath, [tsc, ...flags, ...files], { cwd: join(__dirname, "..", ".."), encoding: "utf8" });
    return "";
  } catch (error) {
    return String((error as { stdout?: string }).stdout ?? error);
  }
}

/** Compiled files must not cast what toolnexus returns to get past the checker. */
export const CAST = /\bas (any|unknown|never)\b|<any>/;
