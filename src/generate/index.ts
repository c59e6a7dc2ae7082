/**
 * Build-time generation (`toolnexus generate`): the edge that uses the TypeScript compiler and
 * typescript-json-schema. The core never imports this folder; it reads the manifest it writes.
 */
export {
  generateManifest,
  renderManifest,
  type GenerateOptions,
  type GenerateProgress,
  type GenerateResult,
  type GenerateStats,
} from "./generate";
export { compareManifests, type ManifestComparison, type ToolChange } from "./diff";
export { GenerateError, formatProblem, type SourceProblem } from "./errors";
export { watchManifest, type ManifestWatcher, type WatchOptions, type WatchRun } from "./watch";
