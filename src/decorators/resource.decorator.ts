import type { Resource as ResourceShape } from "../core/primitives";
import { primitiveDecorator } from "./primitive-decorator";
import type { ResourceOptions } from "./primitive-metadata";
import type { ToolDecorator } from "./tool.decorator";

/**
 * Serves what the method returns as the MCP resource at `uri`: a string is text, bytes
 * (Buffer, Uint8Array) a blob of `mimeType`, an object its JSON; or return resource contents
 * (`{ text }` / `{ blob }`, or a list of them). `@Resource("config://app", { mimeType: "application/json" })`.
 */
export function Resource(uri: string, options: ResourceOptions = {}): ToolDecorator {
  if (typeof uri !== "string" || uri.length === 0)
    throw new TypeError(
      `@Resource takes the resource's URI first, e.g. @Resource("config://app") (got ${String(uri)}).`,
    );
  return primitiveDecorator("@Resource", (propertyKey, mode) => ({
    kind: "resource",
    propertyKey,
    uri,
    options: { ...options },
    mode,
  }));
}

/** The type of the resources a toolkit holds: its fields are those of the interface `Resource` (the decorator, this type and the interface share the name). */
export type Resource = ResourceShape;
