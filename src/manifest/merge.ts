import type { ParamOptions } from "../decorators/metadata";
import { schemaForClass } from "../schema/dto-schema";
import { ParameterSchemaError, schemaForParameter } from "../schema/parameter-schema";
import { isUserClass } from "../schema/scalars";
import { isSchemaObject, type JSONSchemaObject } from "../core/types";
import { looksMinified } from "./minified";
import type { ManifestParameter, ManifestTool } from "./types";

/**
 * How the manifest meets runtime metadata: explicit decorator options (`@Param`
 * options, `@Tool` options, class-validator decorators of DTOs) > manifest > `design:paramtypes`.
 * Everything here is pure: schemas in, schema out.
 */

/** A parameter as the running code declares it: its decorator kind and its name (explicit or from the source). */
export interface RuntimeParameter {
  /** `param` for an undecorated parameter too. */
  kind: ManifestParameter["kind"];
  name?: string;
  /** The name is stated in the code (`@Param("name")`), so a minifier cannot have changed it. */
  named?: boolean;
  /**
   * No parameter decorator describes it (under standard decorators, none ever does): the
   * manifest says what it is, a `param`, or the `ctx` when its type is `ToolContext`.
   */
  undecorated?: boolean;
}

/** Why an entry does not fit the running method; `minified` when the code's parameter names look minified. */
export interface Staleness {
  reason: string;
  minified: boolean;
}

/**
 * Why `entry` no longer describes the running method, or `undefined` when it still does:
 * the tool's name, the number of parameters, a parameter's kind (`@Param`/`@Ctx`/`@Args`) or
 * name differ. This is what a manifest can be checked against without the TypeScript sources.
 * An undecorated parameter fits a `ctx` entry (a parameter typed `ToolContext`: the context
 * under standard decorators, which have no `@Ctx`). It is checked for methods without
 * `@Tool({ input })` only: an entry generated with `input` lists no parameters.
 *
 * Minified code: when only parameter names differ, every name the code reads from its source
 * looks minified (one or two characters), count and kinds match, and the method's code itself
 * looks minified (`methodMinified`, from `methodLooksMinified`), the entry still fits; the
 * manifest's names are used by position (regenerating could not restore the originals). A
 * short name in readable code (`userId` renamed `id`) is a real rename: the entry is stale. Any
 * other difference says whether the code's names look minified.
 */
export function staleReason(
  entry: ManifestTool,
  toolName: string,
  parameters: readonly RuntimeParameter[],
  methodMinified: boolean,
): Staleness | undefined {
  const fromSource = parameters.filter(
    (parameter) => parameter.kind === "param" && parameter.named !== true && parameter.name !== undefined,
  );
  const minified =
    methodMinified && fromSource.length > 0 && fromSource.every((parameter) => looksMinified(parameter.name));
  const stale = (reason: string): Staleness => ({ reason, minified });
  if (entry.name !== undefined && entry.name !== toolName)
    return stale(`it names the tool "${entry.name}", the code "${toolName}"`);
  const listed = entry.parameters;
  if (entry.input === true && parameters.length > 0) {
    return stale(
      `it was generated for @Tool({ input }) and lists no parameters, the method has ${parameters.length} ` +
        `(${parameters.map(show).join(", ")}) and no input`,
    );
  }
  if (listed.length !== parameters.length) {
    return stale(
      `it lists ${listed.length} parameter${listed.length === 1 ? "" : "s"} (${listed.map(show).join(", ")}), the ` +
        `method has ${parameters.length} (${parameters.map(show).join(", ")})`,
    );
  }
  const renamed: Array<{ index: number; recorded: string; code: string; named: boolean }> = [];
  for (const [index, parameter] of parameters.entries()) {
    const recorded = listed[index]!;
    if (recorded.kind === "ctx" && parameter.kind === "param" && parameter.undecorated === true) continue;
    if (recorded.kind !== parameter.kind)
      return stale(
        `parameter ${index} is ${decoratorOf(recorded.kind)} in the manifest, ${decoratorOf(parameter.kind)} in the ` +
          "code",
      );
    if (
      recorded.kind === "param" &&
      recorded.name !== undefined &&
      parameter.name !== undefined &&
      recorded.name !== parameter.name
    ) {
      renamed.push({ index, recorded: recorded.name, code: parameter.name, named: parameter.named === true });
    }
  }
  // A name stated in the code was not minified, so it is a real difference (and reported first).
  const first = renamed.find((difference) => difference.named) ?? renamed[0];
  if (first === undefined || (minified && !first.named)) return undefined;
  return {
    reason: `parameter ${first.index} is "${first.recorded}" in the manifest, "${first.code}" in the code`,
    minified: methodMinified && !first.named && looksMinified(first.code),
  };
}

function show(parameter: { kind: string; name?: string }): string {
  // A ctx recorded from an undecorated parameter keeps its name: shown as written, `ctx: ToolContext`.
  if (parameter.kind === "ctx") return parameter.name !== undefined ? `${parameter.name}: ToolContext` : "@Ctx";
  if (parameter.kind === "args") return "@Args";
  return parameter.name ?? "?";
}

function decoratorOf(kind: string): string {
  return kind === "ctx" ? "@Ctx()" : kind === "args" ? "@Args()" : "@Param";
}

/**
 * The schema of a `@Param` when the manifest has one for it (`fromManifest`):
 * - `@Param({ schema })` replaces everything (the manifest may only add a description);
 * - a DTO class (`@Param({ type })` or `design:paramtypes`, or an array of one): its
 *   class-validator schema completed by the manifest;
 * - `@Param({ type })` / `@Param({ enum })` otherwise decide the type; the manifest adds what they
 *   leave open (descriptions, literal values of elements, ...);
 * - otherwise the manifest's schema, with the other options (constraints, description, default) applied.
 */
export function parameterSchemaWithManifest(
  designType: unknown,
  options: ParamOptions,
  fromManifest: JSONSchemaObject | undefined,
): JSONSchemaObject {
  if (fromManifest === undefined) return schemaForParameter(designType, options);
  if (options.schema !== undefined)
    return fill(schemaForParameter(designType, options), pick(fromManifest, ["description"]), "");
  const { type: explicitType, ...rest } = options;
  // A DTO class (stated, or from design:paramtypes) or an array of one: its class-validator schema, completed by the
  // manifest.
  if (
    isUserClass(explicitType) ||
    (explicitType === undefined && options.enum === undefined && isUserClass(designType))
  ) {
    return applyOptions(classSchema((explicitType ?? designType) as Function, fromManifest), rest);
  }
  if (Array.isArray(explicitType) && explicitType.length === 1 && isUserClass(explicitType[0])) {
    const items = isSchemaObject(fromManifest.items) ? fromManifest.items : {};
    return applyOptions(fill({ type: "array", items: classSchema(explicitType[0], items) }, fromManifest, ""), rest);
  }
  if (explicitType !== undefined || options.enum !== undefined)
    return fill(schemaForParameter(designType, options), fromManifest, "");
  return applyOptions(fromManifest, options);
}

/** The schema of an `@Args` DTO: class-validator's, completed by the manifest. */
export function argsSchemaWithManifest(
  dtoClass: Function,
  fromManifest: JSONSchemaObject | undefined,
): JSONSchemaObject {
  return fromManifest === undefined ? schemaForClass(dtoClass) : classSchema(dtoClass, fromManifest);
}

/**
 * A DTO's schema: class-validator's (which decides the properties), completed by the manifest.
 * A class without validators is still refused as without a manifest: its instances could not
 * be validated when the call runs.
 */
function classSchema(dtoClass: Function, fromManifest: JSONSchemaObject): JSONSchemaObject {
  return dtoWithManifest(schemaForClass(dtoClass), fromManifest);
}

/**
 * class-validator's schema of a DTO, with what only the TypeScript types know filled in
 * (descriptions from JSDoc, literal values, element types). The decorators decide which
 * properties exist and which are required (as with `whitelist: true`); where they and the
 * TypeScript type disagree on a type or on allowed values, that is an error, not a silent pick.
 */
export function dtoWithManifest(fromDecorators: JSONSchemaObject, fromManifest: JSONSchemaObject): JSONSchemaObject {
  return fill(fromDecorators, fromManifest, "", (path, problem) => {
    throw new ParameterSchemaError(
      `${path === "" ? "the DTO" : `property "${path}"`}: class-validator ${problem}. Make the decorators and the ` +
        "type agree",
    );
  });
}

const SCALAR_CONSTRUCTORS: Record<string, Function> = {
  string: String,
  number: Number,
  integer: Number,
  boolean: Boolean,
};
const CONSTRAINT_KEYS = [
  "integer",
  "minimum",
  "maximum",
  "minLength",
  "maxLength",
  "pattern",
  "format",
  "minItems",
  "maxItems",
  "items",
] as const;

/**
 * `@Param` options other than type/enum/schema applied to a schema from the manifest, checked as for metadata-built
 * ones.
 */
function applyOptions(base: JSONSchemaObject, options: ParamOptions): JSONSchemaObject {
  const type = typeof base.type === "string" ? base.type : undefined;
  const scalar = type !== undefined ? SCALAR_CONSTRUCTORS[type] : undefined;
  const tuple = type === "array" && Array.isArray(base.items);
  if (scalar !== undefined || (type === "array" && !tuple)) {
    const ownOptions: ParamOptions =
      type === "array"
        ? { ...options, items: options.items ?? (base.items as JSONSchemaObject | undefined) ?? {} }
        : { ...options, integer: options.integer || type === "integer" };
    return fill(schemaForParameter(scalar ?? Array, ownOptions), base, "");
  }
  for (const key of CONSTRAINT_KEYS) {
    if (tuple && (key === "minItems" || key === "maxItems")) continue;
    if (options[key] !== undefined && options[key] !== false) {
      throw new ParameterSchemaError(
        `${key} applies to a single scalar or array type, but this parameter is ${type ?? "of no single type"}`,
      );
    }
  }
  const out = structuredClone(base);
  if (tuple && options.minItems !== undefined) out.minItems = options.minItems;
  if (tuple && options.maxItems !== undefined) out.maxItems = options.maxItems;
  if (options.description !== undefined) out.description = options.description;
  if (options.default !== undefined) out.default = options.default;
  return out;
}

// ---- filling one schema from another ----

const TYPE_KEYS = ["type", "enum", "const", "anyOf", "oneOf", "allOf", "not", "$ref"];
const COMBINATORS = ["anyOf", "oneOf", "allOf", "not", "$ref"];
const ANNOTATIONS = ["description", "title", "default", "examples"];

type Conflict = (path: string, problem: string) => void;

/**
 * `primary` with what it leaves open taken from `secondary`: keywords it lacks, descriptions,
 * the properties of an object it does not list (only when it lists none), element schemas.
 * Where the two disagree on the type or the allowed values, `conflict` is told (and only
 * annotations are taken); without `conflict`, `primary` simply wins.
 */
export function fill(
  primary: JSONSchemaObject,
  secondary: JSONSchemaObject,
  path: string,
  conflict?: Conflict,
): JSONSchemaObject {
  const out: JSONSchemaObject = { ...primary };
  const annotate = () => {
    for (const key of ANNOTATIONS)
      if (out[key] === undefined && secondary[key] !== undefined) out[key] = structuredClone(secondary[key]);
    return out;
  };
  if (COMBINATORS.some((key) => key in primary)) return annotate();
  const primaryTyped = TYPE_KEYS.some((key) => key in primary);
  if (primaryTyped && TYPE_KEYS.some((key) => key in secondary)) {
    const problem = disagreement(primary, secondary);
    if (problem !== undefined) {
      conflict?.(path, problem);
      return annotate();
    }
  }
  const primaryTypes = typesOf(primary);
  for (const [key, value] of Object.entries(secondary)) {
    if (key === "required") continue;
    if (key === "properties") {
      if (isSchemaObject(out.properties)) {
        const merged: Record<string, JSONSchemaObject> = {};
        for (const [name, own] of Object.entries(out.properties)) {
          const other = (value as Record<string, unknown>)[name];
          merged[name] = isSchemaObject(other)
            ? fill(own, other, path === "" ? name : `${path}.${name}`, conflict)
            : own;
        }
        out.properties = merged;
      } else if (!primaryTyped || primaryTypes?.has("object")) {
        out.properties = structuredClone(value as Record<string, JSONSchemaObject>);
        if (Array.isArray(secondary.required)) out.required = [...(secondary.required as string[])];
      }
      continue;
    }
    if (key === "items") {
      if (isSchemaObject(out.items) && isSchemaObject(value)) out.items = fill(out.items, value, `${path}[]`, conflict);
      else if (out.items === undefined && (!primaryTyped || primaryTypes?.has("array")))
        out.items = structuredClone(value as JSONSchemaObject);
      continue;
    }
    if (out[key] !== undefined) continue;
    if (primaryTyped && (key === "type" || COMBINATORS.includes(key))) continue;
    out[key] = structuredClone(value);
  }
  return out;
}

/** The JSON types a schema admits, when it says (from `type`, else from `enum`/`const` values). */
function typesOf(schema: JSONSchemaObject): Set<string> | undefined {
  if (typeof schema.type === "string") return new Set([schema.type]);
  if (Array.isArray(schema.type)) return new Set(schema.type);
  const values = Array.isArray(schema.enum) ? schema.enum : "const" in schema ? [schema.const] : undefined;
  if (values === undefined) return undefined;
  return new Set(values.map((v) => (v === null ? "null" : Number.isInteger(v) ? "integer" : typeof v)));
}

function disagreement(primary: JSONSchemaObject, secondary: JSONSchemaObject): string | undefined {
  const own = typesOf(primary);
  const other = typesOf(secondary);
  if (own !== undefined && other !== undefined) {
    const admits = (type: string) =>
      other.has(type) || (type === "integer" && other.has("number")) || (type === "number" && other.has("integer"));
    if (![...own].every(admits))
      return `makes it ${[...own].join(" | ")}, but its TypeScript type is ${[...other].join(" | ")}`;
  }
  const allowed = Array.isArray(secondary.enum) ? secondary.enum : "const" in secondary ? [secondary.const] : undefined;
  if (Array.isArray(primary.enum) && allowed !== undefined) {
    const extra = primary.enum.filter((value) => !allowed.some((other) => other === value));
    if (extra.length > 0)
      return (
        `allows ${extra.map((v) => JSON.stringify(v)).join(", ")}, which its TypeScript type does not ` +
        `(${allowed.map((v) => JSON.stringify(v)).join(", ")})`
      );
  }
  return undefined;
}

function pick(schema: JSONSchemaObject, keys: string[]): JSONSchemaObject {
  return Object.fromEntries(keys.filter((key) => schema[key] !== undefined).map((key) => [key, schema[key]]));
}
