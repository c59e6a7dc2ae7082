import { ToolDefinitionError } from "../core/errors";
import { isObject, type JSONSchemaObject, type TextGrammar } from "../core/types";
import { linearPattern } from "../runtime/linear-regexp";

/** The property that carries a free-text tool's input where a provider declares it as a function. */
export const FREE_TEXT_PROPERTY = "input";

const SYNTAXES: ReadonlyArray<TextGrammar["syntax"]> = ["lark", "regex"];

/**
 * A free-text tool's input schema: one required string. A `regex` grammar becomes the string's
 * anchored `pattern`, so every provider's call is checked against it (on RE2: linear time); a
 * Lark grammar, which no validator here reads, is stated in the parameter's description.
 */
export function freeTextSchema(name: string, grammar: TextGrammar | undefined, description?: string): JSONSchemaObject {
  const input: JSONSchemaObject = { type: "string", description: description ?? "The tool's input, as free text." };
  if (grammar !== undefined) {
    checkGrammar(name, grammar);
    if (grammar.syntax === "regex") input.pattern = `^(?:${grammar.definition})$`;
    else input.description = `${input.description} It follows this Lark grammar:\n${grammar.definition}`;
  }
  return {
    type: "object",
    properties: { [FREE_TEXT_PROPERTY]: input },
    required: [FREE_TEXT_PROPERTY],
    additionalProperties: false,
  };
}

function checkGrammar(name: string, grammar: unknown): asserts grammar is TextGrammar {
  if (
    !isObject(grammar) ||
    !SYNTAXES.includes(grammar.syntax as TextGrammar["syntax"]) ||
    typeof grammar.definition !== "string" ||
    grammar.definition.trim() === ""
  )
    throw new ToolDefinitionError(
      `Tool "${name}": grammar must be { syntax: "lark" | "regex", definition: "<the grammar>" } (got ` +
        `${JSON.stringify(grammar)}).`,
    );
  if (grammar.syntax !== "regex") return;
  const pattern = linearPattern(grammar.definition);
  if (!pattern.ok)
    throw new ToolDefinitionError(
      `Tool "${name}": the regex grammar ${JSON.stringify(grammar.definition)} cannot be checked in linear time ` +
        `(${pattern.reason}). Write it without backreferences or lookaround, as OpenAI's regex grammars are.`,
    );
}
