import { readFileSync, statSync } from "node:fs";
import { isAbsolute, join, resolve } from "node:path";
import { ManifestError } from "./errors";
import { MANIFEST_ENV, MANIFEST_FILE, type ManifestTool, type ToolnexusManifest } from "./types";
import { validateManifest } from "./validate";

/**
 * A manifest ready for the scanner: validated once, looked up by class and method. `source`
 * says where it came from, for messages.
 */
export class ManifestIndex {
  constructor(
    readonly manifest: ToolnexusManifest,
    readonly source: string,
  ) {}

  /** The entry of `ClassName.methodName`, if the manifest has one. */
  entry(className: string, methodName: string): ManifestTool | undefined {
    const key = `${className}.${methodName}`;
    return Object.prototype.hasOwnProperty.call(this.manifest.tools, key) ? this.manifest.tools[key] : undefined;
  }
}

/**
 * What `scanTools(instance, { manifest })` and `new Toolkit(items, { manifest })` take:
 * - a manifest object (as `toolnexus generate` wrote it, e.g. `require("./toolnexus.manifest.json")`),
 * - a path to the file,
 * - `false`: use no manifest, not even the conventional one,
 * - left out: `$TOOLNEXUS_MANIFEST` if set, else `toolnexus.manifest.json` in `process.cwd()` when it exists.
 */
export type ManifestOption = ToolnexusManifest | ManifestIndex | string | false | undefined;

/** Reads and validates a manifest file. Throws `ManifestError` naming the file. */
export function loadManifest(path: string): ToolnexusManifest {
  return loadIndex(resolve(path), true)!.manifest;
}

const validatedObjects = new WeakMap<object, ManifestIndex>();
/** How a manifest passed as an object is named in messages. */
const OBJECT_SOURCE = "given in the options";

/** The manifest an option stands for, or `undefined` when there is none to use. */
export function resolveManifest(option: ManifestOption): ManifestIndex | undefined {
  if (option === false) return undefined;
  if (option instanceof ManifestIndex) return option;
  if (typeof option === "string") return loadIndex(resolve(option), true);
  if (option !== undefined) {
    let index = validatedObjects.get(option);
    if (index === undefined) {
      index = new ManifestIndex(validateManifest(option, OBJECT_SOURCE), OBJECT_SOURCE);
      validatedObjects.set(option, index);
    }
    return index;
  }
  return conventionalManifest();
}

/** `$TOOLNEXUS_MANIFEST` (which must exist), else `toolnexus.manifest.json` in the working directory (if any). */
function conventionalManifest(): ManifestIndex | undefined {
  if (typeof process === "undefined" || typeof process.cwd !== "function") return undefined;
  const fromEnv = process.env?.[MANIFEST_ENV];
  if (fromEnv) return loadIndex(isAbsolute(fromEnv) ? fromEnv : resolve(fromEnv), true);
  return loadIndex(join(process.cwd(), MANIFEST_FILE), false);
}

interface CacheEntry {
  mtimeMs: number;
  size: number;
  index: ManifestIndex;
}

/** Parsed files, re-read only when the file changes (scanning many instances reads it once). */
const cache = new Map<string, CacheEntry>();

function loadIndex(path: string, mustExist: boolean): ManifestIndex | undefined {
  let stats: { mtimeMs: number; size: number };
  try {
    stats = statSync(path);
  } catch (error) {
    if (!mustExist && (error as NodeJS.ErrnoException).code === "ENOENT") return undefined;
    throw new ManifestError(`Cannot read the toolnexus manifest ${path}: ${(error as Error).message}. Generate it with \`npx toolnexus generate\`, or pass the right path.`);
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
    throw new ManifestError(`The toolnexus manifest ${path} is not valid JSON (${(error as Error).message}). Regenerate it with \`npx toolnexus generate\`.`);
  }
  const index = new ManifestIndex(validateManifest(parsed, path), path);
  cache.set(path, { mtimeMs: stats.mtimeMs, size: stats.size, index });
  return index;
}
