// Record: decorators (they only write metadata).
export { Tool } from "./decorators/tool.decorator";
export { Param, ToolParam } from "./decorators/param.decorator";
export { Ctx } from "./decorators/ctx.decorator";
export { Args } from "./decorators/args.decorator";
export type { ToolOptions, ParamOptions, EnumLike, Constructor } from "./decorators/metadata";

// Build: tools from functions and from decorated instances.
export { defineTool, type DefineStandardToolOptions, type DefineToolOptions } from "./define-tool";
export { scanTools, type ScanOptions } from "./scanner/scan-tools";
export { loadManifest, ManifestError, MANIFEST_ENV, MANIFEST_FILE, type ManifestOption, type ToolnexusManifest } from "./manifest";
export {
  Toolkit,
  isTool,
  MAX_LISTED_TOOLS,
  type ErrorTextPolicy,
  type ExecuteOptions,
  type ProviderReplies,
  type ToolFailure,
  type ToolSource,
  type ToolkitOptions,
} from "./toolkit";

// Control: approval, middleware, tracing.
export type { ApprovalDecision, ApprovalRequest, PendingApproval, PendingApprovals, WithPendingApprovals } from "./control/approval";
export type { ToolCall, ToolMiddleware } from "./control/middleware";
export type { ExecutorCall, ToolExecutor } from "./control/executor";
export type { TracingOption, TracingOptions } from "./control/tracing";

// Run: result helpers for hand-written tools, and the limits every call runs under.
export { toToolResult, errorResult, isToolResult, MAX_ERROR_TEXT } from "./runtime/result";
export { audio, file, image, isToolContent, MAX_CONTENT_BYTES, MAX_RESULT_CONTENT_BYTES, resourceLink, type BinarySource, type UnsentContent } from "./runtime/content";
export { MAX_FILE_NAME } from "./runtime/content-rules";
export type { UnsentAnnotation } from "./runtime/content-check";
export { DEFAULT_TIMEOUT_MS } from "./runtime/invoke";
export { PATTERN_INPUT_LIMIT } from "./runtime/validation";

// Providers: declarations out (each also a Toolkit method and an `Adapters` member).
export { Adapters, describeExport, toAnthropic, toBedrock, toGemini, toMcp, toOpenAI, toOpenAIResponses, type AnyExportOptions, type ExportFormat } from "./providers";
export type { ExportOptions, ExportReport } from "./providers/adapter";
export type { SchemaChange } from "./schema/lowering";
export { RECURSION_DEPTH } from "./schema/lowering";
export { MAX_SCHEMA_SIZE } from "./schema/schema-size";
export type {
  GeminiCallsInput,
  GeminiContentLike,
  GeminiExportOptions,
  GeminiFunctionCallLike,
  GeminiFunctionDeclaration,
  GeminiFunctionResponseMedia,
  GeminiFunctionResponsePart,
  GeminiJsonSchemaFunctionDeclaration,
  GeminiJsonSchemaTools,
  GeminiPartLike,
  GeminiResponseLike,
  GeminiSchema,
  GeminiToolResponseContent,
  GeminiTools,
} from "./providers/gemini";
export type {
  OpenAIAttachmentPart,
  OpenAIAttachmentsMessage,
  OpenAICallsInput,
  OpenAICompletionLike,
  OpenAIExportOptions,
  OpenAIFunctionTool,
  OpenAIMessageLike,
  OpenAIReplyMessage,
  OpenAIToolCallLike,
  OpenAIToolMessage,
} from "./providers/openai";
export type {
  OpenAIFunctionCallOutput,
  OpenAIFunctionCallOutputPart,
  OpenAIResponseLike,
  OpenAIResponsesCallsInput,
  OpenAIResponsesFunctionTool,
  OpenAIResponsesItemLike,
} from "./providers/openai-responses";
export type {
  AnthropicBlockLike,
  AnthropicCallsInput,
  AnthropicImageMediaType,
  AnthropicInputSchema,
  AnthropicMessageLike,
  AnthropicTool,
  AnthropicToolResultBlock,
  AnthropicToolResultContent,
  AnthropicToolResultMessage,
} from "./providers/anthropic";
export type {
  BedrockCallsInput,
  BedrockContentBlockLike,
  BedrockConverseResponseLike,
  BedrockDocumentFormat,
  BedrockImageFormat,
  BedrockJson,
  BedrockMessageLike,
  BedrockToolConfig,
  BedrockToolResultContentBlock,
  BedrockToolResultMessage,
  BedrockToolUse,
} from "./providers/bedrock";
export { toMcpResult, type McpCallToolResult, type McpContent, type McpEmbeddedResource, type McpTool, type McpToolAnnotations } from "./providers/mcp";

export * from "./errors";
export type {
  AudioContent,
  ContentAnnotations,
  FileContent,
  ImageContent,
  JSONSchemaObject,
  JSONSchemaTypeName,
  ResourceLinkContent,
  RetryOption,
  RetryPolicy,
  StandardSchemaV1,
  TextContent,
  ToolAnnotations,
  ToolContent,
  ToolContext,
  ToolErrorKind,
  ToolPolicy,
  ToolResult,
} from "./types";
