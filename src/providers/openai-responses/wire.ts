import type { JSONSchemaObject } from "../../core/types";
import type { OpenAIExportOptions } from "../openai";

// ---- Declarations (Responses API: flat) ------------------------------------------------

export type OpenAIResponsesFunctionTool = {
  type: "function";
  name: string;
  description: string;
  parameters: JSONSchemaObject;
  /** Always sent: the Responses API treats a missing `strict` as strict. */
  strict: boolean;
  /** Set on a deferred tool: its parameters are loaded when the model's tool search finds it. */
  defer_loading?: true;
};

/** What a free-text tool's input follows: any text, or a grammar (Lark, or a regular expression). */
export type OpenAIResponsesTextFormat =
  { type: "text" } | { type: "grammar"; syntax: "lark" | "regex"; definition: string };

/** A free-text tool (`input: "text"`): the model writes its input as text, not JSON arguments. */
export type OpenAIResponsesCustomTool = {
  type: "custom";
  name: string;
  description: string;
  format: OpenAIResponsesTextFormat;
  defer_loading?: true;
};

/** The tools that share a `namespace`, declared together under its name and description. */
export type OpenAIResponsesNamespaceTool = {
  type: "namespace";
  name: string;
  description: string;
  tools: Array<OpenAIResponsesFunctionTool | OpenAIResponsesCustomTool>;
};

/** OpenAI's own tool search, run by OpenAI: added when some tools are deferred. */
export type OpenAIResponsesToolSearchTool = { type: "tool_search" };

/** A Responses API tool declaration as toolnexus writes one. */
export type OpenAIResponsesTool =
  | OpenAIResponsesFunctionTool
  | OpenAIResponsesCustomTool
  | OpenAIResponsesNamespaceTool
  | OpenAIResponsesToolSearchTool;

export interface OpenAIResponsesExportOptions extends OpenAIExportOptions {
  /**
   * The description of each namespace, by name: what the model reads (before it searches) about the
   * tools grouped under it. A namespace left out gets one listing its tools.
   */
  namespaces?: Record<string, string>;
}

// ---- Calls in, results out: types ------------------------------------------------------

/** Any output item; fields are `unknown` because other item kinds use these names differently. */
export type OpenAIResponsesItemLike = {
  type: string;
  call_id?: unknown;
  name?: unknown;
  arguments?: unknown;
  input?: unknown;
  namespace?: unknown;
};
export type OpenAIResponseLike = { output: OpenAIResponsesItemLike[] };

/**
 * A Responses API response, or its `output` items. Its `function_call` and `custom_tool_call` items
 * are answered; tool search items (`tool_search_call`, `tool_search_output`: OpenAI runs the search)
 * and every other item are passed over.
 */
export type OpenAIResponsesCallsInput = OpenAIResponseLike | readonly OpenAIResponsesItemLike[];

/** One item of a call's output list: text, an image, or a file (inline or by URL). */
export type OpenAIFunctionCallOutputPart =
  | { type: "input_text"; text: string }
  | { type: "input_image"; image_url: string; detail: "auto" }
  | { type: "input_file"; file_data: string; filename: string }
  | { type: "input_file"; file_url: string };

/**
 * The answer to one function call. `output` is the result's text (`"Error: ..."` for a failure),
 * or, when the result has parts, the list of them (a failure's first text then starts with "Error:").
 */
export type OpenAIFunctionCallOutput = {
  type: "function_call_output";
  call_id: string;
  output: string | OpenAIFunctionCallOutputPart[];
};

/** The answer to one call of a free-text (custom) tool, written as a function call's is. */
export type OpenAICustomToolCallOutput = {
  type: "custom_tool_call_output";
  call_id: string;
  output: string | OpenAIFunctionCallOutputPart[];
};

/** What `runOpenAIResponses` gives a list of: one output item per call, in call order. */
export type OpenAIResponsesReplyItem = OpenAIFunctionCallOutput | OpenAICustomToolCallOutput;
