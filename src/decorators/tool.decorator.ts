import type { Tool as ToolShape } from "../core/types";
import { recordDefiningFile } from "./defining-file";
import { addToolMethod, type ToolOptions } from "./metadata";

/**
 * Marks a method as a tool. `@Tool("Current weather for a city")` or
 * `@Tool({ name, description, timeout, annotations, task })`. The name defaults to the method name.
 */
export function Tool(descriptionOrOptions?: string | ToolOptions): MethodDecorator {
  const options: ToolOptions =
    typeof descriptionOrOptions === "string" ? { description: descriptionOrOptions } : { ...descriptionOrOptions };
  const decorate: MethodDecorator = (target, propertyKey, descriptor) => {
    const className = typeof target === "function" ? target.name : target.constructor?.name;
    if (typeof propertyKey === "symbol" || typeof descriptor?.value !== "function") {
      throw new TypeError(`@Tool on ${className}.${String(propertyKey)}: @Tool goes on methods with string names.`);
    }
    if (typeof target === "function") {
      throw new TypeError(`@Tool on static method ${className}.${propertyKey}: tools are instance methods.`);
    }
    addToolMethod(target, { propertyKey, options });
    // Where its manifest is looked for, and which of several same-named classes it is.
    recordDefiningFile(target, decorate);
  };
  return decorate;
}

/** `Tool` is also the type of the objects toolkits hold (the decorator and the interface share the name). */
export type Tool = ToolShape;
