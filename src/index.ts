// Record: decorators (they only write metadata).
export { Tool } from "./decorators/tool.decorator";
export { Param } from "./decorators/param.decorator";
export { Ctx } from "./decorators/ctx.decorator";
export { Args } from "./decorators/args.decorator";
export type { ToolOptions, ParamOptions, EnumLike, Constructor } from "./decorators/metadata";

// Build: tools from functions and from decorated instances.
export { defineTool, type DefineToolOptions } from "./define-tool";
export { scanTools, type ScanOptions } from "./scanner/scan-tools";
export { loadManifest, ManifestError, MANIFEST_ENV, MANIFEST_FILE, type ManifestOption, type ToolnexusManifest } from "./manifest";
export { Toolkit, isTool, type ToolSource, type ToolkitOptions } from "./toolkit";

// Run: result helpers for hand-written tools.
export { toToolResult, errorResult, isToolResult } from "./runtime/result";

// Providers: declarations out, calls in, results out.
export { Adapters, EXPORTERS, describeExport, type ExportFormat, type AnyExportOptions } from "./providers";
export type { ExportOptions, ExportReport } from "./providers/shared";
export type { SchemaChange } from "./schema/lowering";
export { RECURSION_DEPTH } from "./schema/lowering";
export * from "./providers/gemini";
export * from "./providers/openai";
export * from "./providers/openai-responses";
export * from "./providers/anthropic";
export * from "./providers/bedrock";
export * from "./providers/mcp";
export type { ToolRunner } from "./providers/shared";

export { NAME_RULES, PORTABLE_NAME, providersAccepting, type ProviderId } from "./names";
export * from "./errors";
export type {
  JSONSchemaObject,
  JSONSchemaTypeName,
  ToolAnnotations,
  ToolContext,
  ToolErrorKind,
  ToolResult,
} from "./types";
