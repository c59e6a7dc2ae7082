import { compileArgumentCleaner } from "../runtime/coerce";
import { appendSentence, ChangeLog, childPointer, mergeAllOf, tupleItems } from "../schema/lowering";
import { isObject, type JSONSchemaObject, type Tool, type ToolContext } from "../types";
import { lowerTools, runCalls, textForModel, type ExportOptions, type ExportReport, type ParsedCall, type ToolRunner } from "./shared";

// ---- Declarations (Chat Completions) ---------------------------------------------------

export type OpenAIFunctionTool = {
  type: "function";
  function: { name: string; description: string; parameters: JSONSchemaObject; strict?: boolean };
};

export interface OpenAIExportOptions extends ExportOptions {
  /**
   * Structured-outputs strict mode: every object closed, every property required, optional
   * values nullable (a `null` answer is read back as "not given"). A tool whose schema cannot
   * be strict (a free-form object) is sent with `strict: false`, and the report says why.
   */
  strict?: boolean;
}

export function toOpenAI(tools: readonly Tool[], options: OpenAIExportOptions = {}): OpenAIFunctionTool[] {
  return exportOpenAI(tools, options).declarations;
}

export function exportOpenAI(tools: readonly Tool[], options: OpenAIExportOptions = {}): ExportReport<OpenAIFunctionTool[]> {
  const { declarations, changes } = openAIFunctions("openai", tools, options);
  return {
    declarations: declarations.map(({ name, description, parameters, strict }) => ({
      type: "function",
      function: { name, description, parameters, ...(options.strict ? { strict } : {}) },
    })),
    changes,
  };
}

/** Names and (strict-lowered) schemas, shared by Chat Completions and Responses. */
export function openAIFunctions(
  provider: "openai" | "openai-responses",
  tools: readonly Tool[],
  options: OpenAIExportOptions,
): ExportReport<Array<{ name: string; description: string; parameters: JSONSchemaObject; strict: boolean }>> {
  const { lowered, changes } = lowerTools(provider, tools, options, (tool, log) => (options.strict ? toOpenAIStrictSchema(tool.inputSchema, log) : undefined));
  const declarations = lowered.map(({ tool, name, schema }) =>
    schema === undefined
      ? { name, description: tool.description, parameters: tool.inputSchema, strict: false }
      : { name, description: tool.description, parameters: schema, strict: true },
  );
  return { declarations, changes };
}

// ---- Dialect: strict mode --------------------------------------------------------------

/** Keywords strict mode refuses (providers.md). */
const STRICT_UNSUPPORTED = new Set([
  "not", "if", "then", "else", "dependentRequired", "dependentSchemas", "dependencies",
  "patternProperties", "propertyNames", "prefixItems", "contains", "minProperties", "maxProperties",
  "uniqueItems", "unevaluatedProperties", "unevaluatedItems", "$schema", "$id",
]);

/** String formats strict mode accepts; others move into the description. */
const STRICT_FORMATS = new Set(["date-time", "time", "date", "duration", "email", "hostname", "ipv4", "ipv6", "uuid"]);

class NotStrictable extends Error {}

/**
 * The strict-mode form of a tool schema, or `undefined` (logged) when it cannot be strict.
 * Whatever is dropped is still enforced by the tool's own schema when the call runs.
 */
export function toOpenAIStrictSchema(schema: JSONSchemaObject, log: ChangeLog): JSONSchemaObject | undefined {
  const mark = log.changes.length;
  try {
    if (schema.anyOf || schema.oneOf) throw new NotStrictable("the root is a union; strict mode needs a plain object at the root");
    const lowered = strictNode(schema, "", log);
    // Definitions that `$ref`s point at are held to the same rules.
    for (const key of ["$defs", "definitions"] as const) {
      const definitions = schema[key] as Record<string, JSONSchemaObject> | undefined;
      if (definitions === undefined) continue;
      lowered[key] = Object.fromEntries(Object.entries(definitions).map(([name, definition]) => [name, strictNode(definition, childPointer("", key, name), log)]));
    }
    return lowered;
  } catch (error) {
    if (!(error instanceof NotStrictable)) throw error;
    log.changes.length = mark;
    log.add("", "strict", "disabled", `${error.message}; this tool is sent with strict: false`);
    return undefined;
  }
}

function strictNode(input: JSONSchemaObject, pointer: string, log: ChangeLog): JSONSchemaObject {
  const node: JSONSchemaObject = { ...input };
  for (const key of Object.keys(node)) {
    if (!STRICT_UNSUPPORTED.has(key)) continue;
    log.add(childPointer(pointer, key), key, "dropped", `${key} is not allowed in strict mode (still enforced when the call runs)`);
    delete node[key];
  }
  if (Array.isArray(node.allOf)) {
    const { allOf, ...rest } = node;
    log.add(childPointer(pointer, "allOf"), "allOf", "rewritten", "allOf merged into one schema (strict mode has no allOf)");
    return strictNode(mergeAllOf(rest, allOf as JSONSchemaObject[]), pointer, log);
  }
  if (typeof node.format === "string" && !STRICT_FORMATS.has(node.format)) {
    log.add(childPointer(pointer, "format"), "format", "moved", `format "${node.format}" is not supported in strict mode; stated in the description instead (still enforced when the call runs)`);
    node.description = appendSentence(node.description, `Format: ${node.format}.`);
    delete node.format;
  }
  if (Array.isArray(node.items)) {
    log.add(childPointer(pointer, "items"), "items", "rewritten", "tuple items → one item schema (positions are still enforced when the call runs)");
    node.items = tupleItems(node.items as JSONSchemaObject[]);
  }
  if (node.oneOf !== undefined) {
    log.add(childPointer(pointer, "oneOf"), "oneOf", "rewritten", "oneOf → anyOf (exactly-one is still enforced when the call runs)");
    node.anyOf = [...((node.anyOf as JSONSchemaObject[] | undefined) ?? []), ...(node.oneOf as JSONSchemaObject[])];
    delete node.oneOf;
  }
  const isObjectType = node.type === "object" || (Array.isArray(node.type) && node.type.includes("object")) || node.properties !== undefined;
  if (isObjectType) {
    const properties = node.properties ?? {};
    if (Object.keys(properties).length === 0 && node.additionalProperties !== false) {
      throw new NotStrictable(`the object at ${pointer || "/"} has no declared properties (free-form objects cannot be strict)`);
    }
    const required = new Set(node.required ?? []);
    const lowered: Record<string, JSONSchemaObject> = {};
    for (const [name, child] of Object.entries(properties)) {
      const at = childPointer(pointer, "properties", name);
      const strictChild = strictNode(child, at, log);
      if (required.has(name)) lowered[name] = strictChild;
      else {
        log.add(at, "required", "rewritten", "optional → required and nullable (a null answer means not given)");
        lowered[name] = nullable(strictChild);
      }
    }
    node.properties = lowered;
    node.required = Object.keys(lowered);
    if (node.additionalProperties !== false) {
      log.add(childPointer(pointer, "additionalProperties"), "additionalProperties", "added", "additionalProperties: false (strict mode closes every object)");
      node.additionalProperties = false;
    }
  }
  if (node.items !== undefined) node.items = strictNode(node.items, childPointer(pointer, "items"), log);
  if (Array.isArray(node.anyOf)) node.anyOf = (node.anyOf as JSONSchemaObject[]).map((b, i) => strictNode(b, childPointer(pointer, "anyOf", i), log));
  return node;
}

function nullable(schema: JSONSchemaObject): JSONSchemaObject {
  if (typeof schema.type === "string") {
    if (schema.type === "null") return schema;
    const out: JSONSchemaObject = { ...schema, type: [schema.type, "null"] };
    if (Array.isArray(schema.enum) && !schema.enum.includes(null)) out.enum = [...schema.enum, null];
    return out;
  }
  if (Array.isArray(schema.type)) return schema.type.includes("null") ? schema : { ...schema, type: [...schema.type, "null"] };
  if (Array.isArray(schema.anyOf)) return { ...schema, anyOf: [...(schema.anyOf as JSONSchemaObject[]), { type: "null" }] };
  return { anyOf: [schema, { type: "null" }] };
}

// ---- Calls in, results out -------------------------------------------------------------

export type OpenAIToolCallLike = {
  id: string;
  type: string;
  function?: { name: string; arguments: string };
  custom?: { name: string; input: string };
};
export type OpenAIMessageLike = { tool_calls?: OpenAIToolCallLike[] | null };
export type OpenAICompletionLike = { choices: Array<{ message: OpenAIMessageLike }> };

/** A chat completion (its first choice), an assistant message, or its `tool_calls`. */
export type OpenAICallsInput = OpenAICompletionLike | OpenAIMessageLike | readonly OpenAIToolCallLike[];

/** One per call, to append right after the assistant message. */
export type OpenAIToolMessage = { role: "tool"; tool_call_id: string; content: string };

export function parseOpenAICalls(input: OpenAICallsInput): ParsedCall[] {
  let toolCalls: readonly OpenAIToolCallLike[] = [];
  if (Array.isArray(input)) toolCalls = input;
  else if (isObject(input) && Array.isArray((input as OpenAICompletionLike).choices)) {
    toolCalls = (input as OpenAICompletionLike).choices[0]?.message?.tool_calls ?? [];
  } else if (isObject(input)) toolCalls = (input as OpenAIMessageLike).tool_calls ?? [];
  return toolCalls.map((call) =>
    call.type === "function" && call.function !== undefined
      ? { id: call.id, name: call.function.name, arguments: call.function.arguments }
      : // A custom (free-text) tool call: toolnexus declares function tools only, so it is
        // answered with an error rather than dropped, and never runs a function of that name.
        {
          id: call.id,
          name: call.custom?.name ?? call.function?.name ?? "",
          arguments: undefined,
          refusal: `Tool "${call.custom?.name ?? call.function?.name ?? ""}" was called as a ${call.type} tool, but only function tools are declared; call it as a function with JSON arguments.`,
        },
  );
}

/** Per tool schema, planned on its first call (a cache, keyed weakly: tools come and go). */
const strictNullDroppers = new WeakMap<JSONSchemaObject, (args: Record<string, unknown>) => Record<string, unknown>>();

/** Strict mode answers `null` for every optional value it was not given: that means "absent". */
export function dropStrictNulls(tool: Tool, args: Record<string, unknown>): Record<string, unknown> {
  let drop = strictNullDroppers.get(tool.inputSchema);
  if (drop === undefined) strictNullDroppers.set(tool.inputSchema, (drop = compileArgumentCleaner(tool.inputSchema, { coerce: false })));
  return drop(args);
}

export async function runOpenAI(runner: ToolRunner, input: OpenAICallsInput, ctx?: ToolContext): Promise<OpenAIToolMessage[]> {
  const calls = parseOpenAICalls(input);
  const results = await runCalls(runner, calls, "openai", ctx, dropStrictNulls);
  return calls.map((call, i) => ({ role: "tool", tool_call_id: call.id ?? "", content: textForModel(results[i]!) }));
}
