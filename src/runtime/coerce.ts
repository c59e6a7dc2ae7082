import { elementSchema, type JSONSchemaObject } from "../core/types";

// Unambiguous alternatives: no catastrophic backtracking on long digit runs.
const NUMERIC = /^\s*-?(?:\d+(?:\.\d*)?|\.\d+)(?:[eE][+-]?\d+)?\s*$/;

/**
 * Models often send "42" or "true" where a number or boolean is declared. Returns `value`
 * with such scalar strings converted where the schema says number/integer/boolean, copying
 * only the objects it changes (the caller's object is never mutated).
 */
export function coerceScalars(schema: JSONSchemaObject | undefined, value: unknown): unknown {
  if (schema === undefined) return value;
  if (typeof value === "string") {
    // A schema that also takes strings keeps the string as sent.
    if (admits(schema, "string")) return value;
    if ((admits(schema, "number") || admits(schema, "integer")) && NUMERIC.test(value)) {
      const parsed = Number(value);
      return Number.isFinite(parsed) ? parsed : value;
    }
    if (admits(schema, "boolean") && (value === "true" || value === "false")) return value === "true";
    return value;
  }
  if (Array.isArray(value)) {
    if (schema.items === undefined) return value;
    let copy: unknown[] | undefined;
    value.forEach((item, index) => {
      const coerced = coerceScalars(elementSchema(schema, index), item);
      if (coerced !== item) (copy ??= [...value])[index] = coerced;
    });
    return copy ?? value;
  }
  if (typeof value === "object" && value !== null && schema.properties !== undefined) {
    let copy: Record<string, unknown> | undefined;
    for (const [key, propertySchema] of Object.entries(schema.properties)) {
      if (!Object.prototype.hasOwnProperty.call(value, key)) continue;
      const current = (value as Record<string, unknown>)[key];
      const coerced = coerceScalars(propertySchema, current);
      if (coerced !== current) (copy ??= { ...(value as Record<string, unknown>) })[key] = coerced;
    }
    return copy ?? value;
  }
  return value;
}

/** Whether `schema` declares `type` for a value: by `type` (one or a list) or in an `anyOf`/`oneOf` branch. */
function admits(schema: JSONSchemaObject, type: string): boolean {
  const declared = schema.type;
  if (declared === type || (Array.isArray(declared) && declared.includes(type as never))) return true;
  const branches = (schema.anyOf ?? schema.oneOf) as JSONSchemaObject[] | undefined;
  return Array.isArray(branches) && branches.some((branch) => admits(branch, type));
}

function acceptsNull(schema: JSONSchemaObject | undefined): boolean {
  if (schema === undefined) return true;
  const { type } = schema;
  if (type === "null" || (Array.isArray(type) && type.includes("null")) || schema.nullable === true) return true;
  if (Array.isArray(schema.enum) && schema.enum.includes(null)) return true;
  return Array.isArray(schema.anyOf) && (schema.anyOf as JSONSchemaObject[]).some(acceptsNull);
}

/**
 * `null` for an optional property means "not given" (OpenAI strict mode sends it for every
 * optional value; class-validator's @IsOptional reads it the same way). Removes such keys,
 * at every depth, unless the schema accepts null there. Copies only what it changes.
 */
export function dropNullOptionals(schema: JSONSchemaObject | undefined, value: unknown): unknown {
  if (schema === undefined || typeof value !== "object" || value === null) return value;
  if (Array.isArray(value)) {
    if (schema.items === undefined) return value;
    let copy: unknown[] | undefined;
    value.forEach((item, index) => {
      const cleaned = dropNullOptionals(elementSchema(schema, index), item);
      if (cleaned !== item) (copy ??= [...value])[index] = cleaned;
    });
    return copy ?? value;
  }
  if (schema.properties === undefined) return value;
  const required = new Set(schema.required ?? []);
  let copy: Record<string, unknown> | undefined;
  for (const [key, propertySchema] of Object.entries(schema.properties)) {
    if (!Object.prototype.hasOwnProperty.call(value, key)) continue;
    const current = (value as Record<string, unknown>)[key];
    if (current === null && !required.has(key) && !acceptsNull(propertySchema)) {
      copy ??= { ...(value as Record<string, unknown>) };
      delete copy[key];
      continue;
    }
    const cleaned = dropNullOptionals(propertySchema, current);
    if (cleaned !== current) (copy ??= { ...(value as Record<string, unknown>) })[key] = cleaned;
  }
  return copy ?? value;
}

/**
 * `dropNullOptionals` (and, with `coerce`, `coerceScalars`) for a tool's root schema, planned
 * once: one pass over the declared properties, nothing allocated unless a value changes.
 * Deeper levels use the general functions.
 */
export function compileArgumentCleaner(
  schema: JSONSchemaObject,
  { coerce }: { coerce: boolean },
): (args: Record<string, unknown>) => Record<string, unknown> {
  const properties = schema.properties;
  if (properties === undefined) return (args) => args;
  const required = new Set(schema.required ?? []);
  const plan = Object.entries(properties)
    .map(([key, child]) => ({
      key,
      child,
      dropNull: !required.has(key) && !acceptsNull(child),
      scalar:
        coerce &&
        !admits(child, "string") &&
        (admits(child, "number") || admits(child, "integer") || admits(child, "boolean")),
      deep: child.properties !== undefined || child.items !== undefined,
    }))
    // A required string, say, is never changed: it needs no step at all.
    .filter((step) => step.dropNull || step.scalar || step.deep);
  if (plan.length === 0) return (args) => args;
  const hasOwn = Object.prototype.hasOwnProperty;
  return (args) => {
    let copy: Record<string, unknown> | undefined;
    for (const step of plan) {
      if (!hasOwn.call(args, step.key)) continue;
      const current = args[step.key];
      let next = current;
      if (current === null) {
        if (step.dropNull) {
          copy ??= { ...args };
          delete copy[step.key];
          continue;
        }
      } else if (typeof current === "string") {
        if (step.scalar) next = coerceScalars(step.child, current);
      } else if (typeof current === "object" && step.deep) {
        const cleaned = dropNullOptionals(step.child, current);
        next = coerce ? coerceScalars(step.child, cleaned) : cleaned;
      }
      if (next !== current) (copy ??= { ...args })[step.key] = next;
    }
    return copy ?? args;
  };
}
