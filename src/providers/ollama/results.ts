import type { ToolContent, ToolResult } from "../../core/types";
import { textForModel, type ParsedCall } from "../adapter";
import type { OllamaToolMessage } from "./wire";

/**
 * The image types Ollama reads: what its CLI lets through as image input (`cmd/interactive.go`,
 * `image/jpeg`, `image/png`, `image/webp`) and what its runners register decoders for.
 */
const IMAGE_TYPES: ReadonlySet<string> = new Set(["image/jpeg", "image/png", "image/webp"]);

/**
 * Why Ollama cannot take `part` in a tool message, or `undefined` when it can. A message carries
 * its text and `images` (base64, as the REST API takes them), nothing else.
 */
export function ollamaCarries(part: Exclude<ToolContent, { type: "text" }>): string | undefined {
  switch (part.type) {
    case "image":
      if ("url" in part) return "Ollama takes images as base64 data in the message, not by URL";
      return IMAGE_TYPES.has(part.mimeType.toLowerCase())
        ? undefined
        : `Ollama reads JPEG, PNG and WebP images, not ${part.mimeType}`;
    case "audio":
      return "Ollama tool messages carry no audio";
    case "file":
      return "Ollama tool messages carry images only, no files";
    case "resource_link":
      return "Ollama tool messages carry no resource links";
  }
}

/** The base64 data of every image of a result that Ollama takes, in order. */
function imagesOf(result: ToolResult): string[] {
  return (result.content ?? []).flatMap((part) =>
    part.type === "image" && "data" in part && ollamaCarries(part) === undefined ? [part.data] : [],
  );
}

/**
 * The tool message answering `call`. Ollama matches answers to calls by order and tool name
 * (and by `tool_call_id` where the call had an id), so every call gets one, refused calls too.
 */
export function toolMessage(call: ParsedCall, result: ToolResult): OllamaToolMessage {
  const images = imagesOf(result);
  return {
    role: "tool",
    content: textForModel(result),
    tool_name: call.name,
    ...(call.id !== undefined ? { tool_call_id: call.id } : {}),
    ...(images.length > 0 ? { images } : {}),
  };
}
