import { fileNameOfUri, textForm } from "../runtime/content";
import { errorResult } from "../runtime/result";
import { isObject, type ContentAnnotations, type ToolContent, type ToolResult } from "../core/types";

/**
 * A remote server's `CallToolResult` as a `ToolResult`. Text blocks are the `output`; images,
 * audio, links and embedded files become `content` parts (embedded text resources become text,
 * which every provider takes), each with the block's `annotations`; `structuredContent` is kept,
 * with its JSON as `output`; `isError` is an `execution_failed` result with the server's text.
 *
 * Only the shape is read here. What the parts hold (addresses, mime types, bytes, names,
 * sizes, annotations) is checked as every tool's result is: the call's limits make a result
 * of what the call returns (`toToolResult`), which refuses what breaks a rule into
 * `metadata.unsentContent` and leaves bad annotation fields out, listed in
 * `metadata.unsentAnnotations`.
 */
export function fromCallToolResult(answer: unknown, tool: string, server: string): ToolResult {
  if (!isObject(answer))
    return errorResult(
      "execution_failed",
      `The MCP server "${server}" answered the call of "${tool}" with something that is not a tool result.`,
    );
  // Servers of protocol version 2024-10-07 answer with `toolResult` instead of content.
  if (!Array.isArray(answer.content) && "toolResult" in answer)
    return { output: textOfValue(answer.toolResult), isError: false };
  const parts = (Array.isArray(answer.content) ? answer.content : []).map(partOf);
  const media = parts.some((part) => part.type !== "text" || part.annotations !== undefined);
  if (answer.isError === true) {
    const text =
      textForm(parts).trim() === ""
        ? `The tool "${tool}" of the MCP server "${server}" failed without saying why.`
        : textForm(parts);
    return { ...errorResult("execution_failed", text, { tool, server }), ...(media ? { content: parts } : {}) };
  }
  const structured = isObject(answer.structuredContent) ? answer.structuredContent : undefined;
  if (structured !== undefined) {
    const json = JSON.stringify(structured);
    // MCP servers repeat the structured result as a text block: alone, it says nothing more.
    const more = parts.some((part) => part.type !== "text" || part.text !== json || part.annotations !== undefined);
    return { output: json, isError: false, structuredContent: structured, ...(more ? { content: parts } : {}) };
  }
  return media
    ? { output: textForm(parts), isError: false, content: parts }
    : { output: textForm(parts), isError: false };
}

/** One content block as a part; a block toolnexus does not know is a text note, so nothing disappears silently. */
function partOf(block: unknown): ToolContent {
  if (!isObject(block)) return { type: "text", text: "[a content block that is not an object]" };
  const str = (value: unknown): value is string => typeof value === "string";
  const annotated = <P extends ToolContent>(part: P): P =>
    block.annotations === undefined ? part : { ...part, annotations: block.annotations as ContentAnnotations };
  switch (block.type) {
    case "text":
      if (str(block.text)) return annotated({ type: "text", text: block.text });
      break;
    case "image":
      if (str(block.data) && str(block.mimeType))
        return annotated({ type: "image", data: block.data, mimeType: block.mimeType });
      break;
    case "audio":
      if (str(block.data) && str(block.mimeType))
        return annotated({ type: "audio", data: block.data, mimeType: block.mimeType });
      break;
    case "resource_link":
      if (str(block.uri)) {
        return annotated({
          type: "resource_link",
          uri: block.uri,
          ...(str(block.name) ? { name: block.name } : {}),
          ...(str(block.mimeType) ? { mimeType: block.mimeType } : {}),
          ...(str(block.description) ? { description: block.description } : {}),
        });
      }
      break;
    case "resource":
      if (isObject(block.resource)) return annotated(embeddedPart(block.resource));
      break;
  }
  return { type: "text", text: `[MCP content of type ${JSON.stringify(block.type)} that toolnexus does not read]` };
}

/** An embedded resource: its text as text; its bytes as an image, audio or file part by their mime type. */
function embeddedPart(resource: Record<string, unknown>): ToolContent {
  if (typeof resource.text === "string") return { type: "text", text: resource.text };
  const uri = typeof resource.uri === "string" ? resource.uri : "";
  if (typeof resource.blob !== "string")
    return { type: "text", text: `[an embedded resource ${uri} without text or bytes]` };
  const mimeType = typeof resource.mimeType === "string" ? resource.mimeType : "application/octet-stream";
  const kind = mimeType.toLowerCase();
  if (kind.startsWith("image/")) return { type: "image", data: resource.blob, mimeType };
  if (kind.startsWith("audio/")) return { type: "audio", data: resource.blob, mimeType };
  const name = fileNameOfUri(uri);
  return { type: "file", data: resource.blob, mimeType, ...(name !== undefined ? { name } : {}) };
}

function textOfValue(value: unknown): string {
  if (typeof value === "string") return value;
  return JSON.stringify(value) ?? "";
}
