/**
 * Gemini's `generateContent` wire as toolnexus writes and reads it: declarations, the calls in a
 * response, and the function responses that answer them. Assignable to `@google/genai`'s types.
 */
import type { JSONSchemaObject } from "../../core/types";
import type { ExportOptions } from "../adapter";

// ---- Declarations ----------------------------------------------------------------------

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- the SDK types int64 fields as strings; the REST API takes the numbers toolnexus sends
type WireInt64 = any;

/**
 * Gemini's `Schema`. Typed loosely where the SDK's types are stricter than the wire: its
 * `type` is an enum of upper-case names and its int64 fields are strings, while the REST API
 * takes the lower-case names and numbers toolnexus sends.
 */
export type GeminiSchema = {
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  type?: any;
  format?: string;
  title?: string;
  description?: string;
  nullable?: boolean;
  enum?: string[];
  items?: GeminiSchema;
  properties?: Record<string, GeminiSchema>;
  required?: string[];
  propertyOrdering?: string[];
  anyOf?: GeminiSchema[];
  default?: unknown;
  example?: unknown;
  minimum?: number;
  maximum?: number;
  minItems?: WireInt64;
  maxItems?: WireInt64;
  minLength?: WireInt64;
  maxLength?: WireInt64;
  minProperties?: WireInt64;
  maxProperties?: WireInt64;
  pattern?: string;
};

export type GeminiFunctionDeclaration = {
  name: string;
  description: string;
  parameters: GeminiSchema;
  /** What the function answers with: the tool's `outputSchema`, lowered as `parameters` are. */
  response?: GeminiSchema;
};
export type GeminiJsonSchemaFunctionDeclaration = {
  name: string;
  description: string;
  parametersJsonSchema: JSONSchemaObject;
  /** What the function answers with: the tool's `outputSchema` as JSON Schema. */
  responseJsonSchema?: JSONSchemaObject;
};

/** Gemini's `tools` array: always exactly ONE wrapper holding every declaration. */
export type GeminiTools = [{ functionDeclarations: GeminiFunctionDeclaration[] }];
/** The same with full JSON Schemas (`parametersJsonSchema`). */
export type GeminiJsonSchemaTools = [{ functionDeclarations: GeminiJsonSchemaFunctionDeclaration[] }];

export interface GeminiExportOptions extends ExportOptions {
  /**
   * Send the full JSON Schema as `parametersJsonSchema` (and an `outputSchema` as `responseJsonSchema`) instead of the
   * OpenAPI-subset `parameters` (and `response`).
   */
  jsonSchema?: boolean;
  /**
   * Whether function responses carry a result's media in `functionResponse.parts` (default
   * true): PNG, JPEG and WebP images, PDF and plain-text documents, inline or by URI, as Gemini 3
   * models take them. Set `false` for models that take no parts in a function response (Gemini
   * 2.5 and earlier answer such a request with a 400): every image, audio, file and link of a
   * result is then replaced by a text note the model reads, and listed in the result's
   * `metadata.unsentContent`. `runGemini` follows the options of the latest `toGemini(...)`.
   */
  multimodalResults?: boolean;
}

// ---- Calls in, results out: types ------------------------------------------------------

export type GeminiFunctionCallLike = { id?: string; name?: string; args?: Record<string, unknown> };
/** Any part: text, thoughts and other parts are not calls and pass by. */
export type GeminiPartLike = { functionCall?: GeminiFunctionCallLike } | object;
export type GeminiContentLike = { role?: string; parts?: GeminiPartLike[] | null };
export type GeminiResponseLike = { candidates?: Array<{ content?: GeminiContentLike }> | null };

/** A `generateContent` response, the model's `Content`, its parts, or bare `functionCall`s. */
export type GeminiCallsInput =
  GeminiResponseLike | GeminiContentLike | ReadonlyArray<GeminiPartLike | GeminiFunctionCallLike>;

/** Media in a function response: base64 bytes inline, or a file by URI, each with its mime type. */
export type GeminiFunctionResponseMedia =
  { inlineData: { mimeType: string; data: string } } | { fileData: { fileUri: string; mimeType: string } };

export type GeminiFunctionResponsePart = {
  functionResponse: {
    name: string;
    /** `output`: the result's text form, or its structured content (the object itself); `error`: the error's text. */
    response: { output: string | Record<string, unknown> } | { error: string };
    id?: string;
    /** The result's images and documents (see `GeminiExportOptions.multimodalResults`). */
    parts?: GeminiFunctionResponseMedia[];
  };
};

/** The one user turn that answers every call: append it to `contents`. */
export type GeminiToolResponseContent = { role: "user"; parts: GeminiFunctionResponsePart[] };

/**
 * The conversation an export reads (`conversation`): the request's `contents`, or the request itself (`{ contents }`).
 */
export type GeminiConversation = readonly GeminiContentLike[] | { contents: readonly GeminiContentLike[] };
