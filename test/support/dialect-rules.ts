/**
 * What each provider's API refuses, as pure checkers: input in, list of violations out
 * (empty = the provider would accept it). Used by the dialect tests on toolnexus' output and
 * by the mock provider server, which answers 400 when a checker finds anything.
 *
 * Sources: the providers' documented rules, the official SDK types and code in
 * node_modules (@google/genai `Schema`, the openai SDK's strict transform `toStrictJsonSchema`,
 * @anthropic-ai/sdk `Tool`, the MCP SDK's zod `ToolSchema`), OpenAI's structured-outputs guide
 * ("Supported schemas"), and the providers' own error texts where the rule comes from a bug
 * report (noted at the rule). Checkers never throw on odd input: odd input is a violation.
 */
import { ToolSchema } from "@modelcontextprotocol/sdk/types.js";

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
  return /^[A-Za-z_$][A-Za-z0-9_$]*$/.test(name)
    ? path
      ? `${path}.${name}`
      : name
    : `${path}[${JSON.stringify(name)}]`;
}

// ---- Names ----------------------------------------------------------------------------------

/** The providers' documented tool-name rules. */
export const NAME_PATTERNS = {
  gemini: /^[A-Za-z_][A-Za-z0-9_.:-]{0,127}$/,
  openai: /^[a-zA-Z0-9_-]{1,64}$/,
  anthropic: /^[a-zA-Z0-9_-]{1,128}$/,
  mcp: /^[A-Za-z0-9._-]{1,128}$/,
  bedrock: /^[a-zA-Z0-9_-]{1,64}$/,
  // Ollama documents no rule (its Go struct takes any string): toolnexus holds it to the portable one.
  ollama: /^[a-zA-Z0-9_-]{1,64}$/,
} as const;

function checkName(provider: keyof typeof NAME_PATTERNS, name: unknown, at: string, out: Violation[]): void {
  if (typeof name !== "string") out.push({ at, message: `name must be a string, got ${JSON.stringify(name)}` });
  else if (!NAME_PATTERNS[provider].test(name))
    out.push({ at, message: `invalid ${provider} function name "${name}" (must match ${NAME_PATTERNS[provider]})` });
}

function checkAllowedKeys(node: Obj, allowed: ReadonlySet<string>, at: string, out: Violation[], what: string): void {
  for (const name of Object.keys(node)) {
    if (!allowed.has(name))
      out.push({ at: key(at, name), message: `Unknown name "${name}" in ${what}: Cannot find field.` });
  }
}

// ---- Gemini ---------------------------------------------------------------------------------

/** Gemini's `parameters` dialect (an OpenAPI 3.0 subset): the same fields as @google/genai's `Schema`. */
export const GEMINI_SCHEMA_KEYS: ReadonlySet<string> = new Set([
  "type",
  "format",
  "title",
  "description",
  "nullable",
  "enum",
  "items",
  "properties",
  "required",
  "propertyOrdering",
  "anyOf",
  "default",
  "example",
  "minimum",
  "maximum",
  "minItems",
  "maxItems",
  "minLength",
  "maxLength",
  "minProperties",
  "maxProperties",
  "pattern",
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

/**
 * A Gemini `Schema`, any node (use `checkGeminiParameters` for a declaration's `parameters`,
 * which adds the root rule). Rules, each as the API words its 400 where users reported one:
 * - unknown fields: `Unknown name "x" … Cannot find field.`;
 * - every node has a `type` (Gemini 3 refuses TYPE_UNSPECIFIED, github.com/UKGovernmentBEIS/inspect_ai/pull/3097;
 *   older models answer `Invalid value at '….type' … ""`), except a node holding only `anyOf`,
 *   which must be alone on its node;
 * - `enum`: a non-empty array of non-empty strings, on a STRING node only (`enum: only allowed for
 *   STRING type`, github.com/decolua/9router/issues/359, also when the node has no type).
 *   Note: @google/genai's doc comment on `Schema.enum` shows `{type: INTEGER, format: enum}`;
 *   users report the API refusing enum on non-STRING nodes, so this checker refuses it;
 * - every ARRAY has `items` (`items: missing field`, github.com/AstrBotDevs/AstrBot/issues/6029),
 *   and `items` is ONE schema (`Schema.items?: Schema`), never a tuple or a boolean;
 * - boolean schemas (`true`/`false`) anywhere: `Schema` is a message, not a JSON Schema;
 * - `properties` non-empty (`should be non-empty for OBJECT type`), property names, every
 *   `required` name defined (`property is not defined`), `nullable` a boolean.
 */
export function checkGeminiSchema(schema: unknown, at = "parameters"): Violation[] {
  const out: Violation[] = [];
  geminiNode(schema, at, out, false);
  return out;
}

/**
 * A function declaration's `parameters`: a Gemini `Schema` (see `checkGeminiSchema`) whose root
 * is `type: OBJECT` (either case). Vertex: "functionDeclaration parameters schema should be of
 * type OBJECT" (github.com/diegosouzapw/OmniRoute/pull/3360).
 */
export function checkGeminiParameters(schema: unknown, at = "parameters"): Violation[] {
  const out: Violation[] = [];
  geminiNode(schema, at, out, true);
  return out;
}

function geminiNode(node: unknown, at: string, out: Violation[], parametersRoot: boolean): void {
  if (typeof node === "boolean") {
    out.push({ at, message: `a boolean schema (${node}) is not a Gemini Schema: write an object with a type` });
    return;
  }
  if (!isObj(node)) {
    out.push({ at, message: `a schema must be an object, got ${JSON.stringify(node)}` });
    return;
  }
  for (const name of Object.keys(node)) {
    if (GEMINI_SCHEMA_KEYS.has(name)) continue;
    const hint =
      name === "$ref" || name === "$defs" || name === "definitions"
        ? " (references are not supported: inline them)"
        : "";
    out.push({
      at: key(at, name),
      message: `Invalid JSON payload received. Unknown name "${name}": Cannot find field.${hint}`,
    });
  }
  let type: string | undefined;
  if ("type" in node) {
    if (typeof node.type !== "string")
      out.push({ at: key(at, "type"), message: `type must be a single string, got ${JSON.stringify(node.type)}` });
    else if (!GEMINI_TYPES.has(node.type.toUpperCase()))
      out.push({ at: key(at, "type"), message: `invalid type ${JSON.stringify(node.type)}` });
    else type = node.type.toUpperCase();
  }
  if (parametersRoot) {
    // An invalid type is reported above; a missing or other valid one breaks the root rule.
    if (!("type" in node) || (type !== undefined && type !== "OBJECT")) {
      out.push({
        at: key(at, "type"),
        message: `parameters schema should be of type OBJECT, got ${"type" in node ? JSON.stringify(node.type) : "no type"}`,
      });
    }
  } else if (!("type" in node) && !("anyOf" in node)) {
    out.push({
      at: key(at, "type"),
      message:
        "missing field type: every schema needs a type (TYPE_UNSPECIFIED is refused); only a schema holding just anyOf may leave it out",
    });
  }
  if ("nullable" in node && typeof node.nullable !== "boolean")
    out.push({ at: key(at, "nullable"), message: "nullable must be a boolean" });
  if ("enum" in node) {
    const values = node.enum;
    if (!Array.isArray(values) || values.length === 0) {
      out.push({
        at: key(at, "enum"),
        message: `enum must be a non-empty array of strings, got ${JSON.stringify(values)}`,
      });
    } else if (values.some((v) => typeof v !== "string")) {
      out.push({ at: key(at, "enum"), message: `enum values must be strings, got ${JSON.stringify(values)}` });
    } else if (values.some((v) => v === "")) {
      out.push({ at: key(at, "enum"), message: "enum values must be non-empty strings" });
    }
    if (type !== "STRING" && !(type === undefined && "type" in node)) {
      out.push({ at: key(at, "enum"), message: `enum: only allowed for STRING type, got ${type ?? "no type"}` });
    }
  }
  if ("format" in node && type !== undefined) {
    const allowed = GEMINI_FORMATS[type] ?? [];
    if (!allowed.includes(node.format as string)) {
      out.push({
        at: key(at, "format"),
        message: `format ${JSON.stringify(node.format)} is not supported for ${type} (supported: ${allowed.join(", ") || "none"})`,
      });
    }
  }
  if ("anyOf" in node) {
    if (!Array.isArray(node.anyOf) || node.anyOf.length === 0)
      out.push({ at: key(at, "anyOf"), message: "anyOf must be a non-empty array of schemas" });
    else {
      const siblings = Object.keys(node).filter((k) => k !== "anyOf");
      if (siblings.length > 0)
        out.push({ at, message: `anyOf must be the only field set on its schema, found also: ${siblings.join(", ")}` });
      node.anyOf.forEach((branch, i) => geminiNode(branch, `${key(at, "anyOf")}[${i}]`, out, false));
    }
  }
  if ("properties" in node) {
    if (!isObj(node.properties))
      out.push({ at: key(at, "properties"), message: "properties must be a map of schemas" });
    else {
      if (Object.keys(node.properties).length === 0) {
        out.push({ at: key(at, "properties"), message: "should be non-empty for OBJECT type" });
      }
      for (const [name, child] of Object.entries(node.properties)) {
        if (!GEMINI_PROPERTY_NAME.test(name))
          out.push({
            at: key(key(at, "properties"), name),
            message: `invalid property name "${name}" (must match ${GEMINI_PROPERTY_NAME})`,
          });
        geminiNode(child, key(key(at, "properties"), name), out, false);
      }
    }
  }
  if ("required" in node) {
    const props = isObj(node.properties) ? node.properties : {};
    if (!Array.isArray(node.required))
      out.push({ at: key(at, "required"), message: "required must be an array of property names" });
    else {
      node.required.forEach((name, i) => {
        if (typeof name !== "string" || !(name in props))
          out.push({ at: `${key(at, "required")}[${i}]`, message: `property is not defined: ${JSON.stringify(name)}` });
      });
    }
  }
  if ("items" in node) {
    if (Array.isArray(node.items))
      out.push({ at: key(at, "items"), message: "items must be a single schema (tuple items are not supported)" });
    else geminiNode(node.items, key(at, "items"), out, false);
  } else if (type === "ARRAY") {
    out.push({ at: key(at, "items"), message: "items: missing field (every ARRAY needs items)" });
  }
  for (const name of ["minimum", "maximum"]) {
    if (name in node && typeof node[name] !== "number")
      out.push({ at: key(at, name), message: `${name} must be a number` });
  }
  for (const name of ["minItems", "maxItems", "minLength", "maxLength", "minProperties", "maxProperties"]) {
    if (!(name in node)) continue;
    const value = node[name];
    // int64 fields: a number or a decimal string on the wire.
    if (!(Number.isInteger(value) || (typeof value === "string" && /^\d+$/.test(value))))
      out.push({ at: key(at, name), message: `${name} must be an integer` });
  }
  if (
    "propertyOrdering" in node &&
    (!Array.isArray(node.propertyOrdering) || node.propertyOrdering.some((p) => typeof p !== "string"))
  ) {
    out.push({ at: key(at, "propertyOrdering"), message: "propertyOrdering must be an array of strings" });
  }
}

/**
 * A Gemini `Schema` as the standard JSON Schema that accepts the same values, so a test can
 * validate a value against a lowered schema with Ajv: lower-case `type`; `nullable: true` →
 * `type: [t, "null"]` (and `null` joins an `enum`); int64 strings (`minItems: "2"`) → numbers;
 * `format: "enum"`, `propertyOrdering`, `example` and `nullable` dropped; other formats kept
 * (Ajv needs ajv-formats for them); `anyOf`, `items`, `properties` converted recursively.
 * Gemini objects do not forbid extra properties, so no `additionalProperties` is added.
 * Fields that are not `Schema` fields are dropped (`checkGeminiSchema` reports them).
 * Throws a TypeError when `schema` is not an object.
 */
export function geminiSchemaToJsonSchema(schema: unknown): Record<string, unknown> {
  if (!isObj(schema)) throw new TypeError(`a Gemini Schema must be an object, got ${JSON.stringify(schema)}`);
  return geminiToJson(schema) as Record<string, unknown>;
}

function geminiToJson(node: unknown): unknown {
  if (!isObj(node)) return node;
  const nullable = node.nullable === true;
  const out: Obj = {};
  for (const [name, value] of Object.entries(node)) {
    switch (name) {
      case "type": {
        const type = typeof value === "string" ? value.toLowerCase() : value;
        out.type = nullable && typeof type === "string" && type !== "null" ? [type, "null"] : type;
        break;
      }
      case "enum":
        out.enum = nullable && Array.isArray(value) && !value.includes(null) ? [...value, null] : value;
        break;
      case "format":
        if (value !== "enum") out.format = value;
        break;
      case "properties":
        out.properties = isObj(value)
          ? Object.fromEntries(Object.entries(value).map(([k, v]) => [k, geminiToJson(v)]))
          : value;
        break;
      case "items":
        out.items = geminiToJson(value);
        break;
      case "anyOf":
        out.anyOf = Array.isArray(value) ? value.map(geminiToJson) : value;
        break;
      case "minItems":
      case "maxItems":
      case "minLength":
      case "maxLength":
      case "minProperties":
      case "maxProperties":
        out[name] = typeof value === "string" && /^\d+$/.test(value) ? Number(value) : value;
        break;
      case "title":
      case "description":
      case "default":
      case "required":
      case "minimum":
      case "maximum":
      case "pattern":
        out[name] = value;
        break;
      default:
        // nullable (folded into type), propertyOrdering, example, and non-Schema fields.
        break;
    }
  }
  return out;
}

const GEMINI_DECLARATION_KEYS = new Set([
  "name",
  "description",
  "parameters",
  "parametersJsonSchema",
  "response",
  "responseJsonSchema",
]);

/** Gemini `tools` (the request's `tools`, or `config.tools`): ONE functionDeclarations wrapper. */
export function checkGeminiTools(tools: unknown, at = "tools"): Violation[] {
  const out: Violation[] = [];
  if (!Array.isArray(tools)) return [{ at, message: "tools must be an array" }];
  const wrappers = tools.filter((tool) => isObj(tool) && "functionDeclarations" in tool);
  if (wrappers.length !== 1) {
    out.push({
      at,
      message: `expected exactly one tool with functionDeclarations (one wrapper holds every function), found ${wrappers.length}`,
    });
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
      if ("description" in declaration && typeof declaration.description !== "string")
        out.push({ at: key(dAt, "description"), message: "description must be a string" });
      if ("parameters" in declaration && "parametersJsonSchema" in declaration) {
        out.push({ at: dAt, message: "parameters and parametersJsonSchema are mutually exclusive" });
      }
      if ("parameters" in declaration)
        out.push(...checkGeminiParameters(declaration.parameters, key(dAt, "parameters")));
      if ("parametersJsonSchema" in declaration && !isObj(declaration.parametersJsonSchema)) {
        out.push({
          at: key(dAt, "parametersJsonSchema"),
          message: "parametersJsonSchema must be a JSON Schema object",
        });
      }
      if ("response" in declaration && "responseJsonSchema" in declaration)
        out.push({ at: dAt, message: "response and responseJsonSchema are mutually exclusive" });
      if ("response" in declaration) out.push(...checkGeminiParameters(declaration.response, key(dAt, "response")));
      if ("responseJsonSchema" in declaration && !isObj(declaration.responseJsonSchema))
        out.push({ at: key(dAt, "responseJsonSchema"), message: "responseJsonSchema must be a JSON Schema object" });
    });
  });
  return out;
}

// ---- OpenAI (Chat Completions and Responses) --------------------------------------------------

/**
 * Not allowed anywhere in a strict schema. Sources:
 * - OpenAI's structured-outputs guide, "Some type-specific keywords are not yet supported":
 *   `allOf`, `not`, `dependentRequired`, `dependentSchemas`, `if`, `then`, `else`;
 * - outside the guide's supported subset, and refused before sending by the openai SDK's own
 *   strict transform (`toStrictJsonSchema`, its unsupported-keyword set): the rest below;
 * - `oneOf`: the API answers "In context=('properties', …), 'oneOf' is not permitted." (user
 *   reports, e.g. github.com/can1357/oh-my-pi/issues/920; github.com/openai/openai-node/pull/2602
 *   adds it to the SDK's set). At the root it is reported as a root union instead.
 * `$schema` and `$id` are allowed at the root only (`OPENAI_STRICT_ROOT_ONLY`): the SDK's own
 * zod helper sends `$schema` at the root of strict schemas, and its transform rejects a nested `$id`.
 */
export const OPENAI_STRICT_FORBIDDEN: ReadonlySet<string> = new Set([
  "allOf",
  "not",
  "if",
  "then",
  "else",
  "dependentRequired",
  "dependentSchemas",
  "patternProperties",
  "propertyNames",
  "prefixItems",
  "contains",
  "minProperties",
  "maxProperties",
  "uniqueItems",
  "unevaluatedProperties",
  "unevaluatedItems",
  "additionalItems",
  "contentEncoding",
  "contentMediaType",
  "contentSchema",
  "minContains",
  "maxContains",
  "dependencies",
  "$anchor",
  "$dynamicAnchor",
  "$dynamicRef",
  "$recursiveAnchor",
  "$recursiveRef",
  "oneOf",
]);

/** Schema-document keywords strict mode takes at the root of `parameters` only (see `OPENAI_STRICT_FORBIDDEN`). */
export const OPENAI_STRICT_ROOT_ONLY: ReadonlySet<string> = new Set(["$schema", "$id"]);

/**
 * String formats strict mode takes (OpenAI's structured-outputs guide), confirmed by a user
 * bug report, where strict mode answered 400
 * "Invalid schema for function '…': In context=('properties', 'url'), 'uri' is not a valid format."
 * (github.com/can1357/oh-my-pi/issues/206).
 */
export const OPENAI_STRICT_FORMATS: ReadonlySet<string> = new Set([
  "date-time",
  "time",
  "date",
  "duration",
  "email",
  "hostname",
  "ipv4",
  "ipv6",
  "uuid",
]);

/**
 * OpenAI's structured-outputs guide, "Supported schemas":
 * - "A schema may have up to 5000 object properties total, with up to 10 levels of nesting."
 * - "total string length of all property names, definition names, enum values, and const values
 *   cannot exceed 120,000 characters."
 * - "A schema may have up to 1000 enum values across all enum properties."
 * - "For a single enum property with string values, the total string length of all enum values
 *   cannot exceed 15,000 characters when there are more than 250 enum values."
 * The guide does not say how levels are counted; here a level is one object schema on the way
 * down from the root (the root object is level 1; arrays and anyOf add none), `$ref`s are not
 * followed and each `$defs` entry counts from level 1. Non-string enum/const values count with
 * their JSON text length.
 */
export const OPENAI_STRICT_LIMITS = {
  maxNestingDepth: 10,
  maxObjectProperties: 5000,
  maxEnumValues: 1000,
  maxTotalStringLength: 120_000,
  largeEnumValueCount: 250,
  maxLargeEnumStringLength: 15_000,
} as const;

/**
 * OpenAI refuses these at the root of `parameters` even when not strict: "Invalid schema for
 * function '…': schema must have type 'object' and not have 'oneOf'/'anyOf'/'allOf'/'enum'/'const'/'not'
 * at the top level." (`const` joined the message in 2026: github.com/goruck/home-generative-agent/pull/545;
 * the older text, without it: github.com/nspady/google-calendar-mcp/issues/39).
 */
export const OPENAI_ROOT_FORBIDDEN: readonly string[] = ["oneOf", "anyOf", "allOf", "enum", "const", "not"];

/** JSON Schema's annotation keywords (as the openai SDK's strict transform lists them): no constraint. */
const JSON_SCHEMA_ANNOTATIONS = new Set([
  "$comment",
  "default",
  "description",
  "examples",
  "readOnly",
  "title",
  "writeOnly",
]);
const JSON_TYPES = new Set(["string", "number", "integer", "boolean", "object", "array", "null"]);

function hasType(node: Obj, name: string): boolean {
  return node.type === name || (Array.isArray(node.type) && node.type.includes(name));
}

function matchesJsonType(type: unknown, value: unknown): boolean {
  switch (type) {
    case "string":
      return typeof value === "string";
    case "number":
      return typeof value === "number";
    case "integer":
      return Number.isInteger(value);
    case "boolean":
      return typeof value === "boolean";
    case "null":
      return value === null;
    case "object":
      return isObj(value);
    case "array":
      return Array.isArray(value);
    default:
      return false;
  }
}

/**
 * A node without `type` that strict mode takes: exactly one of `anyOf` or `$ref`, beside
 * annotations and definition maps (the guide's own examples: `{"anyOf": [...]}`,
 * `{"$ref": "#/$defs/step"}`). Anything else without a type is answered "In context=(…),
 * schema must have a 'type' key." — reported for `{}`, a description-only node and a bare
 * `{"const": …}`. A bare `{"enum": […]}` is refused too (fail closed): the guide lists "Enum"
 * among the types but shows none without `type`, and the SDK's converters always add one.
 */
function typelessAllowed(node: Obj): boolean {
  const structural = Object.keys(node).filter(
    (k) => !JSON_SCHEMA_ANNOTATIONS.has(k) && k !== "$defs" && k !== "definitions",
  );
  return structural.length === 1 && (structural[0] === "anyOf" || structural[0] === "$ref");
}

/**
 * The `parameters` of a strict function (`strict: true`): every object closed
 * (`additionalProperties: false`) with every property required, the forbidden keywords and
 * formats, a `type` on every node (see `typelessAllowed`), `items` (one schema) on every
 * array, no boolean schemas, enum/const values of the node's type ("enum value javascript does
 * not validate against {'type': 'null'}", github.com/can1357/oh-my-pi/issues/1835), an object
 * root without a root union/enum/const, and the size limits (`OPENAI_STRICT_LIMITS`).
 */
export function checkOpenAIStrictSchema(schema: unknown, at = "parameters"): Violation[] {
  const out: Violation[] = [];
  if (!isObj(schema)) return [{ at, message: "parameters must be a JSON Schema object" }];
  if (schema.type !== "object")
    out.push({
      at: key(at, "type"),
      message: `schema must be a JSON Schema of 'type: "object"', got 'type: ${JSON.stringify(schema.type)}'`,
    });
  for (const union of ["anyOf", "oneOf"]) {
    if (union in schema)
      out.push({ at: key(at, union), message: `the root must be an object, not a union (${union})` });
  }
  for (const literal of ["enum", "const"]) {
    if (literal in schema)
      out.push({ at: key(at, literal), message: `the root must be an object schema, not an ${literal}` });
  }
  strictNode(schema, at, out, true);
  checkOpenAIStrictLimits(schema, at, out);
  return out;
}

function strictNode(node: unknown, at: string, out: Violation[], root = false): void {
  if (typeof node === "boolean") {
    out.push({ at, message: `a boolean schema (${node}) is not allowed in strict mode` });
    return;
  }
  if (!isObj(node)) {
    out.push({ at, message: "a schema must be an object" });
    return;
  }
  for (const name of Object.keys(node)) {
    if (root && name === "oneOf") continue; // reported as a root union
    if (OPENAI_STRICT_FORBIDDEN.has(name))
      out.push({ at: key(at, name), message: `'${name}' is not permitted in strict mode` });
    else if (!root && OPENAI_STRICT_ROOT_ONLY.has(name))
      out.push({ at: key(at, name), message: `'${name}' is only allowed at the root of a strict schema` });
  }
  if (typeof node.format === "string" && !OPENAI_STRICT_FORMATS.has(node.format)) {
    out.push({ at: key(at, "format"), message: `'${node.format}' is not a valid format` });
  }
  if (!("type" in node)) {
    if (!root && !typelessAllowed(node)) out.push({ at, message: "schema must have a 'type' key" });
  } else {
    const types = Array.isArray(node.type) ? node.type : [node.type];
    const bad = types.filter((t) => typeof t !== "string" || !JSON_TYPES.has(t));
    if (bad.length > 0 || types.length === 0)
      out.push({ at: key(at, "type"), message: `invalid type ${JSON.stringify(node.type)}` });
    else {
      const literals: Array<[unknown, string]> = Array.isArray(node.enum)
        ? node.enum.map((v, i): [unknown, string] => [v, `${key(at, "enum")}[${i}]`])
        : [];
      if ("const" in node) literals.push([node.const, key(at, "const")]);
      for (const [value, where] of literals) {
        if (!types.some((t) => matchesJsonType(t, value)))
          out.push({
            at: where,
            message: `enum value ${JSON.stringify(value)} does not validate against {'type': ${JSON.stringify(node.type)}}`,
          });
      }
    }
  }
  if (hasType(node, "object") || ("properties" in node && !("$ref" in node))) {
    const properties = isObj(node.properties) ? node.properties : {};
    if (node.additionalProperties !== false) {
      out.push({
        at: key(at, "additionalProperties"),
        message: "'additionalProperties' is required to be supplied and to be false",
      });
    }
    const required = Array.isArray(node.required) ? node.required : [];
    const missing = Object.keys(properties).filter((name) => !required.includes(name));
    if (missing.length > 0) {
      out.push({
        at: key(at, "required"),
        message: `'required' is required to be supplied and to be an array including every key in properties. Missing ${missing.map((m) => `'${m}'`).join(", ")}`,
      });
    }
    const extra = required.filter((name) => typeof name !== "string" || !(name in properties));
    if (extra.length > 0)
      out.push({
        at: key(at, "required"),
        message: `'required' names keys that are not in properties: ${JSON.stringify(extra)}`,
      });
    for (const [name, child] of Object.entries(properties)) strictNode(child, key(key(at, "properties"), name), out);
  }
  if ("items" in node) {
    if (Array.isArray(node.items))
      out.push({ at: key(at, "items"), message: "tuple 'items' (an array) is not permitted in strict mode" });
    else strictNode(node.items, key(at, "items"), out);
  } else if (hasType(node, "array")) {
    out.push({ at: key(at, "items"), message: "an array schema must have 'items' (one schema for every item)" });
  }
  for (const union of ["anyOf", "oneOf"]) {
    if (Array.isArray(node[union]))
      (node[union] as unknown[]).forEach((branch, i) => strictNode(branch, `${key(at, union)}[${i}]`, out));
  }
  for (const defs of ["$defs", "definitions"]) {
    if (isObj(node[defs]))
      for (const [name, def] of Object.entries(node[defs] as Obj)) strictNode(def, key(key(at, defs), name), out);
  }
}

function literalLength(value: unknown): number {
  return typeof value === "string" ? value.length : (JSON.stringify(value) ?? "").length;
}

/** `OPENAI_STRICT_LIMITS`, counted over the whole schema (definitions included). */
function checkOpenAIStrictLimits(schema: Obj, at: string, out: Violation[]): void {
  const limits = OPENAI_STRICT_LIMITS;
  let properties = 0;
  let enumValues = 0;
  let stringLength = 0;
  let deepest = { depth: 0, at };
  const visit = (node: unknown, path: string, parentDepth: number): void => {
    if (!isObj(node)) return;
    const depth = hasType(node, "object") || isObj(node.properties) ? parentDepth + 1 : parentDepth;
    if (depth > deepest.depth) deepest = { depth, at: path };
    if (isObj(node.properties)) {
      for (const [name, child] of Object.entries(node.properties)) {
        properties += 1;
        stringLength += name.length;
        visit(child, key(key(path, "properties"), name), depth);
      }
    }
    if (Array.isArray(node.enum)) {
      enumValues += node.enum.length;
      stringLength += node.enum.reduce((sum: number, v) => sum + literalLength(v), 0);
      const strings = node.enum.filter((v): v is string => typeof v === "string");
      // "with string values": an optional enum's null does not make it a non-string enum.
      if (strings.length > limits.largeEnumValueCount && node.enum.every((v) => typeof v === "string" || v === null)) {
        const length = strings.reduce((sum, v) => sum + v.length, 0);
        if (length > limits.maxLargeEnumStringLength) {
          out.push({
            at: key(path, "enum"),
            message: `an enum with more than ${limits.largeEnumValueCount} string values may total at most ${limits.maxLargeEnumStringLength} characters, this one has ${strings.length} values totalling ${length}`,
          });
        }
      }
    }
    if ("const" in node) stringLength += literalLength(node.const);
    if (isObj(node.items)) visit(node.items, key(path, "items"), depth);
    for (const union of ["anyOf", "oneOf"]) {
      if (Array.isArray(node[union]))
        (node[union] as unknown[]).forEach((branch, i) => visit(branch, `${key(path, union)}[${i}]`, depth));
    }
    for (const defs of ["$defs", "definitions"]) {
      if (!isObj(node[defs])) continue;
      for (const [name, def] of Object.entries(node[defs] as Obj)) {
        stringLength += name.length;
        visit(def, key(key(path, defs), name), 0);
      }
    }
  };
  visit(schema, at, 0);
  if (deepest.depth > limits.maxNestingDepth)
    out.push({
      at: deepest.at,
      message: `${deepest.depth} levels of nesting exceeds limit of ${limits.maxNestingDepth}`,
    });
  if (properties > limits.maxObjectProperties)
    out.push({
      at,
      message: `${properties} object properties in total exceeds limit of ${limits.maxObjectProperties}`,
    });
  if (enumValues > limits.maxEnumValues)
    out.push({ at, message: `${enumValues} enum values in total exceeds limit of ${limits.maxEnumValues}` });
  if (stringLength > limits.maxTotalStringLength) {
    out.push({
      at,
      message: `total string length of property names, definition names, enum and const values is ${stringLength}, exceeds limit of ${limits.maxTotalStringLength}`,
    });
  }
}

/**
 * A function's `parameters` as Chat Completions and Responses check it: the strict rules when
 * `strict === true`; otherwise an object root without `OPENAI_ROOT_FORBIDDEN` keywords (no
 * parameters at all is fine).
 */
export function checkOpenAIParameters(parameters: unknown, strict: unknown = false, at = "parameters"): Violation[] {
  const out: Violation[] = [];
  pushOpenAIParameters(parameters, strict, at, out);
  return out;
}

function pushOpenAIParameters(parameters: unknown, strict: unknown, at: string, out: Violation[]): void {
  if (strict === true) {
    out.push(...checkOpenAIStrictSchema(parameters, at));
    return;
  }
  if (parameters === undefined) return;
  if (!isObj(parameters)) {
    out.push({ at, message: "parameters must be a JSON Schema object" });
    return;
  }
  if (parameters.type !== "object")
    out.push({
      at: key(at, "type"),
      message: `schema must be a JSON Schema of 'type: "object"', got 'type: ${JSON.stringify(parameters.type)}'`,
    });
  for (const name of OPENAI_ROOT_FORBIDDEN) {
    if (name in parameters) {
      out.push({
        at: key(at, name),
        message: `schema must have type 'object' and not have 'oneOf'/'anyOf'/'allOf'/'enum'/'const'/'not' at the top level (found '${name}')`,
      });
    }
  }
}

/** Chat Completions `tools`. Strict rules apply where `function.strict === true`. */
export function checkOpenAIChatTools(tools: unknown, at = "tools"): Violation[] {
  if (!Array.isArray(tools)) return [{ at, message: "tools must be an array" }];
  const out: Violation[] = [];
  tools.forEach((tool, i) => {
    const tAt = `${at}[${i}]`;
    if (!isObj(tool) || tool.type !== "function" || !isObj(tool.function)) {
      out.push({
        at: tAt,
        message: 'expected { type: "function", function: { name, description, parameters, strict? } }',
      });
      return;
    }
    const fn = tool.function;
    const fAt = key(tAt, "function");
    checkAllowedKeys(fn, new Set(["name", "description", "parameters", "strict"]), fAt, out, "function");
    checkName("openai", fn.name, key(fAt, "name"), out);
    if ("strict" in fn && typeof fn.strict !== "boolean" && fn.strict !== null)
      out.push({ at: key(fAt, "strict"), message: "strict must be a boolean" });
    pushOpenAIParameters(fn.parameters, fn.strict, key(fAt, "parameters"), out);
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
      out.push({ at: tAt, message: 'expected { type: "function", name, description, parameters, strict }' });
      return;
    }
    checkAllowedKeys(tool, new Set(["type", "name", "description", "parameters", "strict"]), tAt, out, "function tool");
    checkName("openai", tool.name, key(tAt, "name"), out);
    if (typeof tool.strict !== "boolean") {
      out.push({
        at: key(tAt, "strict"),
        message: `strict must be sent as a boolean (got ${JSON.stringify(tool.strict)}); without it the Responses API tries strict mode`,
      });
    }
    pushOpenAIParameters(tool.parameters, tool.strict, key(tAt, "parameters"), out);
  });
  return out;
}

// ---- Anthropic, MCP, Bedrock ------------------------------------------------------------------

/**
 * Anthropic: "tools.N.custom.input_schema: input_schema does not support oneOf, allOf, or anyOf
 * at the top level" (github.com/anthropics/claude-code/issues/5319), and `Tool.InputSchema.type`
 * is `'object'` in @anthropic-ai/sdk. Bedrock Converse hands the schema to the same models and
 * is held to the same rule. `not` is NOT in the list: neither the error text nor the docs name
 * it, so a root `not` is not reported.
 */
const ROOT_COMBINATORS = ["anyOf", "oneOf", "allOf"];

function checkObjectRoot(schema: unknown, at: string, out: Violation[]): void {
  if (!isObj(schema)) {
    out.push({ at, message: "must be a JSON Schema object" });
    return;
  }
  if (schema.type !== "object")
    out.push({ at: key(at, "type"), message: `Input should be 'object', got ${JSON.stringify(schema.type)}` });
  for (const combinator of ROOT_COMBINATORS) {
    if (combinator in schema)
      out.push({ at: key(at, combinator), message: `input_schema does not support ${combinator} at the top level` });
  }
}

/** @anthropic-ai/sdk `Tool` (a custom tool): its fields. */
const ANTHROPIC_TOOL_KEYS = new Set([
  "name",
  "description",
  "input_schema",
  "cache_control",
  "type",
  "strict",
  "defer_loading",
  "eager_input_streaming",
  "input_examples",
  "allowed_callers",
]);

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
      if (!ANTHROPIC_TOOL_KEYS.has(name)) out.push({ at: key(tAt, name), message: "Extra inputs are not permitted" });
    }
    if ("type" in tool && tool.type !== "custom" && tool.type !== null)
      out.push({
        at: key(tAt, "type"),
        message: `only custom tools are checked here, got ${JSON.stringify(tool.type)}`,
      });
    checkName("anthropic", tool.name, key(tAt, "name"), out);
    if ("description" in tool && typeof tool.description !== "string")
      out.push({ at: key(tAt, "description"), message: "description must be a string" });
    if (!("input_schema" in tool)) out.push({ at: key(tAt, "input_schema"), message: "Field required" });
    else checkObjectRoot(tool.input_schema, key(tAt, "input_schema"), out);
  });
  return out;
}

const MCP_ANNOTATIONS = new Set(["title", "readOnlyHint", "destructiveHint", "idempotentHint", "openWorldHint"]);
/** The MCP SDK's `Tool` fields (`ToolSchema`: BaseMetadata, Icons, and the tool's own). */
const MCP_TOOL_KEYS = new Set([
  "name",
  "title",
  "description",
  "inputSchema",
  "outputSchema",
  "annotations",
  "icons",
  "execution",
  "_meta",
]);

function isAtOrUnder(path: string, ancestor: string): boolean {
  return path === ancestor || path.startsWith(`${ancestor}.`) || path.startsWith(`${ancestor}[`);
}

/**
 * MCP `tools/list` result's `tools`: the hand-written rules below, then each tool parsed with
 * the MCP SDK's own zod `ToolSchema` (what an SDK client's `listTools()` parses the result
 * with), each zod issue reported at its path. An issue at a place a hand-written rule already
 * reported (the same path or below it) is not reported twice.
 * What `ToolSchema` refuses beyond the rules here: a `properties` value of `inputSchema` /
 * `outputSchema` that is not an object (so a boolean property schema, valid JSON Schema, is
 * refused there; deeper booleans, `items: true` and the like pass), a non-object
 * `outputSchema` root, non-string `required` entries, a missing `name`, bad `icons`/`execution`.
 */
export function checkMcpTools(tools: unknown, at = "tools"): Violation[] {
  if (!Array.isArray(tools)) return [{ at, message: "tools must be an array" }];
  const out: Violation[] = [];
  tools.forEach((tool, i) => {
    const tAt = `${at}[${i}]`;
    if (!isObj(tool)) {
      out.push({ at: tAt, message: "a tool must be an object" });
      return;
    }
    const own: Violation[] = [];
    checkAllowedKeys(tool, MCP_TOOL_KEYS, tAt, own, "Tool");
    checkName("mcp", tool.name, key(tAt, "name"), own);
    if (!isObj(tool.inputSchema) || tool.inputSchema.type !== "object")
      own.push({ at: key(tAt, "inputSchema"), message: 'inputSchema must be an object schema (type "object")' });
    if ("annotations" in tool) {
      if (!isObj(tool.annotations)) own.push({ at: key(tAt, "annotations"), message: "annotations must be an object" });
      else {
        for (const [name, value] of Object.entries(tool.annotations)) {
          if (!MCP_ANNOTATIONS.has(name))
            own.push({ at: key(key(tAt, "annotations"), name), message: "unknown annotation" });
          else if (name !== "title" && typeof value !== "boolean")
            own.push({ at: key(key(tAt, "annotations"), name), message: "a hint must be a boolean" });
        }
      }
    }
    out.push(...own);
    const parsed = ToolSchema.safeParse(tool);
    if (parsed.success) return;
    for (const issue of parsed.error.issues) {
      const where = issue.path.reduce<string>(
        (path, segment) => key(path, typeof segment === "number" ? segment : String(segment)),
        tAt,
      );
      if (own.some((v) => isAtOrUnder(where, v.at))) continue;
      out.push({ at: where, message: `${issue.message} (MCP SDK ToolSchema, ${issue.code})` });
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
    checkAllowedKeys(spec, new Set(["name", "description", "inputSchema", "strict"]), sAt, out, "ToolSpecification");
    checkName("bedrock", spec.name, key(sAt, "name"), out);
    if (!isObj(spec.inputSchema) || !("json" in spec.inputSchema))
      out.push({ at: key(sAt, "inputSchema"), message: "inputSchema must be { json: <JSON Schema> }" });
    else checkObjectRoot(spec.inputSchema.json, key(key(sAt, "inputSchema"), "json"), out);
  });
  return out;
}

// ---- Ollama -----------------------------------------------------------------------------------

/*
 * Ollama's native `/api/chat` decodes `tools` into fixed Go structs (github.com/ollama/ollama,
 * api/types.go: `Tool`, `ToolFunction`, `ToolFunctionParameters`, `ToolProperty`). Go's JSON
 * decoder drops a key a struct has no field for without an error, and refuses the request (400)
 * when a value does not fit its field's Go type. Both are violations here: the first loses part
 * of the declaration silently, the second fails the call.
 */

/** `api.Tool`: `items` is a field of its own (raw JSON). */
const OLLAMA_TOOL_KEYS = new Set(["type", "items", "function"]);
/** `api.ToolFunction`. */
const OLLAMA_FUNCTION_KEYS = new Set(["name", "description", "parameters"]);
/** `api.ToolFunctionParameters`: `$defs` and `items` are raw JSON (`any`). */
export const OLLAMA_PARAMETERS_KEYS: ReadonlySet<string> = new Set([
  "type",
  "$defs",
  "items",
  "required",
  "properties",
]);
/** `api.ToolProperty`: every property and `anyOf` branch; its `items` is raw JSON (`any`), kept as sent. */
export const OLLAMA_PROPERTY_KEYS: ReadonlySet<string> = new Set([
  "anyOf",
  "type",
  "items",
  "description",
  "enum",
  "properties",
  "required",
]);

function isStringList(value: unknown): boolean {
  return Array.isArray(value) && value.every((entry) => typeof entry === "string");
}

function ollamaDropped(node: Obj, allowed: ReadonlySet<string>, at: string, out: Violation[], struct: string): void {
  for (const name of Object.keys(node)) {
    if (!allowed.has(name))
      out.push({
        at: key(at, name),
        message: `${struct} has no field "${name}": Ollama's server drops it without an error`,
      });
  }
}

function ollamaProperties(properties: unknown, at: string, out: Violation[]): void {
  if (properties === undefined || properties === null) return;
  if (!isObj(properties)) {
    out.push({
      at,
      message: "json: cannot unmarshal into ToolPropertiesMap: properties must be an object of property schemas",
    });
    return;
  }
  for (const [name, child] of Object.entries(properties)) ollamaProperty(child, key(at, name), out);
}

/**
 * One `api.ToolProperty`: an object (a boolean schema does not decode into the struct), its keys
 * among `OLLAMA_PROPERTY_KEYS`, each of its field's Go type: `type` a string or a list of them
 * (`PropertyType`), `description` a string, `enum` a list, `anyOf` a list of `ToolProperty`,
 * `properties` a map of them, `required` a list of strings. `items` is not checked (raw JSON).
 */
export function checkOllamaProperty(node: unknown, at = "property"): Violation[] {
  const out: Violation[] = [];
  ollamaProperty(node, at, out);
  return out;
}

function ollamaProperty(node: unknown, at: string, out: Violation[]): void {
  if (!isObj(node)) {
    out.push({
      at,
      message: `json: cannot unmarshal ${node === null ? "null" : Array.isArray(node) ? "array" : typeof node} into Go value of type api.ToolProperty`,
    });
    return;
  }
  ollamaDropped(node, OLLAMA_PROPERTY_KEYS, at, out, "ToolProperty");
  if ("type" in node && typeof node.type !== "string" && !isStringList(node.type))
    out.push({ at: key(at, "type"), message: "type must be a string or a list of strings (PropertyType)" });
  if ("description" in node && typeof node.description !== "string")
    out.push({ at: key(at, "description"), message: "description must be a string" });
  if ("enum" in node && !Array.isArray(node.enum)) out.push({ at: key(at, "enum"), message: "enum must be a list" });
  if ("required" in node && !isStringList(node.required))
    out.push({ at: key(at, "required"), message: "required must be a list of strings" });
  if ("anyOf" in node) {
    if (!Array.isArray(node.anyOf))
      out.push({ at: key(at, "anyOf"), message: "anyOf must be a list of property schemas" });
    else node.anyOf.forEach((branch, i) => ollamaProperty(branch, `${key(at, "anyOf")}[${i}]`, out));
  }
  if ("properties" in node) ollamaProperties(node.properties, key(at, "properties"), out);
}

/**
 * A function's `parameters` (`api.ToolFunctionParameters`): an object whose keys are among
 * `OLLAMA_PARAMETERS_KEYS`, `type: "object"` (a string field; every function in Ollama's docs
 * declares an object), `required` a list of strings, `properties` a map of `ToolProperty`.
 */
export function checkOllamaParameters(parameters: unknown, at = "parameters"): Violation[] {
  const out: Violation[] = [];
  if (!isObj(parameters)) return [{ at, message: "parameters must be a JSON Schema object" }];
  ollamaDropped(parameters, OLLAMA_PARAMETERS_KEYS, at, out, "ToolFunctionParameters");
  if (typeof parameters.type !== "string")
    out.push({ at: key(at, "type"), message: `type must be a string, got ${JSON.stringify(parameters.type)}` });
  else if (parameters.type !== "object")
    out.push({
      at: key(at, "type"),
      message: `parameters must be of type "object", got ${JSON.stringify(parameters.type)}`,
    });
  if ("required" in parameters && !isStringList(parameters.required))
    out.push({ at: key(at, "required"), message: "required must be a list of strings" });
  ollamaProperties(parameters.properties, key(at, "properties"), out);
  return out;
}

/** Ollama `/api/chat` `tools`: each `{ type: "function", function: { name, description, parameters } }`. */
export function checkOllamaTools(tools: unknown, at = "tools"): Violation[] {
  if (!Array.isArray(tools)) return [{ at, message: "tools must be an array" }];
  const out: Violation[] = [];
  tools.forEach((tool, i) => {
    const tAt = `${at}[${i}]`;
    if (!isObj(tool) || tool.type !== "function" || !isObj(tool.function)) {
      out.push({ at: tAt, message: 'expected { type: "function", function: { name, description, parameters } }' });
      return;
    }
    ollamaDropped(tool, OLLAMA_TOOL_KEYS, tAt, out, "Tool");
    const fn = tool.function;
    const fAt = key(tAt, "function");
    ollamaDropped(fn, OLLAMA_FUNCTION_KEYS, fAt, out, "ToolFunction");
    checkName("ollama", fn.name, key(fAt, "name"), out);
    if ("description" in fn && typeof fn.description !== "string")
      out.push({ at: key(fAt, "description"), message: "description must be a string" });
    out.push(...checkOllamaParameters(fn.parameters, key(fAt, "parameters")));
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
      if (content.role !== "user")
        out.push({
          at: key(cAt, "role"),
          message: `functionResponse parts belong in a "user" content, got ${JSON.stringify(content.role)}`,
        });
      if (responses.length !== parts.length)
        out.push({
          at: key(cAt, "parts"),
          message: "a function response turn must contain only functionResponse parts",
        });
      const previous = contents[i - 1];
      const calls =
        isObj(previous) && Array.isArray(previous.parts)
          ? (previous.parts as unknown[]).filter((p) => isObj(p) && "functionCall" in p)
          : [];
      if (calls.length === 0)
        out.push({ at: cAt, message: "function response turn must come immediately after a function call turn" });
      else if (calls.length !== responses.length) {
        out.push({
          at: cAt,
          message: `Please ensure that the number of function response parts (${responses.length}) is equal to the number of function call parts (${calls.length}) of the function call turn.`,
        });
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
        else if (call && call.name !== fr.name)
          out.push({
            at: key(rAt, "name"),
            message: `expected the response for "${String(call.name)}", got "${fr.name}"`,
          });
        if (call && call.id !== undefined && fr.id !== call.id)
          out.push({
            at: key(rAt, "id"),
            message: `expected id ${JSON.stringify(call.id)} (the call's id), got ${JSON.stringify(fr.id)}`,
          });
        if (call && call.id === undefined && fr.id !== undefined)
          out.push({ at: key(rAt, "id"), message: "the call had no id; do not send one" });
        const response = fr.response;
        if (!isObj(response)) out.push({ at: key(rAt, "response"), message: "response must be an object (a Struct)" });
        else {
          const keys = Object.keys(response);
          if (!(keys.length === 1 && (keys[0] === "output" || keys[0] === "error"))) {
            out.push({
              at: key(rAt, "response"),
              message: `response must be { output } or { error }, got keys [${keys.join(", ")}]`,
            });
          }
        }
      });
    }
    const next = contents[i + 1];
    const hasCalls = parts.some((p) => isObj(p) && "functionCall" in p);
    if (
      hasCalls &&
      next !== undefined &&
      !(
        isObj(next) &&
        Array.isArray(next.parts) &&
        (next.parts as unknown[]).some((p) => isObj(p) && "functionResponse" in p)
      )
    ) {
      out.push({
        at: `${at}[${i + 1}]`,
        message: "a function call turn must be followed by its function response turn",
      });
    }
  });
  return out;
}

function toolCallIdsOf(message: Obj): string[] {
  return Array.isArray(message.tool_calls)
    ? (message.tool_calls as unknown[]).map((c) => (isObj(c) ? String(c.id) : ""))
    : [];
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
        out.push({
          at: `${at}.[${i}].role`,
          message: "messages with role 'tool' must be a response to a preceeding message with 'tool_calls'.",
        });
        return;
      }
      const id = message.tool_call_id;
      if (typeof id !== "string" || !pending.includes(id))
        out.push({
          at: `${at}.[${i}].tool_call_id`,
          message: `Invalid parameter: tool_call_id ${JSON.stringify(id)} matches no tool call of the preceding assistant message`,
        });
      else if (answered.has(id))
        out.push({ at: `${at}.[${i}].tool_call_id`, message: `duplicate tool message for ${id}` });
      else answered.add(id);
      const content = message.content;
      const textParts =
        Array.isArray(content) && content.every((p) => isObj(p) && p.type === "text" && typeof p.text === "string");
      if (typeof content !== "string" && !textParts)
        out.push({ at: `${at}.[${i}].content`, message: "tool message content must be a string or text parts" });
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
    if (typeof id !== "string" || !calls.has(id))
      out.push({
        at: `${at}[${i}].call_id`,
        message: `No tool call found for function call output with call_id ${String(id)}.`,
      });
    else if (calls.get(id)! > i)
      out.push({ at: `${at}[${i}]`, message: `function_call_output for ${id} comes before its function_call` });
    if (typeof id === "string") {
      if (outputs.has(id))
        out.push({ at: `${at}[${i}].call_id`, message: `Duplicate function_call_output for call_id ${id}.` });
      outputs.add(id);
    }
    const output = item.output;
    const parts = Array.isArray(output) && output.every((p) => isObj(p) && typeof p.type === "string");
    if (typeof output !== "string" && !parts)
      out.push({ at: `${at}[${i}].output`, message: "output must be a string or an array of content parts" });
  });
  for (const [id] of calls)
    if (!outputs.has(id)) out.push({ at, message: `No tool output found for function call ${id}.` });
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
      const answered = new Set(
        blocksOf(next)
          .filter((b) => b.type === "tool_result")
          .map((b) => String(b.tool_use_id)),
      );
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
    if (message.role !== "user")
      out.push({ at: `${at}.${i}.role`, message: "tool_result blocks belong in a user message" });
    const firstOther = blocks.findIndex((b) => b.type !== "tool_result");
    if (firstOther !== -1 && firstOther < results.length)
      out.push({ at: `${at}.${i}.content`, message: "tool_result blocks must come first in the user message content" });
    const previous = messages[i - 1];
    const useIds = new Set(
      blocksOf(previous)
        .filter((b) => b.type === "tool_use")
        .map((b) => String(b.id)),
    );
    const seen = new Set<string>();
    results.forEach((block, b) => {
      const bAt = `${at}.${i}.content.${b}`;
      const id = String(block.tool_use_id);
      if (!useIds.has(id)) {
        out.push({
          at: bAt,
          message: `unexpected \`tool_use_id\` found in \`tool_result\` blocks: ${id}. Each \`tool_result\` block must have a corresponding \`tool_use\` block in the previous message.`,
        });
      }
      if (seen.has(id)) out.push({ at: bAt, message: `duplicate tool_result for ${id}` });
      seen.add(id);
      if ("is_error" in block && typeof block.is_error !== "boolean")
        out.push({ at: `${bAt}.is_error`, message: "is_error must be a boolean" });
      const content = block.content;
      const textBlocks = Array.isArray(content) && content.every((c) => isObj(c) && typeof c.type === "string");
      if (content !== undefined && typeof content !== "string" && !textBlocks)
        out.push({ at: `${bAt}.content`, message: "content must be a string or an array of content blocks" });
    });
  });
  return out;
}
