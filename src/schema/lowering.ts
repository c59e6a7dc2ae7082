import { isSchemaObject, type JSONSchemaObject } from "../core/types";
import { canonicalSchema, inlineRefs } from "./canonical";
import { childPointer } from "../core/subschemas";
import { definitionNamed } from "./references";

/** One change a provider dialect made to a tool's schema. */
export interface SchemaChange {
  /** The tool whose schema changed; `"*"` for a change made to several tools at once, which the detail names. */
  tool: string;
  /** Set when the change is to the tool's `outputSchema` (as a declaration of its results); left out: its `inputSchema`. */
  schema?: "outputSchema";
  /** JSON Pointer into the tool's `inputSchema` (its `outputSchema` where `schema` says so; "" is the root). */
  pointer: string;
  keyword: string;
  /**
   * What happened. `lossy`: some values valid for the tool can no longer be sent as such; the
   * detail says which, and what a model's answer is then read as.
   */
  action: "dropped" | "rewritten" | "inlined" | "moved" | "cut" | "added" | "disabled" | "lossy";
  detail: string;
}

/**
 * Collects the changes of one tool's lowering. `enforced` says whether the tool checks its
 * arguments against its own schema when called (for an `outputSchema`, its results against
 * that), so a note about a dropped keyword says honestly whether the keyword still holds.
 */
export class ChangeLog {
  readonly changes: SchemaChange[] = [];
  constructor(
    readonly tool: string,
    readonly enforced: boolean | undefined,
    /** Which of the tool's schemas is lowered. */
    readonly schema: "inputSchema" | "outputSchema" = "inputSchema",
  ) {}

  add(pointer: string, keyword: string, action: SchemaChange["action"], detail: string): void {
    this.changes.push({
      tool: this.tool,
      ...(this.schema === "outputSchema" ? { schema: this.schema } : {}),
      pointer,
      keyword,
      action,
      detail,
    });
  }

  /** Whether `subject`, which the declaration no longer says, still holds when the call runs. */
  holds(subject: string): string {
    if (this.schema === "outputSchema") {
      if (this.enforced === true) return `${subject} is still checked on each result`;
      if (this.enforced === false) return `${subject} is not checked: this tool does not check its results`;
      return `${subject} is checked only if the tool checks its results`;
    }
    if (this.enforced === true) return `${subject} is still enforced when the call runs`;
    if (this.enforced === false) return `${subject} is not enforced: this tool does not validate its arguments`;
    return `${subject} is enforced only if the tool validates its arguments`;
  }

  /** The parenthesis that ends a note about a keyword the declaration no longer says. */
  get whenRun(): string {
    return ` (${this.holds("it")})`;
  }
}

function containsRef(node: unknown): boolean {
  if (typeof node !== "object" || node === null) return false;
  if (Array.isArray(node)) return node.some(containsRef);
  for (const key in node) {
    const value = (node as Record<string, unknown>)[key];
    if (key === "$ref" && typeof value === "string") return true;
    if (typeof value === "object" && containsRef(value)) return true;
  }
  return false;
}

/** How many times a recursive `$ref` is unfolded before it is cut (Gemini cannot refer). */
export const RECURSION_DEPTH = 3;

/**
 * Inlines `$ref`s into a self-contained schema. Recursive references are unfolded
 * `RECURSION_DEPTH` times, then replaced by a plain object, and each cut is logged. A copy that
 * grows past `MAX_SCHEMA_SIZE` throws `SchemaSizeError` (see `inlineRefs`).
 */
export function inlineAllRefs(schema: JSONSchemaObject, log: ChangeLog): JSONSchemaObject {
  const definitions = {
    ...(schema.definitions as object | undefined),
    ...(schema.$defs as object | undefined),
  } as Record<string, unknown>;
  if (!containsRef(schema)) return schema;
  const inlined = inlineRefs(schema, definitions, (chain, pointer) => {
    const name = chain[chain.length - 1]!;
    if (chain.filter((n) => n === name).length <= RECURSION_DEPTH) return undefined;
    log.add(
      pointer,
      "$ref",
      "cut",
      `recursive reference ${chain.join(" → ")} cut after ${RECURSION_DEPTH} levels: deeper levels are declared as ` +
        `any value${log.whenRun}`,
    );
    // No type: a dialect that cannot say "any value" writes it its own way (Gemini: JSON text).
    return { description: `(${name}, nested deeper than ${RECURSION_DEPTH} levels)` };
  }) as JSONSchemaObject;
  log.add("", "$ref", "inlined", `references to ${Object.keys(definitions).join(", ")} inlined`);
  return inlined;
}

/** What a provider's root may not have: combinators, and constraints on the object as a whole. */
const NOT_AT_ROOT = ["allOf", "anyOf", "oneOf", "not", "enum", "const"] as const;

/**
 * For providers that take a plain object at the root (all of them): root `allOf` branches are
 * merged in; root `anyOf`/`oneOf` branches become one object whose properties are all the
 * branches' properties (a property in several branches takes any of their schemas) and whose
 * required names are those every branch requires; root `not`, `enum` and `const` are dropped.
 * Every value valid for the tool stays valid for the merged root; what it no longer says is
 * logged. Returns the schema itself when its root is already plain.
 */
export function plainObjectRoot(input: JSONSchemaObject, log: ChangeLog): JSONSchemaObject & { type: "object" } {
  const schema = rootWithoutRef(input, log);
  if (schema.type === "object" && !NOT_AT_ROOT.some((key) => key in schema))
    return schema as JSONSchemaObject & { type: "object" };
  let root: JSONSchemaObject = { ...schema };
  if (schema.type !== "object")
    log.add(
      "/type",
      "type",
      schema.type === undefined ? "added" : "rewritten",
      `root type ${JSON.stringify(schema.type)} → "object"`,
    );
  root.type = "object";
  for (const key of ["not", "enum", "const"] as const) {
    if (!(key in root)) continue;
    log.add(`/${key}`, key, "dropped", `${key} is not allowed at the root${log.whenRun}`);
    delete root[key];
  }
  root = mergedObject(root, schema, "", log);
  root.type = "object";
  return root as JSONSchemaObject & { type: "object" };
}

/**
 * A root that is a `$ref` (as typescript-json-schema writes it) replaced by the definition it
 * points at, the definitions kept for the references inside.
 */
export function rootWithoutRef(schema: JSONSchemaObject, log: ChangeLog): JSONSchemaObject {
  const resolved = withRefResolved(schema, schema);
  if (resolved !== schema)
    log.add("/$ref", "$ref", "inlined", `the root reference ${String(schema.$ref)} replaced by its definition`);
  return resolved;
}

/**
 * The definition a local reference (`#/$defs/X` or `#/definitions/X`, a JSON Pointer: percent-encoded, `~1` for "/",
 * `~0` for "~") names in `root`, if any.
 */
export function definitionAt(root: JSONSchemaObject, ref: unknown): JSONSchemaObject | undefined {
  const named = definitionNamed(ref);
  if (named === undefined) return undefined;
  const definitions = root[named.keyword];
  if (!isSchemaObject(definitions) || !Object.prototype.hasOwnProperty.call(definitions, named.name)) return undefined;
  const target = (definitions as Record<string, unknown>)[named.name];
  return isSchemaObject(target) ? target : undefined;
}

/**
 * A schema that is a reference to a definition of `root`, as that definition (its other keywords kept); any other as it
 * is.
 */
export function withRefResolved(schema: JSONSchemaObject, root: JSONSchemaObject): JSONSchemaObject {
  const target = definitionAt(root, schema.$ref);
  if (target === undefined) return schema;
  const { $ref: _ref, ...siblings } = schema;
  return { ...target, ...siblings };
}

/**
 * An object schema whose `allOf` / `anyOf` / `oneOf` branches are objects, as one object:
 * `allOf` merged in; `anyOf`/`oneOf` united (a property of several branches takes any of their
 * schemas; only what every branch requires is required). Every value valid before stays valid;
 * which combinations are allowed is logged as no longer said. `root` resolves `$ref` branches.
 */
export function mergedObject(
  node: JSONSchemaObject,
  root: JSONSchemaObject,
  pointer: string,
  log: ChangeLog,
): JSONSchemaObject {
  let out = node;
  // Branches that are references to definitions are merged as the definitions they name.
  const resolved = (branch: JSONSchemaObject) => withRefResolved(branch, root);
  if (Array.isArray(out.allOf)) {
    const { allOf, ...rest } = out;
    log.add(childPointer(pointer, "allOf"), "allOf", "rewritten", "allOf merged into one object");
    out = mergeAllOf(rest, (allOf as unknown[]).filter(isSchemaObject).map(resolved));
  }
  for (const key of ["anyOf", "oneOf"] as const) {
    if (!Array.isArray(out[key])) continue;
    const { [key]: branches, ...rest } = out;
    const objects = (branches as unknown[])
      .filter(isSchemaObject)
      .map(resolved)
      .map((branch) =>
        Array.isArray(branch.allOf) ? mergeAllOf(branch, branch.allOf.filter(isSchemaObject).map(resolved)) : branch,
      );
    log.add(
      childPointer(pointer, key),
      key,
      "rewritten",
      `${key} of ${objects.length} object${objects.length === 1 ? "" : "s"} merged into one object (a property of ` +
        "several branches takes any of their schemas; only what every branch requires is required); " +
        `${log.holds("which combinations are allowed")}`,
    );
    out = mergeUnion(rest, objects);
  }
  return out;
}

/** One object for "one of these objects": properties united (anyOf where branches differ), required intersected. */
function mergeUnion(base: JSONSchemaObject, branches: JSONSchemaObject[]): JSONSchemaObject {
  const properties: Record<string, JSONSchemaObject[]> = {};
  for (const source of [base, ...branches]) {
    for (const [name, child] of Object.entries(source.properties ?? {})) {
      const list = (properties[name] ??= []);
      if (!list.some((known) => JSON.stringify(known) === JSON.stringify(child))) list.push(child);
    }
  }
  const required = new Set(base.required ?? []);
  const common =
    branches.length === 0 ? [] : branches.map((b) => new Set([...(b.required ?? []), ...(base.required ?? [])]));
  const allRequire = (name: string) => common.length > 0 && common.every((set) => set.has(name));
  for (const name of Object.keys(properties)) if (allRequire(name)) required.add(name);
  const out: JSONSchemaObject = { ...base };
  if (Object.keys(properties).length > 0) {
    out.properties = Object.fromEntries(
      Object.entries(properties).map(([name, list]) => [name, list.length === 1 ? list[0]! : { anyOf: list }]),
    );
  }
  if (required.size > 0) out.required = [...required];
  else delete out.required;
  // Some branch leaves extra keys open: the merged object cannot close them.
  if (branches.some((branch) => branch.additionalProperties !== false)) delete out.additionalProperties;
  return out;
}

/**
 * `allOf` branches merged into one schema: properties united (a property in several branches
 * merged the same way), required united, numeric bounds the tightest, and for other keywords
 * the node's own value first, then the earliest branch's.
 */
export function mergeAllOf(node: JSONSchemaObject, branches: JSONSchemaObject[]): JSONSchemaObject {
  return branches.reduce<JSONSchemaObject>((into, next) => {
    const merged: JSONSchemaObject = { ...next, ...into };
    if (into.properties || next.properties) merged.properties = mergedProperties(into.properties, next.properties);
    if (into.required || next.required)
      merged.required = [...new Set([...(into.required ?? []), ...(next.required ?? [])])];
    for (const key of ["minimum", "exclusiveMinimum", "minLength", "minItems", "minProperties"])
      tighten(merged, into, next, key, Math.max);
    for (const key of ["maximum", "exclusiveMaximum", "maxLength", "maxItems", "maxProperties"])
      tighten(merged, into, next, key, Math.min);
    if (Array.isArray(into.allOf) || Array.isArray(next.allOf)) {
      const nested = [
        ...((into.allOf as JSONSchemaObject[] | undefined) ?? []),
        ...((next.allOf as JSONSchemaObject[] | undefined) ?? []),
      ];
      delete merged.allOf;
      return mergeAllOf(merged, nested.filter(isSchemaObject));
    }
    return merged;
  }, node);
}

function tighten(
  out: JSONSchemaObject,
  a: JSONSchemaObject,
  b: JSONSchemaObject,
  key: string,
  pick: (x: number, y: number) => number,
): void {
  if (typeof a[key] === "number" && typeof b[key] === "number") out[key] = pick(a[key] as number, b[key] as number);
}

function mergedProperties(
  first: JSONSchemaObject["properties"],
  second: JSONSchemaObject["properties"],
): Record<string, JSONSchemaObject> {
  const out = { ...first };
  for (const [name, schema] of Object.entries(second ?? {})) {
    const known = out[name];
    out[name] =
      known === undefined
        ? schema
        : isSchemaObject(known) && isSchemaObject(schema)
          ? mergeAllOf(known, [schema])
          : schema;
  }
  return out;
}

/** The draft-7 tuple (`items: [...]`) or 2020-12 tuple (`prefixItems`) of an array node, and what may follow it. */
export function tupleOf(node: JSONSchemaObject): { positions: unknown[]; rest: unknown } | undefined {
  const tuple: { positions: unknown[]; rest: unknown } | undefined = Array.isArray(node.prefixItems)
    ? { positions: node.prefixItems, rest: node.items }
    : Array.isArray(node.items)
      ? { positions: node.items, rest: node.additionalItems }
      : undefined;
  // A position that takes no value (`false`) ends the tuple there.
  const end = tuple?.positions.indexOf(false) ?? -1;
  return tuple === undefined || end === -1 ? tuple : { positions: tuple.positions.slice(0, end), rest: false };
}

/** Schemas with deep-equal duplicates removed (first kept). */
export function distinctSchemas(nodes: JSONSchemaObject[]): JSONSchemaObject[] {
  const seen = new Set<string>();
  return nodes.filter((node) => {
    const key = JSON.stringify(canonicalSchema(node));
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
}

export function appendSentence(text: unknown, sentence: string): string {
  return typeof text === "string" && text.length > 0 ? `${text} ${sentence}` : sentence;
}

/** Whether `node` takes values of `type` (its `type` is it, or lists it). */
export function hasType(node: JSONSchemaObject, type: string): boolean {
  return node.type === type || (Array.isArray(node.type) && node.type.includes(type as never));
}

/** Why a strict form rewrites combinators, in its own words: the notes `withoutStrictCombinators` logs. */
export interface CombinatorNotes {
  /** Why `allOf` is merged (the parenthesis of its note). */
  allOf: string;
  /** What comes before the note's "exactly-one" clause when `oneOf` is read as `anyOf` ("" for nothing). */
  oneOf: string;
}

/**
 * `node` as strict forms (OpenAI's strict mode, Anthropic's strict tool use) take it: they close
 * every object, so an object's branches become one object; `allOf` is merged (a branch that refers
 * to a definition as that definition); `oneOf` is read as `anyOf`. Each rewrite is logged.
 */
export function withoutStrictCombinators(
  input: JSONSchemaObject,
  root: JSONSchemaObject,
  pointer: string,
  log: ChangeLog,
  notes: CombinatorNotes,
): JSONSchemaObject {
  let node = input;
  const isObjectNode =
    hasType(node, "object") || (node.type === undefined && ("properties" in node || "required" in node));
  if (isObjectNode && ["allOf", "anyOf", "oneOf"].some((key) => Array.isArray(node[key])))
    node = mergedObject(node, root, pointer, log);
  if (Array.isArray(node.allOf)) {
    const { allOf, ...rest } = node;
    log.add(childPointer(pointer, "allOf"), "allOf", "rewritten", `allOf merged into one schema (${notes.allOf})`);
    node = mergeAllOf(
      rest,
      (allOf as unknown[]).filter(isSchemaObject).map((branch) => withRefResolved(branch, root)),
    );
  }
  if (Array.isArray(node.oneOf)) {
    const { oneOf, ...rest } = node;
    log.add(
      childPointer(pointer, "oneOf"),
      "oneOf",
      "rewritten",
      `oneOf → anyOf (${notes.oneOf}${log.holds("exactly-one")})`,
    );
    node = { ...rest, anyOf: [...((rest.anyOf as unknown[] | undefined) ?? []), ...(oneOf as unknown[])] };
  }
  return node;
}
