// Record: decorators (they only write metadata).
export { Tool, type ToolDecorator } from "./decorators/tool.decorator";
export { Param } from "./decorators/param.decorator";
export { Ctx } from "./decorators/ctx.decorator";
export { Args } from "./decorators/args.decorator";
export type { ToolOptions, ParamOptions, EnumLike, Constructor } from "./decorators/metadata";
export { Resource } from "./decorators/resource.decorator";
export { ResourceTemplate } from "./decorators/resource-template.decorator";
export { Prompt } from "./decorators/prompt.decorator";
export type {
  PrimitiveOptions,
  PromptOptions,
  ResourceOptions,
  ResourceTemplateOptions,
} from "./decorators/primitive-metadata";

// Build: tools from functions and from decorated instances.
export { defineTool, type DefineStandardToolOptions, type DefineToolOptions } from "./define/define-tool";
export { scanTools, type ScanOptions } from "./scanner/scan-tools";
export {
  definePrompt,
  defineResource,
  defineResourceTemplate,
  type DefinePromptOptions,
  type DefineResourceOptions,
  type DefineResourceTemplateOptions,
} from "./define/define-primitives";
export type {
  BlobResourceContents,
  Completer,
  Completion,
  CompletionContext,
  PrimitivePolicy,
  PromptArgument,
  PromptContent,
  PromptMessage,
  PromptResult,
  ResourceContents,
  TextResourceContents,
} from "./core/primitives";
export type { CompletionReference, ScopedKind } from "./toolkit/primitive-registry";
export { loadManifest, ManifestError, type ManifestOption, type ToolnexusManifest } from "./manifest";
export {
  Toolkit,
  isTool,
  type ErrorTextPolicy,
  type ExecuteOptions,
  type ProviderReplies,
  type ToolFailure,
  type ToolSource,
  type ToolkitOptions,
} from "./toolkit";

// Control: approval, middleware, tracing.
export type {
  ApprovalDecision,
  ApprovalRequest,
  PendingApproval,
  PendingApprovals,
  WithPendingApprovals,
} from "./control/approval";
export type { ToolCall, ToolMiddleware } from "./control/middleware";
export type { ExecutorCall, ToolExecutor } from "./control/executor";
export type { TracingOption, TracingOptions } from "./control/tracing";

// Run: result helpers for hand-written tools, and the limits every call runs under.
export { toToolResult, errorResult, isToolResult } from "./runtime/result";
export {
  audio,
  file,
  image,
  isToolContent,
  resourceLink,
  type BinarySource,
  type UnsentContent,
} from "./runtime/content";
export type { UnsentAnnotation } from "./runtime/content-check";
export { LIMITS } from "./limits";

// Providers: declarations out (each also a Toolkit method and an `Adapters` member). Each
// provider's wire types (GeminiTools, OpenAIToolMessage, McpTool, ...) are on `toolnexus/providers`.
export * from "./providers/exporters";
export type { ExportOptions, ExportReport } from "./providers/adapter";
export type { SchemaChange } from "./schema/lowering";

export * from "./core/errors";
export type {
  AudioContent,
  ContentAnnotations,
  FileContent,
  Icon,
  ImageContent,
  LogEntry,
  LogLevel,
  JSONSchemaObject,
  JSONSchemaTypeName,
  ResourceLinkContent,
  RetryOption,
  RetryPolicy,
  StandardSchemaV1,
  TextContent,
  ToolAnnotations,
  ToolCallContext,
  ToolContent,
  ToolContext,
  ToolErrorKind,
  ToolPolicy,
  ToolResult,
} from "./core/types";
export type {
  ElicitAnswer,
  ElicitFormRequest,
  ElicitRequest,
  ElicitUrlRequest,
  InputHooks,
  InputQuestion,
  SampleRequest,
  SampleResult,
  SamplingMessage,
} from "./core/input-requests";
