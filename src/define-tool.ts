import { ToolDefinitionError } from "./errors";
import { acceptedBySomeProvider, PORTABLE_NAME } from "./names";
import { describesObjects } from "./schema/describes-objects";
import { compileArgumentCleaner } from "./runtime/coerce";
import { invokeWithLimits, MAX_TIMER_MS } from "./runtime/invoke";
import { resultShapeOf } from "./runtime/output-schema";
import { resultDeclarationProblem } from "./schema/output-schema";
import { shapedBody } from "./runtime/result";
import { invalidArguments, managedTool, type RunAccepted } from "./runtime/run-contract";
import { assertValidSchema, backtrackingPatterns as findBacktrackingPatterns, compileValidator, type ArgumentsValidator } from "./runtime/validation";
import { policyOf } from "./control/policy";
import type { JSONSchemaObject, Tool, ToolAnnotations, ToolCallContext, ToolPolicy } from "./types";

export interface DefineToolOptions<Args extends Record<string, unknown> = Record<string, unknown>> extends Omit<ToolPolicy, "timeout"> {
  name: string;
  description: string;
  /** Defaults to an object with no properties. */
  inputSchema?: JSONSchemaObject;
  /** The tool body. Its return becomes the result; a throw becomes an error result. */
  execute: (args: Args, ctx: ToolCallContext) => unknown;
  /** Check arguments against `inputSchema` before calling (Ajv, compiled once). Default false. */
  validate?: boolean;
  /** Milliseconds before a call is ended with a `timeout` result, unless the call sets its own (the toolkit's by default); `false` for no deadline. */
  timeout?: number | false;
  /**
   * Run the patterns RE2 cannot (backreferences, lookahead) on JavaScript's backtracking
   * engine instead of refusing the definition. Such a pattern can take exponential time on
   * input a model chooses: opt in only for patterns you have checked, with a small `maxLength`.
   */
  backtrackingPatterns?: boolean;
  annotations?: ToolAnnotations;
  /**
   * What the tool's structured results look like: a JSON Schema of an object. `execute`'s
   * object results become `structuredContent` (and their JSON the `output`), checked against it:
   * a mismatch is an `invalid_output` result.
   */
  outputSchema?: JSONSchemaObject;
  /** The mime type of the bytes `execute` returns (a Buffer or Uint8Array), e.g. "image/png". */
  mimeType?: string;
}

/** Wraps a plain function as a `Tool`. Throws `ToolDefinitionError` for a definition that cannot work. */
export function defineTool<Args extends Record<string, unknown> = Record<string, unknown>>(options: DefineToolOptions<Args>): Tool {
  const { name, description, execute, validate = false, timeout, annotations, backtrackingPatterns = false, outputSchema, mimeType } = options ?? ({} as DefineToolOptions<Args>);
  checkName(name);
  checkDescription(name, description);
  if (typeof execute !== "function") throw new ToolDefinitionError(`Tool "${name}": execute must be a function (args, ctx) => result.`);
  checkTimeout(`Tool "${name}"`, timeout);
  const policy = policyOf(`Tool "${name}"`, options as ToolPolicy);
  const inputSchema = options.inputSchema ?? { type: "object", properties: {} };
  checkInputSchema(name, inputSchema);
  const declarationProblem = resultDeclarationProblem({ outputSchema, mimeType });
  if (declarationProblem !== undefined) throw new ToolDefinitionError(`Tool "${name}": ${declarationProblem}.`);
  const body = shapedBody(execute, resultShapeOf(name, { outputSchema, mimeType }));
  const problemsOf = validate ? validatorOrThrow(name, inputSchema, backtrackingPatterns) : undefined;
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
    return invokeWithLimits(name, body, args as Args, ctx, timeout ?? fallbackTimeout);
  };
  const fields = {
    name,
    description,
    inputSchema,
    ...(outputSchema !== undefined ? { outputSchema } : {}),
    source: "native",
    ...(annotations ? { annotations } : {}),
    ...policy,
    ...(timeout !== undefined ? { timeout } : {}),
  };
  return managedTool(fields, run, validate);
}

export function checkName(name: unknown): asserts name is string {
  if (typeof name !== "string" || name.length === 0) {
    throw new ToolDefinitionError(`A tool needs a non-empty string name (got ${JSON.stringify(name)}).`);
  }
  // A portable name (the usual case) is accepted by every provider: no need to ask each.
  if (!PORTABLE_NAME.test(name) && !acceptedBySomeProvider(name)) {
    throw new ToolDefinitionError(`Tool name "${name}" is accepted by no provider. Use a letter first, then letters, digits, _ or -, at most 64 characters.`);
  }
}

export function checkDescription(name: string, description: unknown): asserts description is string {
  if (typeof description !== "string" || description.trim() === "") {
    throw new ToolDefinitionError(`Tool "${name}" needs a non-empty description: models choose tools by it.`);
  }
}

/** `subject` names what is being defined: `Tool "x"`, or `Toolkit`. */
export function checkTimeout(subject: string, timeout: unknown): void {
  if (timeout !== undefined && timeout !== false && !(typeof timeout === "number" && timeout > 0 && timeout <= MAX_TIMER_MS)) {
    throw new ToolDefinitionError(`${subject}: timeout must be a positive number of milliseconds, at most ${MAX_TIMER_MS}, or false for none (got ${String(timeout)}).`);
  }
}

/** With `validate: true` the schema is compiled at once, so an unusable one fails the definition. */
function validatorOrThrow(name: string, schema: JSONSchemaObject, backtracking: boolean): ArgumentsValidator {
  const [slow] = backtracking ? [] : findBacktrackingPatterns(schema);
  if (slow !== undefined) {
    throw new ToolDefinitionError(
      `Tool "${name}": ${slow.problem}. ` + "Rewrite it without backreferences or lookahead, or opt in with backtrackingPatterns: true and bound its input with maxLength.",
    );
  }
  try {
    return compileValidator(schema, { backtrackingPatterns: backtracking });
  } catch (error) {
    throw new ToolDefinitionError(`Tool "${name}": inputSchema cannot be compiled for validation: ${(error as Error).message}.`);
  }
}

function checkInputSchema(name: string, schema: unknown): void {
  if (typeof schema !== "object" || schema === null || Array.isArray(schema) || !describesObjects(schema as JSONSchemaObject)) {
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
