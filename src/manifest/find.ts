import { dirname, join } from "node:path";
import { isFile } from "../core/is-file";
import { MANIFEST_FILE } from "./types";

/**
 * Where a manifest is found when none is named (no `manifest` option, no `$TOOLNEXUS_MANIFEST`):
 * `toolnexus.manifest.json` in the directory of the file that defined the `@Tool` class, else
 * in its parent, and so on up to the nearest package root (a directory with a `package.json`),
 * which is searched too, and no further. So the manifest is found next to the compiled code or
 * at the package root wherever the process was started, and never one of another package.
 * `process.cwd()` plays no part: a schema does not depend on where a process starts.
 */
export interface ManifestSearch {
  /** The manifest found, if any. */
  path: string | undefined;
  /** The directories searched, nearest first. */
  looked: readonly string[];
}

/** A search that found a manifest. */
type Found = ManifestSearch & { path: string };

/**
 * The manifests found, by each directory searched from (directories on the way up included),
 * while they exist. Where none was found, the next search looks again: a manifest written later
 * (`toolnexus generate --watch` beside a running server) is found once it exists.
 */
const found = new Map<string, Found>();

/** The manifest for code in `directory` (an absolute path). */
export function findManifestFrom(directory: string): ManifestSearch {
  // The directories below the answer's, nearest first; the answer is known, or found, above them.
  const below: string[] = [];
  let answer: Found;
  for (let current = directory; ; current = dirname(current)) {
    const known = found.get(current);
    if (known !== undefined && isFile(known.path)) {
      answer = known;
      break;
    }
    if (known !== undefined) forgetSearchesThatFound(known.path);
    const manifest = join(current, MANIFEST_FILE);
    if (isFile(manifest)) {
      answer = { path: manifest, looked: [current] };
      break;
    }
    if (isFile(join(current, "package.json")) || dirname(current) === current)
      return { path: undefined, looked: [...below, current] };
    below.push(current);
  }
  found.set(answer.looked[0]!, answer);
  for (let index = below.length - 1; index >= 0; index--) {
    answer = { path: answer.path, looked: [below[index]!, ...answer.looked] };
    found.set(below[index]!, answer);
  }
  return answer;
}

/** Forgets the searches that found `path`: it is gone. */
function forgetSearchesThatFound(path: string): void {
  for (const [directory, search] of found) if (search.path === path) found.delete(directory);
}
