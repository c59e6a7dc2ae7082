import type { ToolOutputFileContent, ToolOutputImage, ToolOutputText } from "@openai/agents";
import { fitResult, textForModel } from "../providers/adapter";
import { filenameOf } from "../providers/openai";
import { openaiResponses } from "../providers/openai-responses";
import { describePart } from "../runtime/content";
import type { ToolContent, ToolResult } from "../core/types";

/** One part of a tool's output as the Agents SDK takes it: text, an image or a file. */
export type AgentsToolOutputPart = ToolOutputText | ToolOutputImage | ToolOutputFileContent;

/** What a tool gives the Agents SDK: the result's text (`"Error: ..."` for a failure), or its parts. */
export type AgentsToolOutput = string | AgentsToolOutputPart[];

/**
 * A result as the model reads it through the Agents SDK. Text results (every failure among
 * them) are the text form, a failure's starting with "Error:" as in every OpenAI reply.
 * Results with parts keep their images and files; what the Responses API cannot carry (audio,
 * links) becomes a text note, listed as every provider lists it.
 */
export function agentsOutputOf(result: ToolResult): AgentsToolOutput {
  if (result.content === undefined || result.content.length === 0) return textForModel(result);
  const fitted = fitResult(openaiResponses, result, {});
  const parts = fitted.content!.map(outputPart);
  return fitted.isError ? withErrorLead(parts) : parts;
}

function outputPart(part: ToolContent): AgentsToolOutputPart {
  switch (part.type) {
    case "text":
      return { type: "text", text: part.text };
    case "image":
      return {
        type: "image",
        image: "url" in part ? { url: part.url } : { data: part.data, mediaType: part.mimeType },
      };
    case "file":
      if ("url" in part)
        return { type: "file", file: { url: part.url, ...(part.name !== undefined ? { filename: part.name } : {}) } };
      return { type: "file", file: { data: part.data, mediaType: part.mimeType, filename: filenameOf(part) } };
    default:
      // fitResult has replaced every part the Responses API cannot carry by a note already.
      return { type: "text", text: `[${describePart(part)}]` };
  }
}

/** A failure reads as one, as its text form does: the first text says "Error:". */
function withErrorLead(parts: AgentsToolOutputPart[]): AgentsToolOutputPart[] {
  const [first, ...rest] = parts;
  if (first?.type === "text") return [{ type: "text", text: `Error: ${first.text}` }, ...rest];
  return [{ type: "text", text: "Error:" }, ...parts];
}
