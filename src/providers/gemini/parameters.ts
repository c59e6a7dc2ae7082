/**
 * JSON Schema lowered to Gemini's `Schema` (its OpenAPI 3.0 subset), with the way back for the
 * values a model sends under it, every change logged.
 */
import { ExportError } from "../../core/errors";
import { childPointer } from "../../core/subschemas";
import { isSchemaObject, type JSONSchemaObject } from "../../core/types";
import { canonicalSchema } from "../../schema/canonical";
import {
  appendSentence,
  ChangeLog,
  distinctSchemas,
  inlineAllRefs,
  mergeAllOf,
  plainObjectRoot,
  tupleOf,
} from "../../schema/lowering";
import { SchemaSizeError } from "../../schema/schema-size";
import {
  acceptsLazily,
  arrayCodec,
  JSON_TEXT,
  objectCodec,
  renamedKeys,
  tokenCodec,
  unionCodec,
  valueKey,
  type MaybeCodec,
  type UnionBranch,
} from "../codec";

/** Keywords Gemini's `parameters` (Schema) accepts; anything else is a 400 "Unknown name". */
const GEMINI_KEYWORDS = new Set([
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

/** Formats Gemini accepts per type; others are moved into the description. */
const GEMINI_FORMATS: Record<string, string[]> = {
  string: ["enum", "date-time"],
  number: ["float", "double"],
  integer: ["int32", "int64"],
};

/** Which keywords belong to which type, for splitting `type: [a, b]` into one branch per type. */
const TYPE_KEYWORDS: Record<string, readonly string[]> = {
  string: ["minLength", "maxLength", "pattern", "format", "contentEncoding", "contentMediaType"],
  number: ["minimum", "maximum", "exclusiveMinimum", "exclusiveMaximum", "multipleOf", "format"],
  integer: ["minimum", "maximum", "exclusiveMinimum", "exclusiveMaximum", "multipleOf", "format"],
  array: [
    "items",
    "prefixItems",
    "additionalItems",
    "minItems",
    "maxItems",
    "uniqueItems",
    "contains",
    "minContains",
    "maxContains",
  ],
  object: [
    "properties",
    "required",
    "additionalProperties",
    "patternProperties",
    "minProperties",
    "maxProperties",
    "propertyNames",
    "dependentRequired",
    "dependentSchemas",
  ],
  boolean: [],
};
const TYPED_KEYWORDS = new Set(Object.values(TYPE_KEYWORDS).flat());

const GEMINI_PROPERTY_NAME = /^[A-Za-z_][A-Za-z0-9_]{0,63}$/;

/** Keywords about the schema document, not the value: Gemini takes none of them. */
const META_KEYWORDS = ["$schema", "$id", "$comment", "$anchor", "definitions", "$defs"] as const;

const EXCLUSIVE_BOUNDS = [
  ["exclusiveMinimum", "minimum"],
  ["exclusiveMaximum", "maximum"],
] as const;

/** Keywords Gemini takes that only mean something on objects, and on arrays. */
const TYPE_BOUND_KEYWORDS = [
  ["object", ["properties", "required", "minProperties", "maxProperties"]],
  ["array", ["items", "minItems", "maxItems"]],
] as const;

const ANY_JSON = "Any JSON value, written as JSON text.";

/**
 * One tool's lowering: its change log, and every string literal its schema holds (no value's string may pass for one).
 */
interface Walk {
  log: ChangeLog;
  /** Made on first use: most schemas have no enum value to write as a string. */
  readonly literals: ReadonlySet<string>;
}

interface Lowered {
  /** `undefined`: the node admits no value (`false`). */
  node: JSONSchemaObject | undefined;
  codec: MaybeCodec;
}

/**
 * A tool's JSON Schema lowered to what Gemini's `parameters` accepts, with the way back for
 * the answers, every change logged. A schema already inside the subset is returned as it is.
 */
export function lowerGeminiParameters(
  schema: JSONSchemaObject,
  log: ChangeLog,
): { schema: JSONSchemaObject; codec: MaybeCodec } {
  const before = log.changes.length;
  const root = inlinedForGemini(plainObjectRoot(schema, log), log);
  let literals: ReadonlySet<string> | undefined;
  const walk: Walk = {
    log,
    get literals() {
      return (literals ??= stringLiterals(root));
    },
  };
  const { node, codec } = lowerNode(root, "", walk);
  if (log.changes.length === before) return { schema, codec };
  const lowered: JSONSchemaObject = node ?? { type: "object" };
  if (lowered.type !== "object")
    throw new ExportError(
      `Tool "${log.tool}": the root of its ${log.schema} cannot be made an OBJECT for Gemini; declare it as one object.`,
    );
  return { schema: canonicalSchema(lowered), codec };
}

/**
 * `parameters` takes no references: they are inlined, and a schema that grows past `MAX_SCHEMA_SIZE` doing so fails the
 * export, naming the tool.
 */
function inlinedForGemini(schema: JSONSchemaObject, log: ChangeLog): JSONSchemaObject {
  try {
    return inlineAllRefs(schema, log);
  } catch (error) {
    if (!(error instanceof SchemaSizeError)) throw error;
    const [field, jsonField] =
      log.schema === "inputSchema" ? ["parameters", "parametersJsonSchema"] : ["response", "responseJsonSchema"];
    throw new ExportError(
      `Tool "${log.tool}": its ${log.schema} cannot be declared as Gemini's ${field}, which take no $refs: ` +
        `${error.message}. ` +
        `Export with { jsonSchema: true } (${jsonField} keeps the $refs), or refer to large definitions from ` +
        "fewer places.",
    );
  }
}

function lowerNode(input: unknown, pointer: string, walk: Walk): Lowered {
  if (input === false) return { node: undefined, codec: undefined };
  if (typeof input !== "object" || input === null || Array.isArray(input))
    return anything({}, pointer, walk, input === true ? "true" : "{}");
  if (isGeminiLeaf(input as JSONSchemaObject)) return { node: input as JSONSchemaObject, codec: undefined };
  let node = { ...(input as JSONSchemaObject) };

  for (const key of META_KEYWORDS) {
    if (!(key in node)) continue;
    delete node[key];
    walk.log.add(
      childPointer(pointer, key),
      key,
      "dropped",
      `${key} is not supported by ` +
        `Gemini${key === "$defs" || key === "definitions" ? " (nothing refers to these definitions)" : ""}`,
    );
  }
  if (Array.isArray(node.examples)) {
    const { examples, ...rest } = node;
    walk.log.add(pointer, "examples", "rewritten", "examples → example (the first one)");
    node = { ...rest, ...(rest.example === undefined && examples.length > 0 ? { example: examples[0] } : {}) };
  }
  if ("not" in node) {
    walk.log.add(childPointer(pointer, "not"), "not", "dropped", `not is not supported by Gemini${walk.log.whenRun}`);
    delete node.not;
  }
  if (Array.isArray(node.allOf)) {
    const { allOf, ...rest } = node;
    walk.log.add(pointer, "allOf", "rewritten", "allOf merged into one schema");
    node = mergeAllOf(rest, (allOf as unknown[]).filter(isSchemaObject));
  }
  let unionReported = false;
  if (Array.isArray(node.oneOf)) {
    const { oneOf, ...rest } = node;
    walk.log.add(pointer, "oneOf", "rewritten", `oneOf → anyOf (${walk.log.holds("exactly-one")})`);
    unionReported = rest.anyOf === undefined;
    node = { ...rest, anyOf: [...((rest.anyOf as unknown[] | undefined) ?? []), ...(oneOf as unknown[])] };
  }
  if ("const" in node) {
    const { const: value, ...rest } = node;
    const values = Array.isArray(rest.enum) ? rest.enum.filter((v) => valueKey(v) === valueKey(value)) : [value];
    walk.log.add(pointer, "const", "rewritten", `const ${JSON.stringify(value)} → enum [${JSON.stringify(value)}]`);
    node = { ...rest, enum: values };
  }
  if (Array.isArray(node.anyOf)) return lowerUnion(node, pointer, walk, true, unionReported);
  if (Array.isArray(node.enum)) return lowerEnum(node, pointer, walk);

  // One type: a type array becomes a union of one branch per type, null becoming `nullable`.
  if (Array.isArray(node.type)) {
    const types = [...new Set(node.type)] as string[];
    const nonNull = types.filter((t) => t !== "null");
    if (nonNull.length !== 1) {
      walk.log.add(pointer, "type", "rewritten", `type ${JSON.stringify(node.type)} → anyOf of one schema per type`);
      const { type: _type, ...rest } = node;
      return lowerUnion({ ...rest, anyOf: types.map((type) => ({ type })) }, pointer, walk, false);
    }
    walk.log.add(pointer, "type", "rewritten", `type ${JSON.stringify(node.type)} → "${nonNull[0]}" + nullable`);
    node = {
      ...node,
      type: nonNull[0] as JSONSchemaObject["type"],
      ...(types.includes("null") ? { nullable: true } : {}),
    };
  }
  if (node.type === undefined) {
    const inferred = inferType(node);
    if (inferred === undefined) return anything(node, pointer, walk, "a schema without a type");
    walk.log.add(
      childPointer(pointer, "type"),
      "type",
      "added",
      `type "${inferred}" added (Gemini needs a type on every schema)`,
    );
    node.type = inferred as JSONSchemaObject["type"];
  }
  if (node.type === "null") {
    walk.log.add(
      pointer,
      "type",
      "rewritten",
      'type "null" → nullable string (Gemini has no null type; only null is accepted)',
    );
    node = { ...withoutTyped(node), type: "string", nullable: true };
  }

  for (const [exclusive, inclusive] of EXCLUSIVE_BOUNDS) {
    if (!(exclusive in node)) continue;
    const { [exclusive]: bound, ...rest } = node;
    if (typeof bound === "number" && rest[inclusive] === undefined) {
      walk.log.add(
        pointer,
        exclusive,
        "rewritten",
        `${exclusive} ${bound} → ${inclusive} ${bound} (${walk.log.holds("the exclusive bound")})`,
      );
      node = { ...rest, [inclusive]: bound };
    } else {
      walk.log.add(pointer, exclusive, "dropped", `${exclusive} is not supported${walk.log.whenRun}`);
      node = rest;
    }
  }
  if (typeof node.format === "string" && !(GEMINI_FORMATS[node.type as string] ?? []).includes(node.format)) {
    walk.log.add(
      childPointer(pointer, "format"),
      "format",
      "moved",
      `format "${node.format}" is not supported for ${String(node.type)}; stated in the description ` +
        `instead${walk.log.whenRun}`,
    );
    const { format, ...rest } = node;
    node = { ...rest, description: appendSentence(rest.description, `Format: ${format}.`) };
  }

  // Unknown keywords are reported before the children's changes, and removed after them
  // (an object's undeclared keys still need `additionalProperties` for their way back).
  // A tuple's keywords are rewritten by the array's own step, not dropped.
  const tupleKeys = node.type === "array" && tupleOf(node) !== undefined ? ["prefixItems", "additionalItems"] : [];
  const unknown = Object.keys(node).filter((key) => !GEMINI_KEYWORDS.has(key) && !tupleKeys.includes(key));
  for (const key of unknown)
    walk.log.add(
      childPointer(pointer, key),
      key,
      "dropped",
      `${key} is not supported by Gemini${CHECKED_AT_RUN.has(key) ? walk.log.whenRun : ""}`,
    );
  // Keywords of objects on a node of another type, and of arrays likewise, say nothing.
  for (const [type, keys] of TYPE_BOUND_KEYWORDS) {
    if (node.type === type) continue;
    for (const key of keys.filter((k) => k in node)) {
      walk.log.add(
        childPointer(pointer, key),
        key,
        "dropped",
        `${key} applies to ${type}s only, and this schema is of type ${String(node.type)}`,
      );
      node = Object.fromEntries(Object.entries(node).filter(([k]) => k !== key)) as JSONSchemaObject;
    }
  }
  let codec: MaybeCodec;
  if (node.type === "object") ({ node, codec } = lowerObject(node, pointer, walk));
  else if (node.type === "array") ({ node, codec } = lowerArray(node, pointer, walk));
  if (unknown.length > 0)
    node = Object.fromEntries(Object.entries(node).filter(([key]) => GEMINI_KEYWORDS.has(key))) as JSONSchemaObject;
  return { node, codec };
}

/** `enum` (and `const`, made an enum): Gemini takes non-empty strings only, so other values get a string each. */
function lowerEnum(node: JSONSchemaObject, pointer: string, walk: Walk): Lowered {
  const values = node.enum as unknown[];
  const nullable =
    node.nullable === true ||
    values.includes(null) ||
    (Array.isArray(node.type) && node.type.includes("null")) ||
    node.type === "null";
  const tokens = enumTokens(
    values.filter((v) => v !== null),
    walk.literals,
  );
  const codec = tokenCodec(tokens);
  const out: JSONSchemaObject = {};
  for (const key of ["title", "description"]) if (typeof node[key] === "string") out[key] = node[key];
  out.type = "string";
  if (values.includes(null))
    walk.log.add(
      childPointer(pointer, "enum"),
      "enum",
      "rewritten",
      "null → nullable (Gemini enums hold strings only)",
    );
  if (codec !== undefined) {
    out.format = "enum";
    walk.log.add(
      childPointer(pointer, "enum"),
      "enum",
      "rewritten",
      `values ${JSON.stringify(values)} → strings ${JSON.stringify(tokens.map(([t]) => t))} (answers are read back ` +
        "as the declared values before the call)",
    );
  } else if (
    node.type !== "string" ||
    Object.keys(node).some(
      (key) => !["enum", "type", "title", "description", "default", "example", "nullable"].includes(key),
    )
  ) {
    walk.log.add(
      pointer,
      "enum",
      "rewritten",
      "enum of strings written as a STRING enum (other keywords are implied by the values)",
    );
  }
  if (tokens.length > 0) out.enum = tokens.map(([token]) => token);
  else out.description = appendSentence(out.description, "Always null.");
  if (nullable) out.nullable = true;
  for (const key of ["default", "example"]) {
    if (node[key] !== undefined)
      out[key] = node[key] === null ? null : codec === undefined ? node[key] : codec.encode(node[key]);
  }
  return { node: out, codec };
}

/**
 * Each enum value's string: a non-empty string is itself; anything else its JSON text (the
 * empty string "(empty string)"), made distinct from every string literal of the tool's schema
 * and from every other value's by naming its type, so an answer names one value only.
 */
function enumTokens(values: readonly unknown[], literals: ReadonlySet<string>): Array<readonly [string, unknown]> {
  const taken = new Set<string>(literals);
  const tokens = new Map<unknown, string>();
  const unique = values.filter((v, i) => values.findIndex((w) => valueKey(w) === valueKey(v)) === i);
  for (const value of unique) {
    if (typeof value === "string" && value !== "") {
      taken.add(value);
      tokens.set(value, value);
    }
  }
  for (const value of unique) {
    if (tokens.has(value)) continue;
    const base = value === "" ? "(empty string)" : typeof value === "object" ? JSON.stringify(value) : String(value);
    let token = base;
    for (let n = 1; taken.has(token); n++)
      token = `${base} (${Array.isArray(value) ? "array" : typeof value}${n > 1 ? ` ${n}` : ""})`;
    taken.add(token);
    tokens.set(value, token);
  }
  return unique.map((value) => [tokens.get(value)!, value] as const);
}

/**
 * `anyOf`: Gemini wants it alone on its node, so siblings move into each branch; null
 * branches become `nullable`; one branch left replaces the union. Answers are read by the
 * first branch that accepts them; where two branches' encodings meet, the loss is logged.
 */
function lowerUnion(node: JSONSchemaObject, pointer: string, walk: Walk, logMoves = true, reported = false): Lowered {
  const { anyOf, ...siblings } = node;
  const sharedNullable = siblings.nullable === true;
  delete siblings.nullable;
  const hasSiblings = Object.keys(siblings).some((key) => key !== "description" && key !== "title");
  if (logMoves && hasSiblings)
    walk.log.add(
      pointer,
      "anyOf",
      "moved",
      `${Object.keys(siblings).join(", ")} moved into each anyOf branch (anyOf must be alone on its node)`,
    );
  const branches = (anyOf as unknown[])
    .map((branch) => (branch === true ? {} : branch))
    .filter((branch) => branch !== false);
  if (branches.length < (anyOf as unknown[]).length)
    walk.log.add(childPointer(pointer, "anyOf"), "anyOf", "dropped", "branches that accept nothing (false) removed");
  const full = branches.map((branch) =>
    isSchemaObject(branch) ? (Object.keys(siblings).length > 0 ? mergeAllOf({ ...siblings }, [branch]) : branch) : {},
  );
  const isNull = (branch: JSONSchemaObject) =>
    branch.type === "null" ||
    (Array.isArray(branch.enum) && branch.enum.length === 1 && branch.enum[0] === null) ||
    branch.const === null;
  const nonNull = full.filter((branch) => !isNull(branch));
  const nullable = sharedNullable || nonNull.length < full.length;
  if (nonNull.length < full.length)
    walk.log.add(childPointer(pointer, "anyOf"), "anyOf", "rewritten", "null branch → nullable");
  if (nonNull.length === 0)
    return {
      node: { type: "string", nullable: true, description: appendSentence(siblings.description, "Always null.") },
      codec: undefined,
    };
  if (nonNull.length === 1) {
    if ((anyOf as unknown[]).length === 1 && !reported)
      walk.log.add(childPointer(pointer, "anyOf"), "anyOf", "rewritten", "anyOf with one branch → that branch");
    const only = lowerNode(nullable ? { ...nonNull[0], nullable: true } : nonNull[0], pointer, walk);
    return only;
  }
  const lowered = nonNull.map((branch) =>
    lowerNode(
      nullable ? { ...branch, nullable: true } : branch,
      childPointer(pointer, "anyOf", full.indexOf(branch)),
      walk,
    ),
  );
  // A branch that takes any value makes the union take any value: one JSON text, nothing lost.
  if (lowered.some((branch) => branch.codec === JSON_TEXT))
    return anything(
      { ...siblings, ...(nullable ? { nullable: true } : {}) },
      pointer,
      walk,
      "a union with a branch that takes any value",
    );
  const kept = lowered.filter((branch) => branch.node !== undefined);
  const union: UnionBranch[] = full.map((branch) => {
    const index = nonNull.indexOf(branch);
    const sentAs = index === -1 ? new Set(["null"]) : sentTypes(lowered[index]!.node);
    return {
      codec: index === -1 ? undefined : lowered[index]!.codec,
      accepts: acceptsLazily(branch, {}),
      ...(sentAs !== undefined ? { sentAs } : {}),
    };
  });
  const codec = unionCodec(union);
  if (codec !== undefined) reportOverlaps(full, lowered, nonNull, pointer, walk);
  if (kept.length === 1) return kept[0]!;
  return { node: { anyOf: kept.map((branch) => branch.node!) }, codec };
}

/** The JSON types a lowered Gemini schema takes (`undefined`: any). */
function sentTypes(node: JSONSchemaObject | undefined): Set<string> | undefined {
  if (node === undefined) return new Set();
  if (Array.isArray(node.anyOf)) {
    const all = new Set<string>();
    for (const branch of node.anyOf as JSONSchemaObject[]) {
      const types = sentTypes(branch);
      if (types === undefined) return undefined;
      for (const type of types) all.add(type);
    }
    return all;
  }
  if (typeof node.type !== "string") return undefined;
  const types = new Set([node.type === "integer" ? "number" : node.type]);
  if (node.nullable === true) types.add("null");
  return types;
}

/** Every string an `enum` or `const` of the schema holds. */
function stringLiterals(schema: unknown, into = new Set<string>(), isMap = false): Set<string> {
  if (Array.isArray(schema)) for (const item of schema) stringLiterals(item, into);
  else if (typeof schema === "object" && schema !== null) {
    for (const [key, value] of Object.entries(schema)) {
      if (!isMap && key === "enum" && Array.isArray(value)) {
        for (const v of value) if (typeof v === "string") into.add(v);
      } else if (!isMap && key === "const") {
        if (typeof value === "string") into.add(value);
      } else if (isMap || !["default", "examples", "example"].includes(key))
        stringLiterals(value, into, !isMap && SCHEMA_MAPS.has(key));
    }
  }
  return into;
}

const SCHEMA_MAPS = new Set(["properties", "patternProperties", "$defs", "definitions", "dependentSchemas"]);

/**
 * Where a branch writes values as strings (enum values, JSON text) that a free string of
 * another branch also accepts, an answer could mean either: it is read by the first branch
 * that accepts it, and the report says so.
 */
function reportOverlaps(
  branches: readonly JSONSchemaObject[],
  lowered: readonly Lowered[],
  nonNull: readonly JSONSchemaObject[],
  pointer: string,
  walk: Walk,
): void {
  const lost: string[] = [];
  nonNull.forEach((branch, j) => {
    const { tokens, jsonText } = writtenStrings(lowered[j]!.node, walk.literals);
    if (tokens.length === 0 && !jsonText) return;
    branches.forEach((other, i) => {
      if (other === branch) return;
      for (const leaf of freeStrings(other)) {
        const accepts = acceptsLazily(leaf, {});
        const clash = jsonText ? "any JSON text" : tokens.find((token) => accepts(token));
        if (clash !== undefined) {
          lost.push(
            `anyOf branch ${branches.indexOf(branch)} writes ${JSON.stringify(clash)}, which a string of anyOf ` +
              `branch ${i} also accepts`,
          );
          return;
        }
      }
    });
  });
  if (lost.length > 0)
    walk.log.add(
      childPointer(pointer, "anyOf"),
      "anyOf",
      "lossy",
      `${lost.join("; ")}: such an answer is read by the first branch that accepts it`,
    );
}

/**
 * The strings a lowered schema writes in place of other values: enum tokens, and whether it holds JSON text anywhere.
 */
function writtenStrings(
  node: unknown,
  literals: ReadonlySet<string>,
  out = { tokens: [] as string[], jsonText: false },
): { tokens: string[]; jsonText: boolean } {
  if (typeof node !== "object" || node === null) return out;
  if (Array.isArray(node)) {
    for (const item of node) writtenStrings(item, literals, out);
    return out;
  }
  const n = node as JSONSchemaObject;
  if (Array.isArray(n.enum))
    for (const value of n.enum) if (typeof value === "string" && !literals.has(value)) out.tokens.push(value);
  if (typeof n.description === "string" && n.description.endsWith(ANY_JSON)) out.jsonText = true;
  for (const child of [...Object.values(n.properties ?? {}), n.items, n.anyOf]) writtenStrings(child, literals, out);
  return out;
}

/** The nodes of a schema (as the tool declared it) that take strings other than fixed literals. */
function freeStrings(schema: unknown, out: JSONSchemaObject[] = []): JSONSchemaObject[] {
  if (typeof schema !== "object" || schema === null) return out;
  if (Array.isArray(schema)) {
    for (const item of schema) freeStrings(item, out);
    return out;
  }
  const node = schema as JSONSchemaObject;
  const literal = "enum" in node || "const" in node;
  const takesStrings =
    node.type === "string" ||
    (Array.isArray(node.type) && node.type.includes("string")) ||
    (node.type === undefined &&
      inferType(node) === undefined &&
      !Array.isArray(node.anyOf) &&
      !Array.isArray(node.oneOf) &&
      !Array.isArray(node.allOf));
  if (takesStrings && !literal) out.push(node);
  for (const child of [
    ...Object.values(node.properties ?? {}),
    node.items,
    node.prefixItems,
    node.additionalProperties,
    node.anyOf,
    node.oneOf,
    node.allOf,
  ])
    freeStrings(child, out);
  return out;
}

function lowerObject(
  input: JSONSchemaObject,
  pointer: string,
  walk: Walk,
): { node: JSONSchemaObject; codec: MaybeCodec } {
  let node = input;
  const codecs = new Map<string, MaybeCodec>();
  const renames = new Map<string, string>();
  const dropped = new Set<string>();
  if (node.properties !== undefined) {
    const declared = node.properties as Record<string, unknown>;
    let properties: Record<string, JSONSchemaObject> | undefined; // a copy, made at the first change
    const names = Object.keys(declared);
    for (let i = 0; i < names.length; i++) {
      const name = names[i]!;
      const child = declared[name];
      const validName = GEMINI_PROPERTY_NAME.test(name);
      // Most properties are leaves Gemini takes as they are: no pointer, no copy.
      if (validName && isSchemaObject(child) && isGeminiLeaf(child)) {
        if (properties !== undefined) properties[name] = child;
        codecs.set(name, undefined);
        continue;
      }
      const at = childPointer(pointer, "properties", name);
      const lowered = lowerNode(child, at, walk);
      properties ??= Object.fromEntries(
        names.slice(0, i).map((earlier) => [renames.get(earlier) ?? earlier, declared[earlier] as JSONSchemaObject]),
      );
      if (lowered.node === undefined) {
        dropped.add(name);
        walk.log.add(at, "properties", "dropped", `"${name}" accepts no value (false), so it is not declared`);
        continue;
      }
      const sent = validName ? name : propertyNameFor(name, names, renames);
      if (sent !== name) {
        renames.set(name, sent);
        walk.log.add(
          at,
          "properties",
          "rewritten",
          `property "${name}" declared as "${sent}" (Gemini takes letters, digits and _ only, at most 64); answers ` +
            `are read back under "${name}"`,
        );
      }
      properties[sent] = lowered.node;
      codecs.set(name, lowered.codec);
    }
    if (names.length === 0 || (properties !== undefined && Object.keys(properties).length === 0)) {
      if (names.length === 0)
        walk.log.add(
          childPointer(pointer, "properties"),
          "properties",
          "dropped",
          "an empty properties map is rejected for OBJECT type",
        );
      const { properties: _p, ...rest } = node;
      node = rest;
    } else if (properties !== undefined) node = { ...node, properties };
  }
  if (Array.isArray(node.required)) {
    const declared = (name: string) =>
      input.properties !== undefined &&
      Object.prototype.hasOwnProperty.call(input.properties, name) &&
      !dropped.has(name);
    const known = node.required.filter(declared);
    if (node.required.length === 0)
      walk.log.add(childPointer(pointer, "required"), "required", "dropped", "an empty required list says nothing");
    else if (known.length < node.required.length) {
      const unknown = node.required.filter((name) => !known.includes(name));
      walk.log.add(
        childPointer(pointer, "required"),
        "required",
        "dropped",
        `${unknown.map((n) => `"${n}"`).join(", ")} named no declared property${walk.log.whenRun}`,
      );
    }
    if (known.length < node.required.length || known.length === 0 || renames.size > 0) {
      const { required: _r, ...rest } = node;
      node = known.length > 0 ? { ...rest, required: known.map((name) => renames.get(name) ?? name) } : rest;
    }
  }
  const rest = restCodec(node, pointer, walk);
  return {
    node,
    codec: renamedKeys(objectCodec({ properties: codecs, ...(rest !== undefined ? { rest } : {}) }), renames),
  };
}

/**
 * A property name Gemini takes for `name`: other characters as "_", a letter or _ first, at most 64, unique among its
 * siblings.
 */
function propertyNameFor(name: string, siblings: readonly string[], renames: ReadonlyMap<string, string>): string {
  let base = name.replace(/[^A-Za-z0-9_]/g, "_");
  if (!/^[A-Za-z_]/.test(base)) base = `_${base}`;
  base = base.slice(0, 60);
  const taken = (candidate: string) => siblings.includes(candidate) || [...renames.values()].includes(candidate);
  let candidate = base;
  for (let n = 2; taken(candidate); n++) candidate = `${base}_${n}`;
  return candidate;
}

/**
 * Undeclared keys (`patternProperties`, `additionalProperties`) keep their way back, though Gemini cannot declare them.
 */
function restCodec(node: JSONSchemaObject, pointer: string, walk: Walk): ((key: string) => MaybeCodec) | undefined {
  if (node.patternProperties === undefined && !isSchemaObject(node.additionalProperties)) return undefined;
  const scratch = { log: new ChangeLog(walk.log.tool, walk.log.enforced), literals: walk.literals };
  const patterns: Array<[RegExp, MaybeCodec]> = [];
  for (const [pattern, schema] of Object.entries(
    (node.patternProperties as Record<string, unknown> | undefined) ?? {},
  )) {
    try {
      patterns.push([new RegExp(pattern), lowerNode(schema, "", scratch).codec]);
    } catch {
      // A pattern JavaScript cannot compile matches nothing here; validation reports it.
    }
  }
  const additional = isSchemaObject(node.additionalProperties)
    ? lowerNode(node.additionalProperties, "", scratch).codec
    : undefined;
  // Undeclared keys are not in the declaration, but what their values lose still is.
  for (const change of scratch.log.changes)
    if (change.action === "lossy")
      walk.log.add(`${pointer}/(undeclared keys)${change.pointer}`, change.keyword, "lossy", change.detail);
  if (additional === undefined && patterns.every(([, codec]) => codec === undefined)) return undefined;
  return (key) => {
    const matched = patterns.filter(([pattern]) => pattern.test(key));
    return matched.length > 0 ? matched[0]![1] : additional;
  };
}

function lowerArray(
  input: JSONSchemaObject,
  pointer: string,
  walk: Walk,
): { node: JSONSchemaObject; codec: MaybeCodec } {
  const tuple = tupleOf(input);
  const { prefixItems: _p, additionalItems: _a, ...node } = input;
  if (tuple !== undefined) {
    const key = Array.isArray(input.prefixItems) ? "prefixItems" : "items";
    const positions = tuple.positions.map((schema, i) => lowerNode(schema, childPointer(pointer, key, i), walk));
    // Open unless extra elements are refused (`false`) or `maxItems` leaves no room for them.
    const closed = tuple.rest === false || (typeof input.maxItems === "number" && input.maxItems <= positions.length);
    const restAt = childPointer(pointer, key === "items" ? "additionalItems" : "items");
    const rest = closed
      ? { node: undefined, codec: undefined }
      : tuple.rest === undefined
        ? anything({}, restAt, walk, "elements after the tuple")
        : lowerNode(tuple.rest, restAt, walk);
    const items = distinctSchemas(
      [...positions, rest].map((p) => p.node).filter((n): n is JSONSchemaObject => n !== undefined),
    );
    walk.log.add(
      childPointer(pointer, key),
      key,
      "rewritten",
      `tuple → one item schema${items.length > 1 ? " (anyOf of the positions)" : ""}; each answer is read back by ` +
        `its position's schema, and ${walk.log.holds("the order")}`,
    );
    const lowered: JSONSchemaObject = {
      ...node,
      items: items.length === 1 ? items[0]! : items.length === 0 ? { type: "string" } : { anyOf: items },
    };
    if (closed && (typeof lowered.maxItems !== "number" || lowered.maxItems > positions.length))
      lowered.maxItems = positions.length;
    return {
      node: lowered,
      codec: arrayCodec(
        positions.map((p) => p.codec),
        rest.codec,
      ),
    };
  }
  if (node.items === undefined || (node.items as unknown) === true) {
    const what = anything(
      {},
      childPointer(pointer, "items"),
      walk,
      node.items === undefined ? "an array without items" : "items: true",
    );
    return { node: { ...node, items: what.node }, codec: arrayCodec([], what.codec) };
  }
  const items = lowerNode(node.items, childPointer(pointer, "items"), walk);
  if (items.node === undefined) {
    walk.log.add(
      childPointer(pointer, "items"),
      "items",
      "rewritten",
      "items: false → an array that must be empty (maxItems 0)",
    );
    return { node: { ...node, items: { type: "string" }, maxItems: 0 }, codec: undefined };
  }
  return {
    node: items.node === node.items ? node : { ...node, items: items.node },
    codec: arrayCodec([], items.codec),
  };
}

/**
 * A schema that takes any value: Gemini cannot say "anything", so it is a string holding
 * JSON text, parsed back before the call. Nothing is lost: every value has its JSON text.
 */
function anything(node: JSONSchemaObject, pointer: string, walk: Walk, what: string): Lowered {
  walk.log.add(
    pointer,
    "type",
    "rewritten",
    `${what} (any value) → a string holding JSON text (answers are parsed back before the call)`,
  );
  const out: JSONSchemaObject = { type: "string", description: appendSentence(node.description, ANY_JSON) };
  if (typeof node.title === "string") out.title = node.title;
  if (node.nullable === true) out.nullable = true;
  return { node: out, codec: JSON_TEXT };
}

function inferType(node: JSONSchemaObject): string | undefined {
  if (
    [
      "properties",
      "required",
      "additionalProperties",
      "patternProperties",
      "minProperties",
      "maxProperties",
      "propertyNames",
    ].some((key) => key in node)
  )
    return "object";
  if (
    ["items", "prefixItems", "additionalItems", "minItems", "maxItems", "uniqueItems", "contains"].some(
      (key) => key in node,
    )
  )
    return "array";
  if (["minLength", "maxLength", "pattern"].some((key) => key in node)) return "string";
  if (["minimum", "maximum", "exclusiveMinimum", "exclusiveMaximum", "multipleOf"].some((key) => key in node))
    return "number";
  return undefined;
}

/** Type-specific keywords removed (for a node whose type was replaced). */
function withoutTyped(node: JSONSchemaObject): JSONSchemaObject {
  return Object.fromEntries(Object.entries(node).filter(([key]) => !TYPED_KEYWORDS.has(key))) as JSONSchemaObject;
}

/** Keywords that constrain values (as opposed to annotations), so their drop is worth the note. */
const CHECKED_AT_RUN = new Set([
  "additionalProperties",
  "patternProperties",
  "propertyNames",
  "uniqueItems",
  "multipleOf",
  "dependentRequired",
  "dependentSchemas",
  "if",
  "then",
  "else",
  "contains",
  "minContains",
  "maxContains",
  "contentEncoding",
  "contentMediaType",
  "unevaluatedProperties",
  "unevaluatedItems",
]);

/**
 * A leaf Gemini takes exactly as it is: one named scalar type, known keywords, non-empty
 * string enum values, a format Gemini knows. Most nodes of most schemas are such leaves; they
 * skip the lowering steps, none of which would change them.
 */
function isGeminiLeaf(node: JSONSchemaObject): boolean {
  const { type, format, enum: values } = node;
  if (typeof type !== "string" || type === "null" || type === "object" || type === "array") return false;
  for (const key in node)
    if (!GEMINI_KEYWORDS.has(key) || key === "anyOf" || key === "properties" || key === "items" || key === "required")
      return false;
  if (
    values !== undefined &&
    !(
      Array.isArray(values) &&
      values.length > 0 &&
      type === "string" &&
      values.every((value) => typeof value === "string" && value !== "")
    )
  )
    return false;
  return format === undefined || (typeof format === "string" && GEMINI_FORMATS[type]?.includes(format) === true);
}
