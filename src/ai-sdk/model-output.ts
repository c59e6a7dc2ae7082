import type { JSONValue, ToolResultPart } from "ai";
import { describePart } from "../runtime/content";
import { isToolResult } from "../runtime/result";
import type { ToolContent } from "../core/types";

/** What the AI SDK sends the model for a tool call (a tool's `toModelOutput` return). */
export type AiSdkModelOutput = ToolResultPart["output"];
type AiSdkContentPart = Extract<AiSdkModelOutput, { type: "content" }>["value"][number];

/**
 * What the model reads for a toolkit result: an error as `error-text` (providers mark it as a
 * failed call, e.g. Anthropic's `is_error`), parts as `content` when some are not text, a
 * structured result as `json`, anything else as its text. Values that are not a `ToolResult`
 * (an output stored by other code) are sent the AI SDK's default way.
 */
export function modelOutputOf(output: unknown, multimodal: boolean): AiSdkModelOutput {
  if (!isToolResult(output))
    return typeof output === "string"
      ? { type: "text", value: output }
      : { type: "json", value: (output ?? null) as JSONValue };
  if (output.isError) return { type: "error-text", value: output.output };
  const { content, structuredContent } = output;
  if (multimodal && Array.isArray(content) && content.some((part) => part.type !== "text"))
    return { type: "content", value: content.map(contentPartOf) };
  if (structuredContent !== undefined) return { type: "json", value: structuredContent as JSONValue };
  return { type: "text", value: output.output };
}

/**
 * A toolnexus part as the AI SDK's content part: audio is a file to it, and a link (no such part there) a line of text.
 */
export function contentPartOf(part: ToolContent): AiSdkContentPart {
  switch (part.type) {
    case "text":
      return { type: "text", text: part.text };
    case "image":
      return "url" in part
        ? { type: "image-url", url: part.url }
        : { type: "image-data", data: part.data, mediaType: part.mimeType };
    case "audio":
      return { type: "file-data", data: part.data, mediaType: part.mimeType };
    case "file":
      if ("url" in part) return { type: "file-url", url: part.url, mediaType: part.mimeType };
      return {
        type: "file-data",
        data: part.data,
        mediaType: part.mimeType,
        ...(part.name !== undefined ? { filename: part.name } : {}),
      };
    case "resource_link":
      return { type: "text", text: `[${describePart(part)}]` };
  }
}
