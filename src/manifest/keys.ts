/**
 * Manifest keys: `ClassName.methodName`, or `<file>#ClassName.methodName` when tool classes of
 * one name are declared in several files of the project (`<file>` is the entry's `file`).
 */
// The file part may hold any character (even `#`); class and method names hold neither `#` nor `.`.
const KEY = /^(?:(.+)#)?([^.#]+)\.([^.#]+)$/;

export interface ManifestKey {
  /** The file part of a `#` key. */
  file?: string;
  className: string;
  methodName: string;
}

/** The parts of a key, or `undefined` when it is not one. */
export function parseManifestKey(key: string): ManifestKey | undefined {
  const match = KEY.exec(key);
  if (match === null) return undefined;
  const [, file, className, methodName] = match;
  return { ...(file !== undefined ? { file } : {}), className: className!, methodName: methodName! };
}

/** The key of a tool; `file` only for a class whose name other files use too. */
export function manifestKey(className: string, methodName: string, file?: string): string {
  return file === undefined ? `${className}.${methodName}` : `${file}#${className}.${methodName}`;
}
