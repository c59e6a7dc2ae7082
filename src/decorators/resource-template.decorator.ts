import type { ResourceTemplate as ResourceTemplateShape } from "../core/primitives";
import { primitiveDecorator } from "./primitive-decorator";
import type { ResourceTemplateOptions } from "./primitive-metadata";
import type { ToolDecorator } from "./tool.decorator";

/**
 * Serves the resources whose URIs follow an RFC 6570 template: `@ResourceTemplate("users://{id}/profile")`.
 * Each variable is a parameter of the method (`@Param("id") id: number`), typed and validated as a
 * tool's; under standard decorators, `input` describes them all. Results as `@Resource`'s.
 */
export function ResourceTemplate(uriTemplate: string, options: ResourceTemplateOptions = {}): ToolDecorator {
  if (typeof uriTemplate !== "string" || !/\{[^}]+\}/.test(uriTemplate))
    throw new TypeError(
      `@ResourceTemplate takes a URI template with at least one {variable}, e.g. "users://{id}/profile" (got ` +
        `${JSON.stringify(uriTemplate)}); a fixed URI is a @Resource.`,
    );
  return primitiveDecorator("@ResourceTemplate", (propertyKey, mode) => ({
    kind: "resourceTemplate",
    propertyKey,
    uriTemplate,
    options: { ...options },
    mode,
  }));
}

/** The type of the resource templates a toolkit holds: its fields are those of the interface `ResourceTemplate` (the decorator, this type and the interface share the name). */
export type ResourceTemplate = ResourceTemplateShape;
