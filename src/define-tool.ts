import { ToolDefinitionError } from "./errors";
import { NAME_RULES, PORTABLE_NAME, providersAccepting } from "./names";
import { acceptArguments } from "./runtime/arguments";
import { compileArgumentCleaner } from "./runtime/coerce";
import { invokeWithLimits, MAX_TIMER_MS } from "./runtime/invoke";
import { errorMessage, errorResult } from "./runtime/result";
import { assertValidSchema, compileValidator, type ArgumentsValidator } from "./runtime/validation";
import type { JSONSchemaObject, Tool, ToolAnnotations, ToolContext, ToolResult } from "./types";

export interface DefineToolOptions<Args extends Record<string, unknown> = Record<string, unknown>> {
  name: string;
  description: string;
  /** Defaults to an object with no properties. */
  inputSchema?: JSONSchemaObject;
  /** The tool body. Its return becomes the result; a throw becomes an error result. */
  execute: (args: Args, ctx: ToolContext) => unknown;
  /** Check arguments against `inputSchema` before calling (Ajv, compiled once). Default false. */
  validate?: boolean;
  /** Milliseconds before a call is ended with a `timeout` result, unless the call sets its own. */
  timeout?: number;
  annotations?: ToolAnnotations;
}

/** Wraps a plain function as a `Tool`. Throws `ToolDefinitionError` for a definition that cannot work. */
export function defineTool<Args extends Record<string, unknown> = Record<string, unknown>>(
  options: DefineToolOptions<Args>,
): Tool {
  const { name, description, execute, validate = false, timeout, annotations } = options ?? ({} as DefineToolOptions<Args>);
  checkName(name);
  checkDescription(name, description);
  if (typeof execute !== "function") throw new ToolDefinitionError(`Tool "${name}": execute must be a function (args, ctx) => result.`);
  checkTimeout(`Tool "${name}"`, timeout);
  const inputSchema = options.inputSchema ?? { type: "object", properties: {} };
  checkInputSchema(name, inputSchema);
  const problemsOf = validate ? validatorOrThrow(name, inputSchema) : undefined;
  const clean = validate ? compileArgumentCleaner(inputSchema, { coerce: true }) : undefined;

  const run: RunAccepted = (sent, ctx, fallbackTimeout) => {
    let args = sent;
    if (problemsOf !== undefined) {
      // Validating means reading the arguments as the schema does: "42" for a number is 42,
      // and null for an optional value means it was not given.
      args = clean!(sent);
      const problems = problemsOf(args);
      if (problems.length > 0) return Promise.resolve(invalidArguments(name, problems));
    }
    return invokeWithLimits(name, execute, args as Args, ctx, timeout ?? fallbackTimeout);
  };
  return managedTool({ name, description, inputSchema, source: "native", ...(annotations ? { annotations } : {}) }, run);
}

/**
 * Runs a call whose arguments already passed `acceptArguments`. `fallbackTimeout` (the
 * toolkit's) applies when neither the call nor the tool sets one.
 */
export type RunAccepted = (args: Record<string, unknown>, ctx: ToolContext | undefined, fallbackTimeout?: number) => Promise<ToolResult>;

const RUN_ACCEPTED = Symbol("toolnexus.runAccepted");

/**
 * A Tool made by toolnexus: `execute` accepts raw arguments, and the toolkit can skip that
 * step (it already did it) through a non-enumerable symbol, so the object stays a plain Tool.
 */
export function managedTool(fields: Omit<Tool, "execute">, unguardedRun: RunAccepted): Tool {
  const run = guarded(fields.name, unguardedRun);
  const tool: Tool = {
    ...fields,
    execute(args: Record<string, unknown>, ctx?: ToolContext): Promise<ToolResult> {
      const accepted = acceptArguments(args);
      return accepted.ok ? run(accepted.args, ctx) : Promise.resolve(invalidArguments(fields.name, [accepted.problem]));
    },
  };
  Object.defineProperty(tool, RUN_ACCEPTED, { value: run });
  return tool;
}

/**
 * The last line of "never rejects": whatever a run throws before it has a promise (a schema
 * Ajv cannot compile on the first call, a bug) becomes an `execution_failed` result. The
 * promises themselves need no guard: `invokeWithLimits` settles every outcome into a result.
 */
export function guarded(toolName: string, run: RunAccepted): RunAccepted {
  const failed = (thrown: unknown) => errorResult("execution_failed", `Tool "${toolName}" could not run: ${errorMessage(thrown)}`);
  return (args, ctx, fallbackTimeout) => {
    try {
      return run(args, ctx, fallbackTimeout);
    } catch (thrown) {
      return Promise.resolve(failed(thrown));
    }
  };
}

/** The accepted-arguments entry of a toolnexus-made tool, if `tool` is one. */
export function runAcceptedOf(tool: Tool): RunAccepted | undefined {
  return (tool as unknown as { [RUN_ACCEPTED]?: RunAccepted })[RUN_ACCEPTED];
}

/** At most this many problems are listed; the rest are counted (a model needs the first few, not 10,000). */
export const MAX_LISTED_PROBLEMS = 20;

/** The `invalid_arguments` result every tool kind shares: the tool, then one line per problem. */
export function invalidArguments(toolName: string, allProblems: string[]): ToolResult {
  const problems =
    allProblems.length > MAX_LISTED_PROBLEMS
      ? [...allProblems.slice(0, MAX_LISTED_PROBLEMS), `... and ${allProblems.length - MAX_LISTED_PROBLEMS} more problems`]
      : allProblems;
  const output =
    problems.length === 1
      ? `Invalid arguments for tool "${toolName}": ${problems[0]}`
      : `Invalid arguments for tool "${toolName}":\n${problems.map((p) => `- ${p}`).join("\n")}`;
  return errorResult("invalid_arguments", output, { tool: toolName });
}

export function checkName(name: unknown): asserts name is string {
  if (typeof name !== "string" || name.length === 0) {
    throw new ToolDefinitionError(`A tool needs a non-empty string name (got ${JSON.stringify(name)}).`);
  }
  // A portable name (the usual case) is accepted by every provider: no need to ask each.
  if (!PORTABLE_NAME.test(name) && providersAccepting(name).length === 0) {
    throw new ToolDefinitionError(
      `Tool name "${name}" is accepted by no provider. Use a letter first, then letters, digits, _ or -, at most 64 characters (OpenAI: ${NAME_RULES.openai.text}).`,
    );
  }
}

export function checkDescription(name: string, description: unknown): asserts description is string {
  if (typeof description !== "string" || description.trim() === "") {
    throw new ToolDefinitionError(`Tool "${name}" needs a non-empty description: models choose tools by it.`);
  }
}

/** `subject` names what is being defined: `Tool "x"`, or `Toolkit`. */
export function checkTimeout(subject: string, timeout: unknown): void {
  if (timeout !== undefined && !(typeof timeout === "number" && timeout > 0 && timeout <= MAX_TIMER_MS)) {
    throw new ToolDefinitionError(`${subject}: timeout must be a positive number of milliseconds, at most ${MAX_TIMER_MS} (got ${String(timeout)}).`);
  }
}

/** With `validate: true` the schema is compiled at once, so an unusable one fails the definition. */
function validatorOrThrow(name: string, schema: JSONSchemaObject): ArgumentsValidator {
  try {
    return compileValidator(schema);
  } catch (error) {
    throw new ToolDefinitionError(`Tool "${name}": inputSchema cannot be compiled for validation: ${(error as Error).message}.`);
  }
}

function checkInputSchema(name: string, schema: unknown): void {
  if (typeof schema !== "object" || schema === null || Array.isArray(schema) || (schema as JSONSchemaObject).type !== "object") {
    throw new ToolDefinitionError(
      `Tool "${name}": inputSchema must be a JSON Schema with type "object" at its root (tool arguments are always an object), e.g. { type: "object", properties: { city: { type: "string" } }, required: ["city"] }.`,
    );
  }
  try {
    assertValidSchema(schema as JSONSchemaObject);
  } catch (error) {
    throw new ToolDefinitionError(`Tool "${name}": inputSchema is not a valid JSON Schema: ${(error as Error).message}.`);
  }
}
