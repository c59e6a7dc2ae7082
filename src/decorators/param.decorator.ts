import { addParameterRecord, type ParamOptions } from "./metadata";

/**
 * Describes a tool parameter: `@Param("city")`, `@Param("units", { enum: ["c", "f"] })` or
 * `@Param({ description })`. The name may be left out where it can be read from the method's
 * source; give it explicitly in code that is minified.
 */
export function Param(nameOrOptions?: string | ParamOptions, options?: ParamOptions): ParameterDecorator {
  const name = typeof nameOrOptions === "string" ? nameOrOptions : undefined;
  const resolved = { ...(typeof nameOrOptions === "object" ? nameOrOptions : options) };
  return (target, propertyKey, index) =>
    addParameterRecord(
      "@Param",
      target,
      propertyKey,
      index,
      name !== undefined ? { kind: "param", name, options: resolved } : { kind: "param", options: resolved },
    );
}

/**
 * `@Param` under a name that does not clash with NestJS's `@Param` (the route-parameter
 * decorator of `@nestjs/common`): the very same decorator, for files that import both.
 */
export const ToolParam = Param;
