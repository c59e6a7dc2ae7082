import { dataUrl, describePart } from "../../runtime/content";
import type { FileContent, ToolContent, ToolResult } from "../../core/types";
import { textForModel } from "../adapter";
import { filenameOf, unsupportedImageType } from "../openai";
import type { OpenAIFunctionCallOutputPart } from "./wire";

/** A call's output list holds text, images and files: no audio, no links. */
export function carriedByFunctionOutput(part: Exclude<ToolContent, { type: "text" }>): string | undefined {
  switch (part.type) {
    case "image":
      return unsupportedImageType(part);
    case "file":
      return undefined;
    case "audio":
      return "OpenAI Responses function outputs carry text, images and files, not audio";
    case "resource_link":
      return "OpenAI Responses function outputs carry no resource links";
  }
}

/** The output of one call: the text form, or the parts when the result has any. */
export function outputOf(result: ToolResult): string | OpenAIFunctionCallOutputPart[] {
  if (result.content === undefined || result.content.length === 0) return textForModel(result);
  const parts = result.content.map(outputPart);
  return result.isError ? withErrorLead(parts) : parts;
}

function outputPart(part: ToolContent): OpenAIFunctionCallOutputPart {
  if (part.type === "text") return { type: "input_text", text: part.text };
  // The toolkit replaces what is not carried by a note first; a part handed here unfitted still reads as one.
  if (carriedByFunctionOutput(part) !== undefined) return { type: "input_text", text: `[${describePart(part)}]` };
  if (part.type === "image")
    return { type: "input_image", image_url: "url" in part ? part.url : dataUrl(part), detail: "auto" };
  return fileItem(part as FileContent);
}

function fileItem(part: FileContent): OpenAIFunctionCallOutputPart {
  if ("url" in part) return { type: "input_file", file_url: part.url };
  return { type: "input_file", file_data: dataUrl(part), filename: filenameOf(part) };
}

/** A failure reads as one, as its text form does: the first text says "Error:". */
function withErrorLead(parts: OpenAIFunctionCallOutputPart[]): OpenAIFunctionCallOutputPart[] {
  const [first, ...rest] = parts;
  if (first?.type === "input_text") return [{ type: "input_text", text: `Error: ${first.text}` }, ...rest];
  return [{ type: "input_text", text: "Error:" }, ...parts];
}
