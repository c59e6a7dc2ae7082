import { statSync } from "node:fs";

/**
 * Whether `path` is a file. Missing is the common answer, given without an exception; a path
 * that cannot be checked (a file where a directory was expected, no permission) is not a file.
 */
export function isFile(path: string): boolean {
  try {
    return statSync(path, { throwIfNoEntry: false })?.isFile() === true;
  } catch {
    return false;
  }
}
