/** The manifest written by `toolnexus generate`, read at run time (plain JSON; no compiler here). */
export {
  MANIFEST_ENV,
  MANIFEST_FILE,
  MANIFEST_VERSION,
  type ManifestConversion,
  type ManifestParameter,
  type ManifestTool,
  type ToolnexusManifest,
} from "./types";
export { ManifestError } from "./errors";
export {
  loadManifest,
  resolveManifest,
  ManifestIndex,
  ManifestLookup,
  type ManifestOption,
  type ManifestSource,
} from "./load";
export { validateManifest } from "./validate";
