import { ExportError } from "../core/errors";
import { childPointer } from "../core/subschemas";
import { isSchemaObject, type JSONSchemaObject } from "../core/types";
import { appendSentence, ChangeLog, definitionAt, hasType, tupleOf, withoutStrictCombinators } from "./lowering";

/**
 * Anthropic's strict tool use (its structured outputs), which Bedrock's Converse `strict` shares: the JSON Schema
 * subset it compiles into a grammar, and the limits it documents.
 */

/** The documented limits, for all strict schemas of one request together. */
export const STRICT_REQUEST_LIMITS = { strictTools: 20, optionalParameters: 24, unionParameters: 16 } as const;

/** String formats strict tool use accepts; others are stated in the description. */
const STRICT_FORMATS = new Set([
  "date-time",
  "time",
  "date",
  "duration",
  "email",
  "hostname",
  "uri",
  "ipv4",
  "ipv6",
  "uuid",
]);

/** Keywords strict tool use takes as they are (`items`, `minItems`, `format` and `pattern` are checked on their own). */
const KEPT = new Set([
  "type",
  "description",
  "title",
  "default",
  "enum",
  "const",
  "anyOf",
  "$ref",
  "$defs",
  "definitions",
  "properties",
  "required",
  "additionalProperties",
  "items",
]);

/** Limits strict tool use cannot say, each as the sentence the description says it with instead. */
const STATED: Readonly<Record<string, (value: unknown) => string | undefined>> = {
  minimum: (value) => `At least ${String(value)}.`,
  exclusiveMinimum: (value) => (typeof value === "number" ? `Greater than ${value}.` : undefined),
  maximum: (value) => `At most ${String(value)}.`,
  exclusiveMaximum: (value) => (typeof value === "number" ? `Less than ${value}.` : undefined),
  multipleOf: (value) => `A multiple of ${String(value)}.`,
  minLength: (value) => `At least ${String(value)} characters.`,
  maxLength: (value) => `At most ${String(value)} characters.`,
  minItems: (value) => `At least ${String(value)} items.`,
  maxItems: (value) => `At most ${String(value)} items.`,
  uniqueItems: (value) => (value === true ? "No two items are equal." : undefined),
  minProperties: (value) => `At least ${String(value)} properties.`,
  maxProperties: (value) => `At most ${String(value)} properties.`,
  format: (value) => `Format: ${String(value)}.`,
  pattern: (value) => `Matches the regular expression ${JSON.stringify(value)}.`,
  contentEncoding: (value) => `Encoded as ${String(value)}.`,
  contentMediaType: (value) => `Media type: ${String(value)}.`,
  examples: (value) =>
    Array.isArray(value) ? `Examples: ${value.map((v) => JSON.stringify(v)).join(", ")}.` : undefined,
};

/** Regular-expression features strict tool use refuses: backreferences, lookaround, word boundaries. */
const UNSUPPORTED_REGEX = /\\[1-9]|\\k<|\(\?<?[=!]|\\[bB]/;

/** The largest repetition count kept in a pattern (Anthropic refuses "large ranges" and names no bound). */
const MAX_REPETITION = 100;

/** Whether strict tool use takes `pattern` as it is. */
function simplePattern(pattern: string): boolean {
  if (UNSUPPORTED_REGEX.test(pattern)) return false;
  for (const [, low, high] of pattern.matchAll(/\{(\d*),?(\d*)\}/g))
    if (Number(low || 0) > MAX_REPETITION || Number(high || 0) > MAX_REPETITION) return false;
  return true;
}

/**
 * `root` (a plain object root) as a strict tool's schema, with its changes added to `log`; `undefined` when it cannot be
 * strict, which `log` then says, with the reason (the tool is then declared without `strict`). Every object is closed;
 * limits strict tool use cannot say are stated in descriptions instead; `oneOf` becomes `anyOf` and `allOf` one merged
 * schema. Recursive schemas, objects open to further keys, enums of objects and tuples cannot be strict.
 */
export function strictSchema(root: JSONSchemaObject, log: ChangeLog): JSONSchemaObject | undefined {
  const walk = new StrictWalk(root, new ChangeLog(log.tool, log.enforced));
  const schema = walk.run();
  if (walk.unstrictable !== undefined) {
    log.add("", "strict", "disabled", `${walk.unstrictable}; this tool is declared without strict: true`);
    return undefined;
  }
  log.changes.push(...walk.log.changes);
  return schema;
}

/** What a strict schema counts toward the request's limits. */
export interface StrictWeight {
  /** Properties not listed in their object's `required`. */
  optionalParameters: number;
  /** Schemas with `anyOf` or a list of types. */
  unionParameters: number;
}

export function strictWeight(schema: unknown): StrictWeight {
  const weight: StrictWeight = { optionalParameters: 0, unionParameters: 0 };
  const visit = (node: unknown): void => {
    if (Array.isArray(node)) return node.forEach(visit);
    if (!isSchemaObject(node)) return;
    if (Array.isArray(node.anyOf) || Array.isArray(node.type)) weight.unionParameters++;
    const required = new Set(node.required ?? []);
    for (const [name, child] of Object.entries(node.properties ?? {})) {
      if (!required.has(name)) weight.optionalParameters++;
      visit(child);
    }
    for (const key of ["$defs", "definitions"]) Object.values((node[key] as object | undefined) ?? {}).forEach(visit);
    visit(node.items);
    visit(node.anyOf);
  };
  visit(schema);
  return weight;
}

/**
 * Throws when the strict tools of one request pass a documented limit: the request would be refused. `provider` names
 * the provider in the message.
 */
export function checkStrictRequest(provider: string, strict: ReadonlyArray<{ name: string; schema: unknown }>): void {
  const { strictTools, optionalParameters, unionParameters } = STRICT_REQUEST_LIMITS;
  const fewer =
    "mark fewer tools strict (a tool's own strict: false, or export without { strict: true }), or split the tools " +
    "across requests";
  if (strict.length > strictTools)
    throw new ExportError(
      `${strict.length} tools are declared strict, and ${provider} takes at most ${strictTools} strict tools in one ` +
        `request: ${fewer}.`,
    );
  const total = strict.reduce<StrictWeight>(
    (sum, tool) => {
      const weight = strictWeight(tool.schema);
      return {
        optionalParameters: sum.optionalParameters + weight.optionalParameters,
        unionParameters: sum.unionParameters + weight.unionParameters,
      };
    },
    { optionalParameters: 0, unionParameters: 0 },
  );
  if (total.optionalParameters > optionalParameters)
    throw new ExportError(
      `The strict tools have ${total.optionalParameters} optional parameters in all, and ${provider} takes at most ` +
        `${optionalParameters} across one request's strict tools: make parameters required, or ${fewer}.`,
    );
  if (total.unionParameters > unionParameters)
    throw new ExportError(
      `The strict tools have ${total.unionParameters} schemas with anyOf or a list of types in all, and ${provider} ` +
        `takes at most ${unionParameters} across one request's strict tools: ${fewer}.`,
    );
}

/** One walk to the strict form: the schema, and the first reason it cannot be strict. */
class StrictWalk {
  unstrictable: string | undefined;

  constructor(
    private readonly root: JSONSchemaObject,
    readonly log: ChangeLog,
  ) {}

  run(): JSONSchemaObject {
    const recursion = recursiveReference(this.root);
    if (recursion !== undefined) this.#refuse(recursion.pointer, `a recursive reference (${recursion.ref})`);
    const schema = this.node(this.root, "");
    for (const key of ["$defs", "definitions"] as const) {
      const definitions = this.root[key];
      if (!isSchemaObject(definitions)) continue;
      schema[key] = Object.fromEntries(
        Object.entries(definitions).map(([name, definition]) => [
          name,
          this.node(definition, childPointer("", key, name)),
        ]),
      );
    }
    const weight = strictWeight(schema);
    if (weight.optionalParameters > STRICT_REQUEST_LIMITS.optionalParameters)
      this.#refuse(
        "",
        `${weight.optionalParameters} optional parameters (strict tool use takes ` +
          `${STRICT_REQUEST_LIMITS.optionalParameters} in one request)`,
      );
    if (weight.unionParameters > STRICT_REQUEST_LIMITS.unionParameters)
      this.#refuse(
        "",
        `${weight.unionParameters} schemas with anyOf or a list of types (strict tool use takes ` +
          `${STRICT_REQUEST_LIMITS.unionParameters} in one request)`,
      );
    return schema;
  }

  #refuse(pointer: string, why: string): void {
    this.unstrictable ??= `${why} at ${pointer || "/"}`;
  }

  node(input: unknown, pointer: string): JSONSchemaObject {
    if (
      !isSchemaObject(input) ||
      Object.keys(input).every((key) => ["description", "title", "default"].includes(key))
    ) {
      this.#refuse(pointer, "a schema that accepts any value (strict tool use needs a type on every schema)");
      return isSchemaObject(input) ? input : {};
    }
    let node: JSONSchemaObject = { ...input };
    if (typeof node.$ref === "string") {
      if (!node.$ref.startsWith("#")) this.#refuse(pointer, `an external reference (${node.$ref})`);
      this.#keepOnlySupported(node, pointer);
      return node;
    }
    node = withoutStrictCombinators(node, this.root, pointer, this.log, {
      allOf: "every object of strict tool use is closed, so its branches cannot each stand",
      oneOf: "strict tool use has no oneOf; ",
    });
    this.#keepOnlySupported(node, pointer);
    const values = "const" in node ? [node.const] : Array.isArray(node.enum) ? node.enum : undefined;
    if (values?.some((value) => typeof value === "object" && value !== null))
      this.#refuse(pointer, "an enum or const with object or array values");
    if (Array.isArray(node.anyOf))
      node.anyOf = node.anyOf.map((branch, i) => this.node(branch, childPointer(pointer, "anyOf", i)));
    else if (node.type === undefined && values === undefined) this.#inferType(node, pointer);
    if (hasType(node, "object")) this.#object(node, pointer);
    if (hasType(node, "array")) this.#array(node, pointer);
    return node;
  }

  /** Keeps what strict tool use takes; states limits it cannot say in the description; drops the rest, logged. */
  #keepOnlySupported(node: JSONSchemaObject, pointer: string): void {
    for (const key of Object.keys(node)) {
      const value = node[key];
      if (KEPT.has(key) || (key === "minItems" && (value === 0 || value === 1))) continue;
      if (key === "format" && typeof value === "string" && STRICT_FORMATS.has(value)) continue;
      if (key === "pattern" && typeof value === "string" && simplePattern(value)) continue;
      const at = childPointer(pointer, key);
      const sentence = STATED[key]?.(value);
      if (sentence !== undefined) {
        this.log.add(
          at,
          key,
          "moved",
          `${key} ${JSON.stringify(value)} is not part of strict tool use; stated in the description instead` +
            this.log.whenRun,
        );
        node.description = appendSentence(node.description, sentence);
      } else this.log.add(at, key, "dropped", `${key} is not part of strict tool use${this.log.whenRun}`);
      delete node[key];
    }
  }

  #inferType(node: JSONSchemaObject, pointer: string): void {
    const inferred =
      "properties" in node || "required" in node ? "object" : "items" in node || "prefixItems" in node ? "array" : "";
    if (inferred === "") return this.#refuse(pointer, "a schema without a type");
    node.type = inferred;
    this.log.add(
      childPointer(pointer, "type"),
      "type",
      "added",
      `type "${inferred}" added (strict tool use needs a type on every schema)`,
    );
  }

  /** Every property walked (one that accepts nothing is not declared), the object closed. */
  #object(node: JSONSchemaObject, pointer: string): void {
    const declared = (node.properties ?? {}) as Record<string, unknown>;
    if (node.additionalProperties !== undefined && node.additionalProperties !== false)
      return this.#refuse(pointer, "an object that takes keys beyond its declared properties");
    if (Object.keys(declared).length === 0 && node.additionalProperties !== false)
      return this.#refuse(pointer, "an object with no declared properties (a free-form object)");
    const properties: Record<string, JSONSchemaObject> = {};
    for (const [name, child] of Object.entries(declared)) {
      const at = childPointer(pointer, "properties", name);
      if (child === false) {
        this.log.add(at, "properties", "dropped", `"${name}" accepts no value (false), so it is not declared`);
        continue;
      }
      properties[name] = this.node(child, at);
    }
    node.properties = properties;
    const ghosts = (node.required ?? []).filter((name) => !Object.prototype.hasOwnProperty.call(properties, name));
    if (ghosts.length > 0) {
      this.log.add(
        childPointer(pointer, "required"),
        "required",
        "dropped",
        `${ghosts.map((name) => `"${name}"`).join(", ")} named no declared property${this.log.whenRun}`,
      );
      node.required = node.required!.filter((name) => !ghosts.includes(name));
      if (node.required.length === 0) delete node.required;
    }
    if (node.additionalProperties !== false) {
      this.log.add(
        childPointer(pointer, "additionalProperties"),
        "additionalProperties",
        "lossy",
        "additionalProperties: false added (strict tool use closes every object): keys the schema does not declare " +
          "can no longer be sent",
      );
      node.additionalProperties = false;
    }
  }

  /** One schema for every item: tuples and arrays of any items cannot be strict. */
  #array(node: JSONSchemaObject, pointer: string): void {
    if (tupleOf(node) !== undefined)
      return this.#refuse(pointer, "a tuple (strict tool use takes one schema for every item)");
    for (const key of ["prefixItems", "additionalItems"]) {
      if (!(key in node)) continue;
      this.log.add(childPointer(pointer, key), key, "dropped", `${key} without a tuple says nothing`);
      delete node[key];
    }
    if (!isSchemaObject(node.items)) return this.#refuse(pointer, "an array without an item schema");
    node.items = this.node(node.items, childPointer(pointer, "items"));
  }
}

/** The first reference that leads back to itself (directly or through other definitions), or `undefined`. */
function recursiveReference(root: JSONSchemaObject): { ref: string; pointer: string } | undefined {
  const onPath = new Set<string>();
  const done = new Set<string>();
  const follow = (node: unknown, pointer: string): { ref: string; pointer: string } | undefined => {
    if (Array.isArray(node)) {
      for (const [i, item] of node.entries()) {
        const found = follow(item, childPointer(pointer, i));
        if (found !== undefined) return found;
      }
      return undefined;
    }
    if (!isSchemaObject(node)) return undefined;
    const ref = node.$ref;
    if (typeof ref === "string" && ref.startsWith("#")) {
      if (ref === "#" || onPath.has(ref)) return { ref, pointer: childPointer(pointer, "$ref") };
      const target = definitionAt(root, ref);
      if (target !== undefined && !done.has(ref)) {
        onPath.add(ref);
        const found = follow(target, pointer);
        onPath.delete(ref);
        done.add(ref);
        if (found !== undefined) return found;
      }
    }
    for (const [key, value] of Object.entries(node)) {
      // Definitions are reached through references, and `const`, `enum` and `default` hold values, not schemas.
      if (["$defs", "definitions", "const", "enum", "default", "examples"].includes(key)) continue;
      if (typeof value === "object" && value !== null) {
        const found = follow(value, childPointer(pointer, key));
        if (found !== undefined) return found;
      }
    }
    return undefined;
  };
  return follow(root, "");
}
