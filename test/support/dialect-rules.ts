/**
 * What each provider's API refuses, as pure checkers: input in, list of violations out
 * (empty = the provider would accept it). Used by the dialect tests on toolnexus' output and
 * by the mock provider server, which answers 400 when a checker finds anything.
 *
 * Sources: /work/shared/providers.md (the contract), the official SDK types in
 * node_modules, and the providers' own error texts where the rule comes from a bug report
 * (noted at the rule). Checkers never throw on odd input: odd input is a violation.
 */

export interface Violation {
  /** Where, as a JSON-ish path into the checked value ("tools[0].functionDeclarations[1].parameters.properties.x"). */
  at: string;
  message: string;
}

/** One line per violation, for error bodies and assertion messages. */
export function describeViolations(violations: readonly Violation[]): string {
  return violations.map((v) => `${v.at}: ${v.message}`).join("\n");
}

type Obj = Record<string, unknown>;

function isObj(value: unknown): value is Obj {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

function key(path: string, name: string | number): string {
  if (typeof name === "number") return `${path}[${name}]`;
  return /^[A-Za-z_$][A-Za-z0-9_$]*$/.test(name) ? (path ? `${path}.${name}` : name) : `${path}[${JSON.stringify(name)}]`;
}

// ---- Names ----------------------------------------------------------------------------------

/** providers.md, "Names". */
export const NAME_PATTERNS = {
  gemini: /^[A-Za-z_][A-Za-z0-9_.:-]{0,127}$/,
  openai: /^[a-zA-Z0-9_-]{1,64}$/,
  anthropic: /^[a-zA-Z0-9_-]{1,128}$/,
  mcp: /^[A-Za-z0-9._-]{1,128}$/,
  bedrock: /^[a-zA-Z0-9_-]{1,64}$/,
} as const;

function checkName(provider: keyof typeof NAME_PATTERNS, name: unknown, at: string, out: Violation[]): void {
  if (typeof name !== "string") out.push({ at, message: `name must be a string, got ${JSON.stringify(name)}` });
  else if (!NAME_PATTERNS[provider].test(name)) out.push({ at, message: `invalid ${provider} function name "${name}" (must match ${NAME_PATTERNS[provider]})` });
}

function checkAllowedKeys(node: Obj, allowed: ReadonlySet<string>, at: string, out: Violation[], what: string): void {
  for (const name of Object.keys(node)) {
    if (!allowed.has(name)) out.push({ at: key(at, name), message: `Unknown name "${name}" in ${what}: Cannot find field.` });
  }
}

// ---- Gemini ---------------------------------------------------------------------------------

/** providers.md, "Gemini `parameters` dialect (OpenAPI 3.0 subset)". */
export const GEMINI_SCHEMA_KEYS: ReadonlySet<string> = new Set([
  "type", "format", "title", "description", "nullable", "enum", "items", "properties", "required",
  "propertyOrdering", "anyOf", "default", "example", "minimum", "maximum", "minItems", "maxItems",
  "minLength", "maxLength", "minProperties", "maxProperties", "pattern",
]);

/** Gemini's `Type` enum (the REST API also takes the lower-case names). "NULL" is not one a tool parameter can have. */
const GEMINI_TYPES = new Set(["STRING", "NUMBER", "INTEGER", "BOOLEAN", "ARRAY", "OBJECT"]);

/** Gemini API reference, `Schema.format`: the only formats each type takes. */
const GEMINI_FORMATS: Record<string, readonly string[]> = {
  STRING: ["enum", "date-time"],
  NUMBER: ["float", "double"],
  INTEGER: ["int32", "int64"],
};

export const GEMINI_PROPERTY_NAME = /^[A-Za-z_][A-Za-z0-9_]{0,63}$/;

/** A Gemini `Schema` (the `parameters` of a function declaration). */
export function checkGeminiSchema(schema: unknown, at = "parameters"): Violation[] {
  const out: Violation[] = [];
  geminiNode(schema, at, out);
  return out;
}

function geminiNode(node: unknown, at: string, out: Violation[]): void {
  if (!isObj(node)) {
    out.push({ at, message: `a schema must be an object, got ${JSON.stringify(node)}` });
    return;
  }
  for (const name of Object.keys(node)) {
    if (GEMINI_SCHEMA_KEYS.has(name)) continue;
    const hint = name === "$ref" || name === "$defs" || name === "definitions" ? " (references are not supported: inline them)" : "";
    out.push({ at: key(at, name), message: `Invalid JSON payload received. Unknown name "${name}": Cannot find field.${hint}` });
  }
  let type: string | undefined;
  if ("type" in node) {
    if (typeof node.type !== "string") out.push({ at: key(at, "type"), message: `type must be a single string, got ${JSON.stringify(node.type)}` });
    else if (!GEMINI_TYPES.has(node.type.toUpperCase())) out.push({ at: key(at, "type"), message: `invalid type ${JSON.stringify(node.type)}` });
    else type = node.type.toUpperCase();
  }
  if ("nullable" in node && typeof node.nullable !== "boolean") out.push({ at: key(at, "nullable"), message: "nullable must be a boolean" });
  if ("enum" in node) {
    if (!Array.isArray(node.enum) || node.enum.some((v) => typeof v !== "string")) {
      out.push({ at: key(at, "enum"), message: `enum values must be strings, got ${JSON.stringify(node.enum)}` });
    } else if (type !== undefined && type !== "STRING") {
      out.push({ at: key(at, "enum"), message: `enum is only supported for STRING type, got ${type}` });
    }
  }
  if ("format" in node && type !== undefined) {
    const allowed = GEMINI_FORMATS[type] ?? [];
    if (!allowed.includes(node.format as string)) {
      out.push({ at: key(at, "format"), message: `format ${JSON.stringify(node.format)} is not supported for ${type} (supported: ${allowed.join(", ") || "none"})` });
    }
  }
  if ("anyOf" in node) {
    if (!Array.isArray(node.anyOf) || node.anyOf.length === 0) out.push({ at: key(at, "anyOf"), message: "anyOf must be a non-empty array of schemas" });
    else {
      const siblings = Object.keys(node).filter((k) => k !== "anyOf");
      if (siblings.length > 0) out.push({ at, message: `anyOf must be the only field set on its schema, found also: ${siblings.join(", ")}` });
      node.anyOf.forEach((branch, i) => geminiNode(branch, `${key(at, "anyOf")}[${i}]`, out));
    }
  }
  if ("properties" in node) {
    if (!isObj(node.properties)) out.push({ at: key(at, "properties"), message: "properties must be a map of schemas" });
    else {
      if (Object.keys(node.properties).length === 0) {
        out.push({ at: key(at, "properties"), message: "should be non-empty for OBJECT type" });
      }
      for (const [name, child] of Object.entries(node.properties)) {
        if (!GEMINI_PROPERTY_NAME.test(name)) out.push({ at: key(key(at, "properties"), name), message: `invalid property name "${name}" (must match ${GEMINI_PROPERTY_NAME})` });
        geminiNode(child, key(key(at, "properties"), name), out);
      }
    }
  }
  if ("required" in node) {
    const props = isObj(node.properties) ? node.properties : {};
    if (!Array.isArray(node.required)) out.push({ at: key(at, "required"), message: "required must be an array of property names" });
    else {
      node.required.forEach((name, i) => {
        if (typeof name !== "string" || !(name in props)) out.push({ at: `${key(at, "required")}[${i}]`, message: `property is not defined: ${JSON.stringify(name)}` });
      });
    }
  }
  if ("items" in node) geminiNode(node.items, key(at, "items"), out);
  for (const name of ["minimum", "maximum"]) {
    if (name in node && typeof node[name] !== "number") out.push({ at: key(at, name), message: `${name} must be a number` });
  }
  for (const name of ["minItems", "maxItems", "minLength", "maxLength", "minProperties", "maxProperties"]) {
    if (!(name in node)) continue;
    const value = node[name];
    // int64 fields: a number or a decimal string on the wire.
    if (!(Number.isInteger(value) || (typeof value === "string" && /^\d+$/.test(value)))) out.push({ at: key(at, name), message: `${name} must be an integer` });
  }
  if ("propertyOrdering" in node && (!Array.isArray(node.propertyOrdering) || node.propertyOrdering.some((p) => typeof p !== "string"))) {
    out.push({ at: key(at, "propertyOrdering"), message: "propertyOrdering must be an array of strings" });
  }
}

const GEMINI_DECLARATION_KEYS = new Set(["name", "description", "parameters", "parametersJsonSchema"]);

/** Gemini `tools` (the request's `tools`, or `config.tools`): ONE functionDeclarations wrapper. */
export function checkGeminiTools(tools: unknown, at = "tools"): Violation[] {
  const out: Violation[] = [];
  if (!Array.isArray(tools)) return [{ at, message: "tools must be an array" }];
  const wrappers = tools.filter((tool) => isObj(tool) && "functionDeclarations" in tool);
  if (wrappers.length !== 1) {
    out.push({ at, message: `expected exactly one tool with functionDeclarations (one wrapper holds every function), found ${wrappers.length}` });
  }
  tools.forEach((tool, t) => {
    const toolAt = `${at}[${t}]`;
    if (!isObj(tool)) {
      out.push({ at: toolAt, message: "a tool must be an object" });
      return;
    }
    if (!("functionDeclarations" in tool)) return;
    if (!Array.isArray(tool.functionDeclarations)) {
      out.push({ at: key(toolAt, "functionDeclarations"), message: "functionDeclarations must be an array" });
      return;
    }
    tool.functionDeclarations.forEach((declaration, d) => {
      const dAt = `${key(toolAt, "functionDeclarations")}[${d}]`;
      if (!isObj(declaration)) {
        out.push({ at: dAt, message: "a function declaration must be an object" });
        return;
      }
      checkAllowedKeys(declaration, GEMINI_DECLARATION_KEYS, dAt, out, "FunctionDeclaration");
      checkName("gemini", declaration.name, key(dAt, "name"), out);
      if ("description" in declaration && typeof declaration.description !== "string") out.push({ at: key(dAt, "description"), message: "description must be a string" });
      if ("parameters" in declaration && "parametersJsonSchema" in declaration) {
        out.push({ at: dAt, message: "parameters and parametersJsonSchema are mutually exclusive" });
      }
      if ("parameters" in declaration) out.push(...checkGeminiSchema(declaration.parameters, key(dAt, "parameters")));
      if ("parametersJsonSchema" in declaration && !isObj(declaration.parametersJsonSchema)) {
        out.push({ at: key(dAt, "parametersJsonSchema"), message: "parametersJsonSchema must be a JSON Schema object" });
      }
    });
  });
  return out;
}

// ---- OpenAI (Chat Completions and Responses) --------------------------------------------------

/** providers.md, "OpenAI strict mode": not allowed anywhere in a strict schema. */
export const OPENAI_STRICT_FORBIDDEN: ReadonlySet<string> = new Set([
  "allOf", "not", "if", "then", "else", "dependentRequired", "dependentSchemas", "patternProperties",
  "propertyNames", "prefixItems", "contains", "minProperties", "maxProperties", "uniqueItems",
  "unevaluatedProperties", "unevaluatedItems",
]);

/**
 * String formats strict mode takes (OpenAI's structured-outputs guide). Not in providers.md:
 * added from a user bug report, where strict mode answered 400
 * "Invalid schema for function '…': In context=('properties', 'url'), 'uri' is not a valid format."
 * (github.com/can1357/oh-my-pi/issues/206).
 */
export const OPENAI_STRICT_FORMATS: ReadonlySet<string> = new Set([
  "date-time", "time", "date", "duration", "email", "hostname", "ipv4", "ipv6", "uuid",
]);

function hasType(node: Obj, name: string): boolean {
  return node.type === name || (Array.isArray(node.type) && node.type.includes(name));
}

/** The `parameters` of a strict function (`strict: true`). */
export function checkOpenAIStrictSchema(schema: unknown, at = "parameters"): Violation[] {
  const out: Violation[] = [];
  if (!isObj(schema)) return [{ at, message: "parameters must be a JSON Schema object" }];
  if (schema.type !== "object") out.push({ at: key(at, "type"), message: `schema must be a JSON Schema of 'type: "object"', got 'type: ${JSON.stringify(schema.type)}'` });
  for (const union of ["anyOf", "oneOf"]) {
    if (union in schema) out.push({ at: key(at, union), message: `the root must be an object, not a union (${union})` });
  }
  strictNode(schema, at, out);
  return out;
}

function strictNode(node: unknown, at: string, out: Violation[]): void {
  if (typeof node === "boolean") {
    out.push({ at, message: `a boolean schema (${node}) is not allowed in strict mode` });
    return;
  }
  if (!isObj(node)) {
    out.push({ at, message: "a schema must be an object" });
    return;
  }
  for (const name of Object.keys(node)) {
    if (OPENAI_STRICT_FORBIDDEN.has(name)) out.push({ at: key(at, name), message: `'${name}' is not permitted in strict mode` });
  }
  if (typeof node.format === "string" && !OPENAI_STRICT_FORMATS.has(node.format)) {
    out.push({ at: key(at, "format"), message: `'${node.format}' is not a valid format` });
  }
  if (hasType(node, "object") || ("properties" in node && !("$ref" in node))) {
    const properties = isObj(node.properties) ? node.properties : {};
    if (node.additionalProperties !== false) {
      out.push({ at: key(at, "additionalProperties"), message: "'additionalProperties' is required to be supplied and to be false" });
    }
    const required = Array.isArray(node.required) ? node.required : [];
    const missing = Object.keys(properties).filter((name) => !required.includes(name));
    if (missing.length > 0) {
      out.push({ at: key(at, "required"), message: `'required' is required to be supplied and to be an array including every key in properties. Missing ${missing.map((m) => `'${m}'`).join(", ")}` });
    }
    const extra = required.filter((name) => typeof name !== "string" || !(name in properties));
    if (extra.length > 0) out.push({ at: key(at, "required"), message: `'required' names keys that are not in properties: ${JSON.stringify(extra)}` });
    for (const [name, child] of Object.entries(properties)) strictNode(child, key(key(at, "properties"), name), out);
  }
  if ("items" in node) {
    if (Array.isArray(node.items)) out.push({ at: key(at, "items"), message: "tuple 'items' (an array) is not permitted in strict mode" });
    else strictNode(node.items, key(at, "items"), out);
  }
  for (const union of ["anyOf", "oneOf"]) {
    if (Array.isArray(node[union])) (node[union] as unknown[]).forEach((branch, i) => strictNode(branch, `${key(at, union)}[${i}]`, out));
  }
  for (const defs of ["$defs", "definitions"]) {
    if (isObj(node[defs])) for (const [name, def] of Object.entries(node[defs] as Obj)) strictNode(def, key(key(at, defs), name), out);
  }
}

/** Non-strict parameters: still an object schema at the root. */
function checkOpenAIParameters(parameters: unknown, strict: unknown, at: string, out: Violation[]): void {
  if (strict === true) {
    out.push(...checkOpenAIStrictSchema(parameters, at));
    return;
  }
  if (parameters === undefined) return;
  if (!isObj(parameters)) out.push({ at, message: "parameters must be a JSON Schema object" });
  else if (parameters.type !== "object") out.push({ at: key(at, "type"), message: `schema must be a JSON Schema of 'type: "object"', got 'type: ${JSON.stringify(parameters.type)}'` });
}

/** Chat Completions `tools`. Strict rules apply where `function.strict === true`. */
export function checkOpenAIChatTools(tools: unknown, at = "tools"): Violation[] {
  if (!Array.isArray(tools)) return [{ at, message: "tools must be an array" }];
  const out: Violation[] = [];
  tools.forEach((tool, i) => {
    const tAt = `${at}[${i}]`;
    if (!isObj(tool) || tool.type !== "function" || !isObj(tool.function)) {
      out.push({ at: tAt, message: "expected { type: \"function\", function: { name, description, parameters, strict? } }" });
      return;
    }
    const fn = tool.function;
    const fAt = key(tAt, "function");
    checkAllowedKeys(fn, new Set(["name", "description", "parameters", "strict"]), fAt, out, "function");
    checkName("openai", fn.name, key(fAt, "name"), out);
    if ("strict" in fn && typeof fn.strict !== "boolean" && fn.strict !== null) out.push({ at: key(fAt, "strict"), message: "strict must be a boolean" });
    checkOpenAIParameters(fn.parameters, fn.strict, key(fAt, "parameters"), out);
  });
  return out;
}

/** Responses API `tools` (flat). `strict` must be sent explicitly (a missing one means "try strict"). */
export function checkOpenAIResponsesTools(tools: unknown, at = "tools"): Violation[] {
  if (!Array.isArray(tools)) return [{ at, message: "tools must be an array" }];
  const out: Violation[] = [];
  tools.forEach((tool, i) => {
    const tAt = `${at}[${i}]`;
    if (!isObj(tool) || tool.type !== "function") {
      out.push({ at: tAt, message: "expected { type: \"function\", name, description, parameters, strict }" });
      return;
    }
    checkAllowedKeys(tool, new Set(["type", "name", "description", "parameters", "strict"]), tAt, out, "function tool");
    checkName("openai", tool.name, key(tAt, "name"), out);
    if (typeof tool.strict !== "boolean") {
      out.push({ at: key(tAt, "strict"), message: `strict must be sent as a boolean (got ${JSON.stringify(tool.strict)}); without it the Responses API tries strict mode` });
    }
    checkOpenAIParameters(tool.parameters, tool.strict, key(tAt, "parameters"), out);
  });
  return out;
}

// ---- Anthropic, MCP, Bedrock ------------------------------------------------------------------

const ROOT_COMBINATORS = ["anyOf", "oneOf", "allOf"];

function checkObjectRoot(schema: unknown, at: string, out: Violation[]): void {
  if (!isObj(schema)) {
    out.push({ at, message: "must be a JSON Schema object" });
    return;
  }
  if (schema.type !== "object") out.push({ at: key(at, "type"), message: `Input should be 'object', got ${JSON.stringify(schema.type)}` });
  for (const combinator of ROOT_COMBINATORS) {
    if (combinator in schema) out.push({ at: key(at, combinator), message: `input_schema does not support ${combinator} at the top level` });
  }
}

/** Anthropic Messages `tools` (custom tools). */
export function checkAnthropicTools(tools: unknown, at = "tools"): Violation[] {
  if (!Array.isArray(tools)) return [{ at, message: "tools must be an array" }];
  const out: Violation[] = [];
  tools.forEach((tool, i) => {
    const tAt = `${at}[${i}]`;
    if (!isObj(tool)) {
      out.push({ at: tAt, message: "a tool must be an object" });
      return;
    }
    for (const name of Object.keys(tool)) {
      if (!["name", "description", "input_schema", "cache_control", "type"].includes(name)) out.push({ at: key(tAt, name), message: "Extra inputs are not permitted" });
    }
    if ("type" in tool && tool.type !== "custom") out.push({ at: key(tAt, "type"), message: `only custom tools are checked here, got ${JSON.stringify(tool.type)}` });
    checkName("anthropic", tool.name, key(tAt, "name"), out);
    if ("description" in tool && typeof tool.description !== "string") out.push({ at: key(tAt, "description"), message: "description must be a string" });
    if (!("input_schema" in tool)) out.push({ at: key(tAt, "input_schema"), message: "Field required" });
    else checkObjectRoot(tool.input_schema, key(tAt, "input_schema"), out);
  });
  return out;
}

const MCP_ANNOTATIONS = new Set(["title", "readOnlyHint", "destructiveHint", "idempotentHint", "openWorldHint"]);

/** MCP `tools/list` result's `tools`. */
export function checkMcpTools(tools: unknown, at = "tools"): Violation[] {
  if (!Array.isArray(tools)) return [{ at, message: "tools must be an array" }];
  const out: Violation[] = [];
  tools.forEach((tool, i) => {
    const tAt = `${at}[${i}]`;
    if (!isObj(tool)) {
      out.push({ at: tAt, message: "a tool must be an object" });
      return;
    }
    checkAllowedKeys(tool, new Set(["name", "title", "description", "inputSchema", "outputSchema", "annotations"]), tAt, out, "Tool");
    checkName("mcp", tool.name, key(tAt, "name"), out);
    if (!isObj(tool.inputSchema) || tool.inputSchema.type !== "object") out.push({ at: key(tAt, "inputSchema"), message: 'inputSchema must be an object schema (type "object")' });
    if ("annotations" in tool) {
      if (!isObj(tool.annotations)) out.push({ at: key(tAt, "annotations"), message: "annotations must be an object" });
      else {
        for (const [name, value] of Object.entries(tool.annotations)) {
          if (!MCP_ANNOTATIONS.has(name)) out.push({ at: key(key(tAt, "annotations"), name), message: "unknown annotation" });
          else if (name !== "title" && typeof value !== "boolean") out.push({ at: key(key(tAt, "annotations"), name), message: "a hint must be a boolean" });
        }
      }
    }
  });
  return out;
}

/** Bedrock Converse `toolConfig`. */
export function checkBedrockToolConfig(config: unknown, at = "toolConfig"): Violation[] {
  if (!isObj(config) || !Array.isArray(config.tools)) return [{ at, message: "toolConfig must be { tools: [...] }" }];
  const out: Violation[] = [];
  config.tools.forEach((tool, i) => {
    const tAt = `${key(at, "tools")}[${i}]`;
    if (!isObj(tool) || !isObj(tool.toolSpec)) {
      out.push({ at: tAt, message: "expected { toolSpec: { name, description, inputSchema: { json } } }" });
      return;
    }
    const spec = tool.toolSpec;
    const sAt = key(tAt, "toolSpec");
    checkAllowedKeys(spec, new Set(["name", "description", "inputSchema"]), sAt, out, "ToolSpecification");
    checkName("bedrock", spec.name, key(sAt, "name"), out);
    if (!isObj(spec.inputSchema) || !("json" in spec.inputSchema)) out.push({ at: key(sAt, "inputSchema"), message: "inputSchema must be { json: <JSON Schema> }" });
    else checkObjectRoot(spec.inputSchema.json, key(key(sAt, "inputSchema"), "json"), out);
  });
  return out;
}

// ---- Tool results sent back -------------------------------------------------------------------

/**
 * Gemini `contents`: every model turn with functionCall parts is followed by ONE user turn
 * whose parts are all functionResponse, one per call, same order and names; `response` holds
 * `output` or `error`; an `id` is echoed exactly when the call had one.
 */
export function checkGeminiToolResults(contents: unknown, at = "contents"): Violation[] {
  if (!Array.isArray(contents)) return [{ at, message: "contents must be an array" }];
  const out: Violation[] = [];
  contents.forEach((content, i) => {
    const cAt = `${at}[${i}]`;
    if (!isObj(content) || !Array.isArray(content.parts)) {
      out.push({ at: cAt, message: "a content must be { role, parts: [...] }" });
      return;
    }
    const parts = content.parts as unknown[];
    const responses = parts.filter((p) => isObj(p) && "functionResponse" in p);
    if (responses.length > 0) {
      if (content.role !== "user") out.push({ at: key(cAt, "role"), message: `functionResponse parts belong in a "user" content, got ${JSON.stringify(content.role)}` });
      if (responses.length !== parts.length) out.push({ at: key(cAt, "parts"), message: "a function response turn must contain only functionResponse parts" });
      const previous = contents[i - 1];
      const calls = isObj(previous) && Array.isArray(previous.parts) ? (previous.parts as unknown[]).filter((p) => isObj(p) && "functionCall" in p) : [];
      if (calls.length === 0) out.push({ at: cAt, message: "function response turn must come immediately after a function call turn" });
      else if (calls.length !== responses.length) {
        out.push({ at: cAt, message: `Please ensure that the number of function response parts (${responses.length}) is equal to the number of function call parts (${calls.length}) of the function call turn.` });
      }
      responses.forEach((part, p) => {
        const rAt = `${key(cAt, "parts")}[${p}].functionResponse`;
        const fr = (part as Obj).functionResponse;
        if (!isObj(fr)) {
          out.push({ at: rAt, message: "functionResponse must be an object" });
          return;
        }
        const call = isObj(calls[p]) ? ((calls[p] as Obj).functionCall as Obj | undefined) : undefined;
        if (typeof fr.name !== "string") out.push({ at: key(rAt, "name"), message: "name is required" });
        else if (call && call.name !== fr.name) out.push({ at: key(rAt, "name"), message: `expected the response for "${String(call.name)}", got "${fr.name}"` });
        if (call && call.id !== undefined && fr.id !== call.id) out.push({ at: key(rAt, "id"), message: `expected id ${JSON.stringify(call.id)} (the call's id), got ${JSON.stringify(fr.id)}` });
        if (call && call.id === undefined && fr.id !== undefined) out.push({ at: key(rAt, "id"), message: "the call had no id; do not send one" });
        const response = fr.response;
        if (!isObj(response)) out.push({ at: key(rAt, "response"), message: "response must be an object (a Struct)" });
        else {
          const keys = Object.keys(response);
          if (!(keys.length === 1 && (keys[0] === "output" || keys[0] === "error"))) {
            out.push({ at: key(rAt, "response"), message: `response must be { output } or { error }, got keys [${keys.join(", ")}]` });
          }
        }
      });
    }
    const next = contents[i + 1];
    const hasCalls = parts.some((p) => isObj(p) && "functionCall" in p);
    if (hasCalls && next !== undefined && !(isObj(next) && Array.isArray(next.parts) && (next.parts as unknown[]).some((p) => isObj(p) && "functionResponse" in p))) {
      out.push({ at: `${at}[${i + 1}]`, message: "a function call turn must be followed by its function response turn" });
    }
  });
  return out;
}

function toolCallIdsOf(message: Obj): string[] {
  return Array.isArray(message.tool_calls) ? (message.tool_calls as unknown[]).map((c) => (isObj(c) ? String(c.id) : "")) : [];
}

/** Chat Completions `messages`: an assistant message with tool_calls is followed by one `tool` message per call id. */
export function checkOpenAIChatToolResults(messages: unknown, at = "messages"): Violation[] {
  if (!Array.isArray(messages)) return [{ at, message: "messages must be an array" }];
  const out: Violation[] = [];
  let pending: string[] = [];
  let answered = new Set<string>();
  const closeTurn = (index: number) => {
    const missing = pending.filter((id) => !answered.has(id));
    if (missing.length > 0) {
      out.push({
        at: `${at}.[${index}].role`,
        message: `An assistant message with 'tool_calls' must be followed by tool messages responding to each 'tool_call_id'. The following tool_call_ids did not have response messages: ${missing.join(", ")}`,
      });
    }
    pending = [];
    answered = new Set();
  };
  messages.forEach((message, i) => {
    if (!isObj(message)) {
      out.push({ at: `${at}.[${i}]`, message: "a message must be an object" });
      return;
    }
    if (message.role === "tool") {
      if (pending.length === 0) {
        out.push({ at: `${at}.[${i}].role`, message: "messages with role 'tool' must be a response to a preceeding message with 'tool_calls'." });
        return;
      }
      const id = message.tool_call_id;
      if (typeof id !== "string" || !pending.includes(id)) out.push({ at: `${at}.[${i}].tool_call_id`, message: `Invalid parameter: tool_call_id ${JSON.stringify(id)} matches no tool call of the preceding assistant message` });
      else if (answered.has(id)) out.push({ at: `${at}.[${i}].tool_call_id`, message: `duplicate tool message for ${id}` });
      else answered.add(id);
      const content = message.content;
      const textParts = Array.isArray(content) && content.every((p) => isObj(p) && p.type === "text" && typeof p.text === "string");
      if (typeof content !== "string" && !textParts) out.push({ at: `${at}.[${i}].content`, message: "tool message content must be a string or text parts" });
      return;
    }
    if (pending.length > 0) closeTurn(i);
    if (message.role === "assistant") pending = toolCallIdsOf(message);
  });
  if (pending.length > 0) closeTurn(messages.length);
  return out;
}

/** Responses `input`: every function_call_output answers a function_call in the input, and every call has its output. */
export function checkOpenAIResponsesToolResults(input: unknown, at = "input"): Violation[] {
  if (typeof input === "string") return [];
  if (!Array.isArray(input)) return [{ at, message: "input must be a string or an array of items" }];
  const out: Violation[] = [];
  const calls = new Map<string, number>();
  const outputs = new Set<string>();
  input.forEach((item, i) => {
    if (!isObj(item)) return;
    if (item.type === "function_call") {
      if (typeof item.call_id !== "string") out.push({ at: `${at}[${i}].call_id`, message: "call_id is required" });
      else calls.set(item.call_id, i);
    }
  });
  input.forEach((item, i) => {
    if (!isObj(item) || item.type !== "function_call_output") return;
    const id = item.call_id;
    if (typeof id !== "string" || !calls.has(id)) out.push({ at: `${at}[${i}].call_id`, message: `No tool call found for function call output with call_id ${String(id)}.` });
    else if (calls.get(id)! > i) out.push({ at: `${at}[${i}]`, message: `function_call_output for ${id} comes before its function_call` });
    if (typeof id === "string") {
      if (outputs.has(id)) out.push({ at: `${at}[${i}].call_id`, message: `Duplicate function_call_output for call_id ${id}.` });
      outputs.add(id);
    }
    const output = item.output;
    const parts = Array.isArray(output) && output.every((p) => isObj(p) && typeof p.type === "string");
    if (typeof output !== "string" && !parts) out.push({ at: `${at}[${i}].output`, message: "output must be a string or an array of content parts" });
  });
  for (const [id] of calls) if (!outputs.has(id)) out.push({ at, message: `No tool output found for function call ${id}.` });
  return out;
}

/** Anthropic `messages`: the user message right after a tool_use turn answers every tool_use id with tool_result blocks, first. */
export function checkAnthropicToolResults(messages: unknown, at = "messages"): Violation[] {
  if (!Array.isArray(messages)) return [{ at, message: "messages must be an array" }];
  const out: Violation[] = [];
  const blocksOf = (message: unknown): Obj[] =>
    isObj(message) && Array.isArray(message.content) ? (message.content as unknown[]).filter(isObj) : [];
  messages.forEach((message, i) => {
    if (!isObj(message)) return;
    const blocks = blocksOf(message);
    const results = blocks.filter((b) => b.type === "tool_result");
    if (message.role === "assistant") {
      const ids = blocks.filter((b) => b.type === "tool_use").map((b) => String(b.id));
      if (ids.length === 0) return;
      const next = messages[i + 1];
      if (next === undefined) return; // the turn being answered is not in this request
      const answered = new Set(blocksOf(next).filter((b) => b.type === "tool_result").map((b) => String(b.tool_use_id)));
      const missing = ids.filter((id) => !answered.has(id));
      if (!isObj(next) || next.role !== "user" || missing.length > 0) {
        out.push({
          at: `${at}.${i}`,
          message: `\`tool_use\` ids were found without \`tool_result\` blocks immediately after: ${missing.join(", ")}. Each \`tool_use\` block must have a corresponding \`tool_result\` block in the next message.`,
        });
      }
      return;
    }
    if (results.length === 0) return;
    if (message.role !== "user") out.push({ at: `${at}.${i}.role`, message: "tool_result blocks belong in a user message" });
    const firstOther = blocks.findIndex((b) => b.type !== "tool_result");
    if (firstOther !== -1 && firstOther < results.length) out.push({ at: `${at}.${i}.content`, message: "tool_result blocks must come first in the user message content" });
    const previous = messages[i - 1];
    const useIds = new Set(blocksOf(previous).filter((b) => b.type === "tool_use").map((b) => String(b.id)));
    const seen = new Set<string>();
    results.forEach((block, b) => {
      const bAt = `${at}.${i}.content.${b}`;
      const id = String(block.tool_use_id);
      if (!useIds.has(id)) {
        out.push({ at: bAt, message: `unexpected \`tool_use_id\` found in \`tool_result\` blocks: ${id}. Each \`tool_result\` block must have a corresponding \`tool_use\` block in the previous message.` });
      }
      if (seen.has(id)) out.push({ at: bAt, message: `duplicate tool_result for ${id}` });
      seen.add(id);
      if ("is_error" in block && typeof block.is_error !== "boolean") out.push({ at: `${bAt}.is_error`, message: "is_error must be a boolean" });
      const content = block.content;
      const textBlocks = Array.isArray(content) && content.every((c) => isObj(c) && typeof c.type === "string");
      if (content !== undefined && typeof content !== "string" && !textBlocks) out.push({ at: `${bAt}.content`, message: "content must be a string or an array of content blocks" });
    });
  });
  return out;
}
