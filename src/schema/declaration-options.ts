import { ToolDefinitionError } from "../core/errors";
import { PORTABLE_NAME } from "../core/names";
import { checkIcons } from "../core/checks";
import { isObject, type Icon, type JSONSchemaObject, type Tool } from "../core/types";
import { compileValidator } from "../runtime/validation";

/** How a tool is declared beyond its schema: `@Tool` and `defineTool` take these alike. */
export interface DeclarationOptions {
  /**
   * Not declared up front: the model finds the tool by searching (Anthropic's and OpenAI's own
   * tool search; toolnexus's `search_tools` on the other providers). The tool still runs when called.
   */
  defer?: boolean;
  /** A group of related tools (e.g. one service), declared together where the provider groups tools (OpenAI Responses). */
  namespace?: string;
  /**
   * Example arguments, each checked against the input schema when the tool is defined: Anthropic's
   * `input_examples`; elsewhere appended to the description when the export asks (`examplesInDescription`).
   */
  examples?: ReadonlyArray<Record<string, unknown>>;
  /** Declared in the provider's strict form (OpenAI, Anthropic, Bedrock) whether or not the export asks for it. */
  strict?: boolean;
  /** Icons a client may show beside the tool (MCP): `https:` or `data:` URLs. */
  icons?: readonly Icon[];
}

export type DeclarationFields = Pick<Tool, "defer" | "namespace" | "examples" | "strict" | "icons">;

/**
 * The declaration options, checked: a bad one throws a `ToolDefinitionError` naming the tool and
 * what to fix. Examples are validated against `inputSchema` (so their validator is compiled now).
 */
export function declarationFieldsOf(
  name: string,
  options: DeclarationOptions,
  inputSchema: JSONSchemaObject,
  backtrackingPatterns = false,
): DeclarationFields {
  const { defer, namespace, examples, strict, icons } = options;
  for (const [key, value] of [
    ["defer", defer],
    ["strict", strict],
  ] as const) {
    if (value !== undefined && typeof value !== "boolean")
      throw new ToolDefinitionError(`Tool "${name}": ${key} must be true or false (got ${JSON.stringify(value)}).`);
  }
  if (namespace !== undefined && (typeof namespace !== "string" || !PORTABLE_NAME.test(namespace)))
    throw new ToolDefinitionError(
      `Tool "${name}": namespace must be a name providers accept: a letter first, then letters, digits, _ or -, at ` +
        `most 64 characters (got ${JSON.stringify(namespace)}).`,
    );
  if (examples !== undefined) checkExamples(name, examples, inputSchema, backtrackingPatterns);
  return {
    ...(defer === true ? { defer } : {}),
    ...(namespace !== undefined ? { namespace } : {}),
    ...(examples !== undefined && examples.length > 0 ? { examples: Object.freeze(examples.map(copyOf)) } : {}),
    ...(strict !== undefined ? { strict } : {}),
    ...(icons !== undefined ? { icons: checkIcons(`Tool "${name}"`, icons) } : {}),
  };
}

function checkExamples(name: string, examples: unknown, schema: JSONSchemaObject, backtracking: boolean): void {
  if (!Array.isArray(examples))
    throw new ToolDefinitionError(
      `Tool "${name}": examples must be a list of arguments objects, e.g. [{ city: "Paris" }] (got ${typeof examples}).`,
    );
  let problemsOf: ((args: Record<string, unknown>) => string[]) | undefined;
  examples.forEach((example: unknown, index) => {
    const which = `example ${index + 1} (${JSON.stringify(example) ?? String(example)})`;
    if (!isObject(example) || JSON.stringify(example) === undefined)
      throw new ToolDefinitionError(`Tool "${name}": ${which} must be an arguments object, as a model would send.`);
    problemsOf ??= compileValidator(schema, { backtrackingPatterns: backtracking });
    const problems = problemsOf(copyOf(example));
    if (problems.length > 0)
      throw new ToolDefinitionError(
        `Tool "${name}": ${which} does not fit the input schema: ${problems.join("; ")}. Fix the example or the schema.`,
      );
  });
}

/** A JSON copy: the example the tool keeps is what was checked, whatever the caller does with its object later. */
function copyOf(example: Record<string, unknown>): Record<string, unknown> {
  return JSON.parse(JSON.stringify(example)) as Record<string, unknown>;
}
