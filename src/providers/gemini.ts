import { ExportError } from "../errors";
import { canonicalSchema } from "../schema/canonical";
import { appendSentence, ChangeLog, childPointer, inlineAllRefs, mergeAllOf, tupleItems } from "../schema/lowering";
import { isObject, elementSchema, type JSONSchemaObject, type Tool, type ToolContext } from "../types";
import { lowerTools, runCalls, type ExportOptions, type ExportReport, type ParsedCall, type ToolRunner } from "./shared";

// ---- Declarations ----------------------------------------------------------------------

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
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  minItems?: any; maxItems?: any; minLength?: any; maxLength?: any; minProperties?: any; maxProperties?: any;
  pattern?: string;
};

export type GeminiFunctionDeclaration = { name: string; description: string; parameters: GeminiSchema };
export type GeminiJsonSchemaFunctionDeclaration = { name: string; description: string; parametersJsonSchema: JSONSchemaObject };

/** Gemini's `tools` array: always exactly ONE wrapper holding every declaration. */
export type GeminiTools = [{ functionDeclarations: GeminiFunctionDeclaration[] }];
/** The same with full JSON Schemas (`parametersJsonSchema`). */
export type GeminiJsonSchemaTools = [{ functionDeclarations: GeminiJsonSchemaFunctionDeclaration[] }];

export interface GeminiExportOptions extends ExportOptions {
  /** Send the full JSON Schema as `parametersJsonSchema` instead of the OpenAPI-subset `parameters`. */
  jsonSchema?: boolean;
}

/** Declarations for Gemini / Vertex `tools`: one wrapper, one declaration per tool, order kept. */
export function toGemini(tools: readonly Tool[], options: GeminiExportOptions & { jsonSchema: true }): GeminiJsonSchemaTools;
export function toGemini(tools: readonly Tool[], options?: GeminiExportOptions): GeminiTools;
export function toGemini(tools: readonly Tool[], options: GeminiExportOptions = {}): GeminiTools | GeminiJsonSchemaTools {
  return exportGemini(tools, options).declarations;
}

/** `toGemini` plus the report of every change the Gemini dialect made. */
export function exportGemini(tools: readonly Tool[], options: GeminiExportOptions = {}): ExportReport<GeminiTools | GeminiJsonSchemaTools> {
  if (options.jsonSchema) {
    const { lowered } = lowerTools("gemini", tools, options, (tool) => tool.inputSchema);
    const functionDeclarations = lowered.map(({ tool, name, schema }) => ({ name, description: tool.description, parametersJsonSchema: schema }));
    return { declarations: [{ functionDeclarations }], changes: [] };
  }
  const { lowered, changes } = lowerTools("gemini", tools, options, (tool, log) => toGeminiSchema(tool.inputSchema, log) as GeminiSchema);
  const functionDeclarations = lowered.map(({ tool, name, schema }) => ({ name, description: tool.description, parameters: schema }));
  return { declarations: [{ functionDeclarations }], changes };
}

// ---- Dialect: JSON Schema → Gemini's OpenAPI 3.0 subset -------------------------------------

/** Keywords Gemini's `parameters` (Schema) accepts; anything else is a 400 "Unknown name". */
const GEMINI_KEYWORDS = new Set([
  "type", "format", "title", "description", "nullable", "enum", "items", "properties", "required",
  "propertyOrdering", "anyOf", "default", "example", "minimum", "maximum", "minItems", "maxItems",
  "minLength", "maxLength", "minProperties", "maxProperties", "pattern",
]);

/** Formats Gemini accepts per type; others are moved into the description. */
const GEMINI_FORMATS: Record<string, string[]> = {
  string: ["enum", "date-time"],
  number: ["float", "double"],
  integer: ["int32", "int64"],
};

const EXCLUSIVE_BOUNDS = [
  { exclusive: "exclusiveMinimum", inclusive: "minimum" },
  { exclusive: "exclusiveMaximum", inclusive: "maximum" },
] as const;

const GEMINI_PROPERTY_NAME = /^[A-Za-z_][A-Za-z0-9_]{0,63}$/;

/**
 * Lowers a tool's JSON Schema to what Gemini's `parameters` accepts, logging every change.
 * A schema already inside the subset is returned as it is (byte-identical).
 */
export function toGeminiSchema(schema: JSONSchemaObject, log: ChangeLog): JSONSchemaObject {
  const before = log.changes.length;
  const lowered = lowerGeminiNode(inlineAllRefs(schema, log), "", log);
  if (log.changes.length === before) return schema;
  // Dropping keys keeps the remaining ones in canonical order: only other changes need re-sorting.
  for (let i = before; i < log.changes.length; i++) if (log.changes[i]!.action !== "dropped") return canonicalSchema(lowered);
  return lowered;
}

/**
 * Copy-on-write: a node (and a subtree) that needs no change is returned as it is, so a
 * schema already inside the subset costs no copies; every change makes a new object.
 */
function lowerGeminiNode(input: JSONSchemaObject, pointer: string, log: ChangeLog): JSONSchemaObject {
  if (typeof input !== "object" || input === null) {
    // A boolean schema (`true`: anything): Gemini takes object schemas only.
    log.add(pointer, "schema", "rewritten", `${JSON.stringify(input)} → {} (Gemini takes object schemas only; the value is still checked when the call runs)`);
    return {};
  }
  let node: JSONSchemaObject = input;

  // Enums: strings only. Other values are stringified and marked with format "enum"; the
  // enum decides the type, whatever `type` said (a type array included).
  if (Array.isArray(node.enum) && node.enum.some((v) => typeof v !== "string")) {
    const values = node.enum.filter((v) => v !== null);
    const nullable = values.length < node.enum.length || (Array.isArray(node.type) && node.type.includes("null"));
    log.add(childPointer(pointer, "enum"), "enum", "rewritten", `values ${JSON.stringify(node.enum)} → strings with format "enum" (answers are converted back before the call)`);
    node = { ...node, type: "string", format: "enum", enum: values.map((v) => String(v)), ...(nullable ? { nullable: true } : {}) };
  }

  // Type arrays: one type, plus `nullable`; several types become anyOf.
  if (Array.isArray(node.type)) {
    const types = node.type.filter((t) => t !== "null");
    const nullable = types.length < node.type.length;
    log.add(pointer, "type", "rewritten", `type ${JSON.stringify(node.type)} → ${types.length === 1 ? `"${types[0]}"` : "anyOf"}${nullable ? " + nullable" : ""}`);
    const { type: _t, ...rest } = node;
    node = types.length === 1 ? { ...rest, type: types[0] } : { ...rest, anyOf: types.map((t) => ({ type: t })) };
    if (nullable) node.nullable = true;
  }
  if (node.type === "null") {
    log.add(pointer, "type", "rewritten", 'type "null" → nullable string (Gemini has no null type)');
    node = { ...node, type: "string", nullable: true };
  }
  if ("const" in node) {
    const { const: value, ...rest } = node;
    log.add(pointer, "const", "rewritten", `const ${JSON.stringify(value)} → enum [${JSON.stringify(value)}]`);
    node = { ...rest, enum: [value] };
  }
  for (const { exclusive, inclusive } of EXCLUSIVE_BOUNDS) {
    if (!(exclusive in node)) continue;
    const { [exclusive]: bound, ...rest } = node;
    if (typeof bound === "number" && rest[inclusive] === undefined) {
      log.add(pointer, exclusive, "rewritten", `${exclusive} ${bound} → ${inclusive} ${bound} (the exclusive bound is still enforced when the call runs)`);
      node = { ...rest, [inclusive]: bound };
    } else {
      log.add(pointer, exclusive, "dropped", `${exclusive} is not supported (still enforced when the call runs)`);
      node = rest;
    }
  }
  if (Array.isArray(node.oneOf)) {
    const { oneOf, ...rest } = node;
    log.add(pointer, "oneOf", "rewritten", "oneOf → anyOf (exactly-one is still enforced when the call runs)");
    node = { ...rest, anyOf: [...((rest.anyOf as JSONSchemaObject[] | undefined) ?? []), ...(oneOf as JSONSchemaObject[])] };
  }
  if (Array.isArray(node.allOf)) {
    const { allOf, ...rest } = node;
    log.add(pointer, "allOf", "rewritten", "allOf merged into one schema");
    node = mergeAllOf(rest, allOf as JSONSchemaObject[]);
  }
  if (Array.isArray(node.examples)) {
    const { examples, ...rest } = node;
    log.add(pointer, "examples", "rewritten", "examples → example (the first one)");
    node = { ...rest, ...(rest.example === undefined && examples.length > 0 ? { example: examples[0] } : {}) };
  }

  // anyOf: null branches become `nullable`; a single remaining branch replaces the anyOf.
  if (Array.isArray(node.anyOf)) {
    const branches = node.anyOf as JSONSchemaObject[];
    const nonNull = branches.filter((b) => b.type !== "null");
    if (nonNull.length < branches.length) {
      log.add(childPointer(pointer, "anyOf"), "anyOf", "rewritten", "null branch → nullable");
      node = { ...node, nullable: true, anyOf: nonNull };
    }
    if (nonNull.length === 1) {
      // Only a one-branch anyOf of the input's own needs its own entry: other paths here were logged above.
      if (input.anyOf === branches && branches.length === 1) log.add(childPointer(pointer, "anyOf"), "anyOf", "rewritten", "anyOf with one branch → that branch");
      const { anyOf: _a, ...rest } = node;
      return lowerGeminiNode({ ...nonNull[0], ...rest }, pointer, log);
    }
  }

  // Unknown keywords.
  let unknownKeys: string[] | undefined;
  for (const key in node) if (!GEMINI_KEYWORDS.has(key)) (unknownKeys ??= []).push(key);
  if (unknownKeys !== undefined) {
    for (const key of unknownKeys) {
      log.add(childPointer(pointer, key), key, "dropped", `${key} is not supported by Gemini${CHECKED_AT_RUN.has(key) ? " (still enforced when the call runs)" : ""}`);
    }
    node = withoutKeys(node, unknownKeys);
  }

  // Formats Gemini does not know move into the description.
  if (typeof node.format === "string" && typeof node.type === "string" && !(GEMINI_FORMATS[node.type] ?? []).includes(node.format)) {
    log.add(childPointer(pointer, "format"), "format", "moved", `format "${node.format}" is not supported for ${node.type}; stated in the description instead (still enforced when the call runs)`);
    const { format, ...rest } = node;
    node = { ...rest, description: appendSentence(rest.description, `Format: ${format}.`) };
  }

  // Children.
  if (node.properties !== undefined) {
    const declared = node.properties;
    const names = Object.keys(declared);
    let properties: Record<string, JSONSchemaObject> | undefined; // a copy, made at the first change
    for (const name of names) {
      const child = declared[name]!;
      if (!GEMINI_PROPERTY_NAME.test(name)) {
        throw new ExportError(
          `Tool "${log.tool}": Gemini rejects the property name "${name}" at ${childPointer(pointer, "properties", name) || "/"} (letters, digits and _, starting with a letter or _, at most 64). Rename the parameter.`,
        );
      }
      const lowered = lowerChild(child, log, pointer, "properties", name);
      if (lowered !== child) (properties ??= { ...declared })[name] = lowered;
    }
    if (names.length === 0) {
      log.add(childPointer(pointer, "properties"), "properties", "dropped", "an empty properties map is rejected for OBJECT type");
      node = withoutKeys(node, ["properties"]);
    } else if (properties !== undefined) node = { ...node, properties };
  }
  if (Array.isArray(node.required)) {
    const declared = node.properties;
    const names = node.required;
    const isKnown = (name: string) => declared !== undefined && Object.prototype.hasOwnProperty.call(declared, name);
    if (names.length === 0) {
      log.add(childPointer(pointer, "required"), "required", "dropped", "an empty required list says nothing");
      node = withoutKeys(node, ["required"]);
    }
    else if (!names.every(isKnown)) {
      const known = names.filter(isKnown);
      const unknown = names.filter((name) => !isKnown(name));
      log.add(childPointer(pointer, "required"), "required", "dropped", `${unknown.map((n) => `"${n}"`).join(", ")} named no property`);
      node = known.length === 0 ? withoutKeys(node, ["required"]) : { ...node, required: known };
    }
  }
  if (Array.isArray(node.items)) {
    log.add(childPointer(pointer, "items"), "items", "rewritten", "tuple items → one item schema (positions are still enforced when the call runs)");
    node = { ...node, items: tupleItems(node.items as JSONSchemaObject[]) };
  }
  if (node.items !== undefined) {
    const items = lowerChild(node.items as JSONSchemaObject, log, pointer, "items");
    if (items !== node.items) node = { ...node, items };
  }
  if (Array.isArray(node.anyOf)) {
    const { anyOf, ...siblings } = node;
    const branches = (anyOf as JSONSchemaObject[]).map((b, i) => lowerChild(b, log, pointer, "anyOf", i));
    // anyOf must stand alone on its node: every sibling moves into each branch.
    if (Object.keys(siblings).length > 0) {
      log.add(pointer, "anyOf", "moved", `${Object.keys(siblings).join(", ")} moved into each anyOf branch (anyOf must be alone on its node)`);
      node = { anyOf: branches.map((b) => ({ ...siblings, ...b })) };
    } else if (branches.some((b, i) => b !== (anyOf as JSONSchemaObject[])[i])) node = { anyOf: branches };
  }
  return node;
}

/** A child schema, lowered. A leaf is recognised before its pointer is made: most children are leaves. */
function lowerChild(child: JSONSchemaObject, log: ChangeLog, pointer: string, ...segments: Array<string | number>): JSONSchemaObject {
  return isGeminiLeaf(child) ? child : lowerGeminiNode(child, childPointer(pointer, ...segments), log);
}

/**
 * A leaf Gemini takes exactly as it is: one named type, known keywords, string enum values, a
 * format Gemini knows. Most nodes of most schemas are such leaves; they skip the lowering
 * steps above, none of which would change them. (Conservative: anything else is lowered.)
 */
export function isGeminiLeaf(node: JSONSchemaObject): boolean {
  if (typeof node !== "object" || node === null) return false;
  const { type, format, enum: values } = node;
  if (typeof type !== "string" || type === "null" || type === "object" || type === "array") return false;
  for (const key in node) if (!GEMINI_KEYWORDS.has(key) || key === "anyOf" || key === "properties" || key === "items" || key === "required") return false;
  if (values !== undefined && !(Array.isArray(values) && values.every((value) => typeof value === "string"))) return false;
  return format === undefined || (typeof format === "string" && GEMINI_FORMATS[type]?.includes(format) === true);
}

/** `node` without `keys`, the rest in their order. */
function withoutKeys(node: JSONSchemaObject, keys: readonly string[]): JSONSchemaObject {
  const out: JSONSchemaObject = {};
  for (const key of Object.keys(node)) if (!keys.includes(key)) out[key] = node[key];
  return out;
}

/** Keywords the tool's own validation checks when Gemini cannot. */
const CHECKED_AT_RUN = new Set(["additionalProperties", "not", "patternProperties", "propertyNames", "uniqueItems", "multipleOf", "dependentRequired", "dependentSchemas", "if", "then", "else", "contains", "prefixItems"]);


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
  const results = await runCalls(runner, calls, "gemini", ctx, restoreEnumValues);
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

/**
 * Gemini enums are strings, so a non-string enum was declared stringified: an answer like "2"
 * is turned back into the value the tool declared (2) before the call runs.
 */
function restoreEnumValues(tool: Tool, args: Record<string, unknown>): Record<string, unknown> {
  return restoreIn(tool.inputSchema, args) as Record<string, unknown>;
}

function restoreIn(schema: JSONSchemaObject | undefined, value: unknown): unknown {
  if (schema === undefined) return value;
  if (typeof value === "string" && Array.isArray(schema.enum)) {
    const match = schema.enum.find((v) => typeof v !== "string" && String(v) === value);
    return match === undefined ? value : match;
  }
  if (Array.isArray(value)) {
    const restored = value.map((item, index) => restoreIn(elementSchema(schema, index), item));
    return restored.some((item, i) => item !== value[i]) ? restored : value;
  }
  if (isObject(value) && schema.properties !== undefined) {
    let copy: Record<string, unknown> | undefined;
    for (const [key, child] of Object.entries(schema.properties)) {
      if (!Object.prototype.hasOwnProperty.call(value, key)) continue;
      const restored = restoreIn(child, value[key]);
      if (restored !== value[key]) (copy ??= { ...value })[key] = restored;
    }
    return copy ?? value;
  }
  return value;
}
