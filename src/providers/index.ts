/**
 * `toolnexus/providers`: each provider's wire types, what toolnexus writes for it and reads
 * from it (declarations, the calls in a response, the replies). Types only: nothing here
 * exists at run time, so importing it loads nothing (`import type { GeminiTools } from
 * "toolnexus/providers"`). The functions that make these values are on the root entry
 * (`toGemini`, `toolkit.runGemini`, ...).
 *
 * A provider whose wire types have a module of their own exports it whole (`./ollama/wire`);
 * the others' are listed by name: `export type * from "./gemini"` would also make the module's
 * internals (the adapter object, its lowering functions) importable as types.
 */
export type {
  GeminiCallsInput,
  GeminiContentLike,
  GeminiConversation,
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
} from "./gemini";
export type {
  OpenAIAttachmentPart,
  OpenAIAttachmentsMessage,
  OpenAICallsInput,
  OpenAICompletionLike,
  OpenAICustomTool,
  OpenAICustomToolFormat,
  OpenAIExportOptions,
  OpenAIFunctionTool,
  OpenAIMessageLike,
  OpenAIReplyMessage,
  OpenAITool,
  OpenAIToolCallLike,
  OpenAIToolMessage,
} from "./openai";
export type * from "./openai-responses/wire";
export type {
  AnthropicBlockLike,
  AnthropicCallsInput,
  AnthropicImageMediaType,
  AnthropicInputSchema,
  AnthropicMessageLike,
  AnthropicExportOptions,
  AnthropicTool,
  AnthropicToolDeclaration,
  AnthropicToolSearchTool,
  AnthropicToolResultBlock,
  AnthropicToolResultContent,
  AnthropicToolResultMessage,
} from "./anthropic";
export type {
  BedrockCallsInput,
  BedrockContentBlockLike,
  BedrockConverseResponseLike,
  BedrockDocumentFormat,
  BedrockExportOptions,
  BedrockImageFormat,
  BedrockJson,
  BedrockJsonObject,
  BedrockMessageLike,
  BedrockToolConfig,
  BedrockToolSpec,
  BedrockToolResultContentBlock,
  BedrockToolResultMessage,
  BedrockToolUse,
} from "./bedrock";
export type { McpCallToolResult, McpContent, McpEmbeddedResource, McpTool, McpToolAnnotations } from "./mcp";
export type * from "./ollama/wire";
