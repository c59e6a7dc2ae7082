import { readFileSync, statSync } from "node:fs";
import { dirname, isAbsolute, resolve } from "node:path";
import { definingFileOf } from "../decorators/defining-file";
import { ManifestError } from "./errors";
import { findManifestFrom } from "./find";
import { parseManifestKey } from "./keys";
import { MANIFEST_ENV, MANIFEST_FILE, type ManifestTool, type ToolnexusManifest } from "./types";
import { validateManifest } from "./validate";

/**
 * A manifest ready for the scanner: validated once, looked up by class and method. `source`
 * says where it came from, for messages; `directory` is the one its `file`/`compiledFile` paths
 * are matched from (the file's directory; none for a manifest passed as an object).
 */
export class ManifestIndex {
  #sameNamed: Map<string, Array<{ key: string; tool: ManifestTool }>> | undefined;

  constructor(
    readonly manifest: ToolnexusManifest,
    readonly source: string,
    readonly directory?: string,
  ) {}

  /**
   * The entry of `ClassName.methodName`, if the manifest has one. Classes of one name in several
   * files are keyed `<file>#ClassName.methodName`: `definingFile` (where the running class was
   * defined) picks the entry whose `file` (code run as TypeScript: ts-node, jest) or
   * `compiledFile` it is, extensions ignored. Throws `ManifestError` listing the candidates when
   * several remain.
   */
  entry(className: string, methodName: string, definingFile?: string): ManifestTool | undefined {
    const key = `${className}.${methodName}`;
    if (Object.prototype.hasOwnProperty.call(this.manifest.tools, key)) return this.manifest.tools[key];
    const candidates = this.#keyedByFile().get(key);
    if (candidates === undefined) return undefined;
    const matched = definingFile === undefined ? [] : bestMatches(candidates, definingFile, this.directory);
    if (matched.length === 1) return matched[0]!.tool;
    // One entry and nothing to tell it from (a bundle, say): it is the one the name stands for.
    if (matched.length === 0 && candidates.length === 1) return candidates[0]!.tool;
    const listed = (matched.length > 0 ? matched : candidates).map(
      ({ key, tool }) => `"${key}"${tool.compiledFile !== undefined ? ` (compiled: ${tool.compiledFile})` : ""}`,
    );
    throw new ManifestError(
      `${key}: the manifest ${this.source} has entries for ${candidates.length} classes named ${className} ` +
        `(${listed.join(", ")}), and ${
          definingFile === undefined
            ? "the file defining this one is unknown"
            : `the file defining this one, ${definingFile}, is ` +
              `${matched.length === 0 ? "none" : "more than one"} of them`
        }. Run the compiled files as the compiler emits them (a bundle has one file for all classes) with the ` +
        "manifest in the project's directory, or give the classes different names.",
    );
  }

  /** The class names the manifest lists a method of this name under (for telling minified classes). */
  classesWithMethod(methodName: string): string[] {
    const names = new Set<string>();
    for (const key of Object.keys(this.manifest.tools)) {
      const parts = parseManifestKey(key);
      if (parts?.methodName === methodName) names.add(parts.className);
    }
    return [...names];
  }

  #keyedByFile(): Map<string, Array<{ key: string; tool: ManifestTool }>> {
    if (this.#sameNamed === undefined) {
      this.#sameNamed = new Map();
      for (const [key, tool] of Object.entries(this.manifest.tools)) {
        const parts = parseManifestKey(key);
        if (parts?.file === undefined) continue;
        const plain = `${parts.className}.${parts.methodName}`;
        const list = this.#sameNamed.get(plain) ?? [];
        list.push({ key, tool });
        this.#sameNamed.set(plain, list);
      }
    }
    return this.#sameNamed;
  }
}

/** Source and script extensions, ignored when a defining file is matched against an entry's paths. */
const EXTENSION = /\.(?:d\.)?[cm]?[jt]sx?$/;

function withoutExtension(path: string): string {
  return path.replace(/\\/g, "/").replace(EXTENSION, "");
}

/**
 * The candidates whose `file` or `compiledFile` is `definingFile`: resolved from the manifest's
 * directory when it has one; else (a manifest passed as an object, or written away from the
 * project with `--out`) those whose path is the longest tail of it, whole segments.
 */
function bestMatches<T extends { tool: ManifestTool }>(
  candidates: readonly T[],
  definingFile: string,
  directory: string | undefined,
): T[] {
  const target = withoutExtension(definingFile);
  const pathsOf = (tool: ManifestTool) =>
    tool.compiledFile !== undefined ? [tool.file, tool.compiledFile] : [tool.file];
  if (directory !== undefined) {
    const exact = candidates.filter(({ tool }) =>
      pathsOf(tool).some((path) => withoutExtension(resolve(directory, path)) === target),
    );
    if (exact.length > 0) return exact;
  }
  let best: T[] = [];
  let bestLength = 0;
  for (const candidate of candidates) {
    for (const path of pathsOf(candidate.tool)) {
      const tail = withoutExtension(path).replace(/^(?:\.\/)+/, "");
      if (!target.endsWith(`/${tail}`)) continue;
      if (tail.length > bestLength) {
        best = [candidate];
        bestLength = tail.length;
      } else if (tail.length === bestLength && !best.includes(candidate)) best.push(candidate);
    }
  }
  return best;
}

/**
 * Where looking for a manifest next to each class's code came to, for one class: the manifest,
 * or why there is none (the sentence error messages carry).
 */
export type ClassManifest =
  | { index: ManifestIndex; definingFile: string | undefined }
  | { index: undefined; missing: string; definingFile: string | undefined };

/**
 * No manifest named: each class's is `toolnexus.manifest.json` found from the directory of the
 * file defining it up to its package root (src/manifest/find.ts).
 */
export class ManifestLookup {
  forClass(prototype: object): ClassManifest {
    const definingFile = definingFileOf(prototype);
    const className = (prototype as { constructor?: Function }).constructor?.name || "the class";
    if (definingFile === undefined) {
      return {
        index: undefined,
        definingFile,
        missing:
          `no ${MANIFEST_FILE} found (where ${className} is defined is unknown, so none was looked for; ` +
          `${MANIFEST_ENV} not set)`,
      };
    }
    const { path, looked } = findManifestFrom(dirname(definingFile));
    if (path === undefined)
      return {
        index: undefined,
        definingFile,
        missing: `no ${MANIFEST_FILE} found (looked in: ${looked.join(", ")}; ${MANIFEST_ENV} not set)`,
      };
    return { index: loadIndex(path), definingFile };
  }
}

/** What the scanner is given: one manifest for every class, or a lookup per class. */
export type ManifestSource = ManifestIndex | ManifestLookup;

/** The manifest of one class's tools, from either kind of source. */
export function manifestForClass(source: ManifestSource, prototype: object): ClassManifest {
  return source instanceof ManifestLookup
    ? source.forClass(prototype)
    : { index: source, definingFile: definingFileOf(prototype) };
}

/**
 * What `scanTools(instance, { manifest })`, `new Toolkit(items, { manifest })` and
 * `ToolnexusModule.forRoot({ manifest })` take:
 * - a manifest object (as `toolnexus generate` wrote it, e.g. `require("./toolnexus.manifest.json")`),
 * - a path to the file: a relative one is resolved from the working directory (as a path typed
 *   on a command line is); pass an absolute path (e.g. `join(__dirname, "toolnexus.manifest.json")`)
 *   to be independent of it,
 * - `false`: use no manifest,
 * - left out: `$TOOLNEXUS_MANIFEST` if set (the file must exist; a relative path is resolved from
 *   the working directory too), else `toolnexus.manifest.json` found next to the code of each
 *   `@Tool` class: in the directory of the file defining it or above, up to its package root (the
 *   nearest directory with a package.json). That search never looks in `process.cwd()`, so a
 *   tool's schema does not depend on where the process started.
 */
export type ManifestOption = ToolnexusManifest | ManifestSource | string | false | undefined;

/**
 * Reads and validates a manifest file (a relative path is resolved from the working directory). Throws `ManifestError`
 * naming the file.
 */
export function loadManifest(path: string): ToolnexusManifest {
  return loadIndex(resolve(path)).manifest;
}

const validatedObjects = new WeakMap<object, ManifestIndex>();
/** How a manifest passed as an object is named in messages. */
const OBJECT_SOURCE = "given in the options";
const lookup = new ManifestLookup();

/** The manifest an option stands for, or `undefined` when there is none to use. */
export function resolveManifest(option: ManifestOption): ManifestSource | undefined {
  if (option === false) return undefined;
  if (option instanceof ManifestIndex || option instanceof ManifestLookup) return option;
  if (typeof option === "string") return loadIndex(resolve(option));
  if (option !== undefined) {
    let index = validatedObjects.get(option);
    if (index === undefined) {
      index = new ManifestIndex(validateManifest(option, OBJECT_SOURCE), OBJECT_SOURCE);
      validatedObjects.set(option, index);
    }
    return index;
  }
  const fromEnv = typeof process === "undefined" ? undefined : process.env?.[MANIFEST_ENV];
  if (fromEnv) return loadIndex(isAbsolute(fromEnv) ? fromEnv : resolve(fromEnv));
  return lookup;
}

interface CacheEntry {
  mtimeMs: number;
  size: number;
  index: ManifestIndex;
}

/** Parsed files, re-read only when the file changes (scanning many instances reads it once). */
const cache = new Map<string, CacheEntry>();

function loadIndex(path: string): ManifestIndex {
  let stats: { mtimeMs: number; size: number };
  try {
    stats = statSync(path);
  } catch (error) {
    throw new ManifestError(
      `Cannot read the toolnexus manifest ${path}: ${(error as Error).message}. Generate it with ` +
        `\`npx toolnexus generate\`, or pass the right path.`,
    );
  }
  const cached = cache.get(path);
  if (cached !== undefined && cached.mtimeMs === stats.mtimeMs && cached.size === stats.size) return cached.index;
  let text: string;
  try {
    text = readFileSync(path, "utf8");
  } catch (error) {
    throw new ManifestError(`Cannot read the toolnexus manifest ${path}: ${(error as Error).message}.`);
  }
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch (error) {
    throw new ManifestError(
      `The toolnexus manifest ${path} is not valid JSON (${(error as Error).message}). Regenerate it with ` +
        `\`npx toolnexus generate\`.`,
    );
  }
  const index = new ManifestIndex(validateManifest(parsed, path), path, dirname(path));
  cache.set(path, { mtimeMs: stats.mtimeMs, size: stats.size, index });
  return index;
}
