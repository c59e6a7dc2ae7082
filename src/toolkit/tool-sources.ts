import { ToolDefinitionError } from "../core/errors";
import type { Tool } from "../core/types";
import { toolMethodsOf } from "../decorators/metadata";
import { primitiveMethodsOf } from "../decorators/primitive-metadata";
import { isPrimitive, scanPrimitives, type Primitive } from "../scanner/scan-primitives";
import { functionInsteadOfInstance } from "../scanner/instance-expected";

/** What a toolkit takes: `Tool`s, resources and prompts (`defineResource` ...), decorated instances, or arrays of them. */
export type ToolSource = Tool | object | readonly ToolSource[];

export function isTool(value: unknown): value is Tool {
  return (
    typeof value === "object" &&
    value !== null &&
    typeof (value as Tool).name === "string" &&
    typeof (value as Tool).execute === "function" &&
    typeof (value as Tool).inputSchema === "object"
  );
}

/** The tools of every source, decorated instances scanned with `scan`. */
export function toolsOf(item: ToolSource, scan: (instance: object) => Tool[]): Tool[] {
  if (Array.isArray(item)) return item.flatMap((inner) => toolsOf(inner, scan));
  if (isTool(item)) return [item];
  if (isPrimitive(item)) return [];
  if (typeof item === "object" && item !== null) {
    // A class may serve only resources and prompts.
    const prototype = Object.getPrototypeOf(item) as object;
    if (toolMethodsOf(prototype).length === 0 && primitiveMethodsOf(prototype).length > 0) return [];
    return scan(item);
  }
  if (typeof item === "function")
    throw new ToolDefinitionError(`A toolkit takes Tools and decorated instances; ${functionInsteadOfInstance(item)}.`);
  throw new ToolDefinitionError(
    `A toolkit takes Tools and decorated instances; got ${item === null ? "null" : typeof item}.`,
  );
}

/** The resources, resource templates and prompts of every source: defined ones, and decorated instances' methods. */
export function primitivesOf(item: ToolSource): Primitive[] {
  if (Array.isArray(item)) return item.flatMap(primitivesOf);
  if (isPrimitive(item)) return [item];
  if (isTool(item) || typeof item !== "object" || item === null) return [];
  return scanPrimitives(Object.getPrototypeOf(item) as object, { instance: item });
}

/** Refuses what `new Toolkit` takes in place of its array, saying what was passed and the array to pass. */
export function checkToolSources(items: unknown): asserts items is readonly ToolSource[] {
  if (
    typeof (items as { [Symbol.iterator]?: unknown } | null)?.[Symbol.iterator] === "function" &&
    typeof items !== "string"
  )
    return;
  throw new ToolDefinitionError(`new Toolkit takes an array of Tools and decorated instances; ${notAnArray(items)}.`);
}

function notAnArray(items: unknown): string {
  if (typeof items === "function") {
    const name = items.name || "X";
    return toolMethodsOf((items as { prototype?: unknown }).prototype).length > 0
      ? `got the class ${name} itself: pass new Toolkit([new ${name}()])`
      : `${functionInsteadOfInstance(items)}, in an array`;
  }
  if (typeof items === "object" && items !== null) return "got a single object: put it in an array, new Toolkit([it])";
  return `got ${items === null ? "null" : typeof items}`;
}
