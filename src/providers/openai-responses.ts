import { dataUrl, describePart } from "../runtime/content";
import type { FileContent, JSONSchemaObject, ToolContent, ToolResult } from "../core/types";
import { callFrom, field, readEntries, textForModel, type Provider } from "./adapter";
import { filenameOf, lowerOpenAI, OPENAI_NAMES, unsupportedImageType, type OpenAIExportOptions } from "./openai";

// ---- Declarations (Responses API: flat) ------------------------------------------------

export type OpenAIResponsesFunctionTool = {
  type: "function";
  name: string;
  description: string;
  parameters: JSONSchemaObject;
  /** Always sent: the Responses API treats a missing `strict` as strict. */
  strict: boolean;
};

// ---- Calls in, results out: types ------------------------------------------------------

/** Any output item; fields are `unknown` because other item kinds use these names differently. */
export type OpenAIResponsesItemLike = { type: string; call_id?: unknown; name?: unknown; arguments?: unknown };
export type OpenAIResponseLike = { output: OpenAIResponsesItemLike[] };

/** A Responses API response, or its `output` items. */
export type OpenAIResponsesCallsInput = OpenAIResponseLike | readonly OpenAIResponsesItemLike[];

/** One item of a function call's output list: text, an image, or a file (inline or by URL). */
export type OpenAIFunctionCallOutputPart =
  | { type: "input_text"; text: string }
  | { type: "input_image"; image_url: string; detail: "auto" }
  | { type: "input_file"; file_data: string; filename: string }
  | { type: "input_file"; file_url: string };

/**
 * The answer to one call. `output` is the result's text (`"Error: ..."` for a failure), or,
 * when the result has parts, the list of them (a failure's first text then starts with "Error:").
 */
export type OpenAIFunctionCallOutput = {
  type: "function_call_output";
  call_id: string;
  output: string | OpenAIFunctionCallOutputPart[];
};

// ---- The adapter: Chat Completions' dialect, flat declarations, `strict` always sent ----------

export const openaiResponses: Provider<
  "openai-responses",
  "OpenAIResponses",
  {
    declarations: OpenAIResponsesFunctionTool[];
    options: OpenAIExportOptions;
    callsInput: OpenAIResponsesCallsInput;
    reply: OpenAIFunctionCallOutput[];
  }
> = {
  id: "openai-responses",
  name: "OpenAIResponses",
  answersCalls: true,
  names: OPENAI_NAMES,
  lower: lowerOpenAI,
  loweringOptions: ["strict"],
  declare: (tools) =>
    tools.map(({ name, description, lowering }) => ({
      type: "function",
      name,
      description,
      parameters: lowering.schema,
      strict: lowering.strict === true,
    })),
  readCalls(input) {
    const items = Array.isArray(input) ? input : field(input, "output");
    return readEntries(items, (item) =>
      field(item, "type") === "function_call"
        ? callFrom(item, { name: "name", args: "arguments", id: "call_id" })
        : undefined,
    );
  },
  reply: (calls, results) =>
    calls.map((call, i) => ({ type: "function_call_output", call_id: call.id ?? "", output: outputOf(results[i]!) })),
  carries: carriedByFunctionOutput,
};

// ---- Results with parts ------------------------------------------------------------------

/** A function call output list holds text, images and files: no audio, no links. */
function carriedByFunctionOutput(part: Exclude<ToolContent, { type: "text" }>): string | undefined {
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
function outputOf(result: ToolResult): string | OpenAIFunctionCallOutputPart[] {
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
