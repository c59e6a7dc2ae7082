import type { JSONSchemaObject, Tool, ToolContext } from "../types";
import { assertNamesAccepted, isObject, runCalls, type ParsedCall, type ToolRunner } from "./shared";

// ---- Declarations ----------------------------------------------------------------------

export type GeminiFunctionDeclaration = { name: string; description: string; parameters: JSONSchemaObject };

/** Gemini's `tools` array: always exactly ONE wrapper holding every declaration. */
export type GeminiTools = [{ functionDeclarations: GeminiFunctionDeclaration[] }];

/** Declarations for Gemini / Vertex `tools`: one wrapper, one declaration per tool, order kept. */
export function toGemini(tools: readonly Tool[]): GeminiTools {
  assertNamesAccepted("gemini", tools);
  return [
    {
      functionDeclarations: tools.map((tool) => ({ name: tool.name, description: tool.description, parameters: tool.inputSchema })),
    },
  ];
}

// ---- Calls in, results out -------------------------------------------------------------

export type GeminiFunctionCallLike = { id?: string; name?: string; args?: Record<string, unknown> };
export type GeminiPartLike = { functionCall?: GeminiFunctionCallLike };
export type GeminiContentLike = { role?: string; parts?: GeminiPartLike[] };
export type GeminiResponseLike = { candidates?: Array<{ content?: GeminiContentLike }> };

/** A `generateContent` response, the model's `Content`, its parts, or bare `functionCall`s. */
export type GeminiCallsInput = GeminiResponseLike | GeminiContentLike | ReadonlyArray<GeminiPartLike | GeminiFunctionCallLike>;

export type GeminiFunctionResponsePart = {
  functionResponse: { name: string; response: { output: string } | { error: string }; id?: string };
};

/** The one user turn that answers every call: append it to `contents`. */
export type GeminiToolResponseContent = { role: "user"; parts: GeminiFunctionResponsePart[] };

export function parseGeminiCalls(input: GeminiCallsInput): ParsedCall[] {
  let items: ReadonlyArray<GeminiPartLike | GeminiFunctionCallLike> = [];
  if (Array.isArray(input)) items = input;
  else if (isObject(input) && Array.isArray((input as GeminiResponseLike).candidates)) {
    items = (input as GeminiResponseLike).candidates?.[0]?.content?.parts ?? [];
  } else if (isObject(input) && Array.isArray((input as GeminiContentLike).parts)) items = (input as GeminiContentLike).parts!;
  const calls: ParsedCall[] = [];
  for (const item of items) {
    const call = isObject((item as GeminiPartLike).functionCall)
      ? (item as GeminiPartLike).functionCall!
      : typeof (item as GeminiFunctionCallLike).name === "string"
        ? (item as GeminiFunctionCallLike)
        : undefined;
    if (call === undefined) continue; // text, thoughts and other parts are not calls
    calls.push({ name: call.name ?? "", arguments: call.args, ...(call.id !== undefined ? { id: call.id } : {}) });
  }
  return calls;
}

export async function runGemini(runner: ToolRunner, input: GeminiCallsInput, ctx?: ToolContext): Promise<GeminiToolResponseContent> {
  const calls = parseGeminiCalls(input);
  const results = await runCalls(runner, calls, "gemini", ctx);
  return {
    role: "user",
    parts: calls.map((call, i) => {
      const result = results[i]!;
      // Vertex rejects an `id` the call did not carry: echo it only when present.
      return {
        functionResponse: {
          name: call.name,
          response: result.isError ? { error: result.output } : { output: result.output },
          ...(call.id !== undefined ? { id: call.id } : {}),
        },
      };
    }),
  };
}
