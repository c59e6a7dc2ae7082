import type { Prompt as PromptShape } from "../core/primitives";
import { primitiveDecorator } from "./primitive-decorator";
import type { PromptOptions } from "./primitive-metadata";
import type { ToolDecorator } from "./tool.decorator";

/**
 * Serves the method as an MCP prompt whose arguments are its `@Param`s (or `input`, under
 * standard decorators). It returns the messages: a string (one user message), a list of
 * messages, or `{ description?, messages }`; a message's content is a string, or text, an
 * image, audio, an embedded resource or a resource link.
 */
export function Prompt(descriptionOrOptions: string | PromptOptions = {}): ToolDecorator {
  const options: PromptOptions =
    typeof descriptionOrOptions === "string" ? { description: descriptionOrOptions } : { ...descriptionOrOptions };
  return primitiveDecorator("@Prompt", (propertyKey, mode) => ({ kind: "prompt", propertyKey, options, mode }));
}

/** The type of the prompts a toolkit holds: its fields are those of the interface `Prompt` (the decorator, this type and the interface share the name). */
export type Prompt = PromptShape;
