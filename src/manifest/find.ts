import { statSync } from "node:fs";
import { dirname, join } from "node:path";
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

/** One answer per directory for the life of the process (directories on the way up included). */
const searched = new Map<string, ManifestSearch>();

/** The manifest for code in `directory` (an absolute path). */
export function findManifestFrom(directory: string): ManifestSearch {
  // The directories below the answer's, nearest first; the answer is known, or found, above them.
  const below: string[] = [];
  let answer: ManifestSearch;
  for (let current = directory; ; current = dirname(current)) {
    const known = searched.get(current);
    if (known !== undefined) {
      answer = known;
      break;
    }
    const manifest = join(current, MANIFEST_FILE);
    if (isFile(manifest)) {
      answer = { path: manifest, looked: [current] };
      break;
    }
    if (isFile(join(current, "package.json")) || dirname(current) === current) {
      answer = { path: undefined, looked: [current] };
      break;
    }
    below.push(current);
  }
  searched.set(answer.looked[0]!, answer);
  for (let index = below.length - 1; index >= 0; index--) {
    answer = { path: answer.path, looked: [below[index]!, ...answer.looked] };
    searched.set(below[index]!, answer);
  }
  return answer;
}

/** Forgets every answer (for tests that create and remove manifests). */
export function forgetManifestSearches(): void {
  searched.clear();
}

function isFile(path: string): boolean {
  return statSync(path, { throwIfNoEntry: false })?.isFile() === true;
}
