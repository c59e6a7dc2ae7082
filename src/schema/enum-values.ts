import type { EnumLike } from "../decorators/metadata";
import type { JSONSchemaObject } from "../core/types";

/** The values of an array or of a TypeScript enum object (numeric enums' reverse keys left out). */
export function enumValues(source: EnumLike): Array<string | number | boolean> {
  if (Array.isArray(source)) return [...source];
  const object = source as Record<string, string | number>;
  return Object.keys(object)
    .filter((key) => typeof object[object[key] as string] !== "number")
    .map((key) => object[key]!);
}

/** `{ type, enum }` for a list of values: the type is inferred when the values share one. */
export function enumSchema(values: ReadonlyArray<string | number | boolean>): JSONSchemaObject {
  const type = values.every((v) => typeof v === "string")
    ? "string"
    : values.every((v) => Number.isInteger(v))
      ? "integer"
      : values.every((v) => typeof v === "number")
        ? "number"
        : values.every((v) => typeof v === "boolean")
          ? "boolean"
          : undefined;
  return type === undefined ? { enum: [...values] } : { type, enum: [...values] };
}
