import type { ContentBlock, MessageContent } from "@langchain/core/messages";
import { describePart } from "../runtime/content";
import type { ToolContent, ToolResult } from "../core/types";

/**
 * What a ToolMessage carries for a result: its text form (`output`) when it has no parts
 * other than text, or when `multimodal` is off; else each part as a LangChain standard content
 * block (text, image, audio, file), which each chat model integration maps to its provider's.
 */
export function messageContentOf(result: ToolResult, multimodal: boolean): MessageContent {
  const { content } = result;
  if (!multimodal || content === undefined || content.every((part) => part.type === "text")) return result.output;
  return content.map(contentBlockOf);
}

/**
 * A part as a LangChain standard content block; a resource link, which has none, as the note the text form gives it.
 */
export function contentBlockOf(part: ToolContent): ContentBlock.Text | ContentBlock.Multimodal.Standard {
  switch (part.type) {
    case "text":
      return { type: "text", text: part.text };
    case "image":
      return "url" in part
        ? { type: "image", url: part.url, ...(part.mimeType !== undefined ? { mimeType: part.mimeType } : {}) }
        : { type: "image", data: part.data, mimeType: part.mimeType };
    case "audio":
      return { type: "audio", data: part.data, mimeType: part.mimeType };
    case "file": {
      // Integrations read a file's name from its metadata (OpenAI's requires one).
      const named = part.name !== undefined ? { metadata: { filename: part.name } } : {};
      return "url" in part
        ? { type: "file", url: part.url, mimeType: part.mimeType, ...named }
        : { type: "file", data: part.data, mimeType: part.mimeType, ...named };
    }
    case "resource_link":
      return { type: "text", text: `[${describePart(part)}]` };
  }
}

/**
 * The ToolMessage's `artifact` (kept by the app, never sent to the model): the toolkit's
 * result, without its parts when the message content already carries them (a checkpointer
 * would store every image twice).
 */
export function artifactOf(result: ToolResult, content: MessageContent): ToolResult {
  if (typeof content === "string" || result.content === undefined) return result;
  const { content: _sent, ...rest } = result;
  return rest;
}
