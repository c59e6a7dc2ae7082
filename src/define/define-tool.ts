import { ToolDefinitionError } from "../core/errors";
import { declarationFieldsOf, type DeclarationOptions } from "../schema/declaration-options";
import { FREE_TEXT_PROPERTY, freeTextSchema } from "../schema/free-text";
import { checkDescription, checkName, checkTask, checkTimeout, policyOf } from "../core/checks";
import { describesObjects } from "../schema/describes-objects";
import { compileArgumentCleaner } from "../runtime/coerce";
import { invokeWithLimits, type Timeout } from "../runtime/invoke";
import { resultShapeOf } from "../runtime/output-schema";
import { resultDeclarationProblem } from "../schema/output-schema";
import { errorMessage, failedWith, shapedBody } from "../runtime/result";
import {
  invalidArguments,
  managedTool,
  once,
  type ArgumentsVerdict,
  type CheckArguments,
  type RunAccepted,
  type ToolRunner,
} from "../runtime/run-contract";
import { problemTexts } from "../runtime/argument-problems";
import { standardVerdict, type StandardVerdict } from "../runtime/standard-validation";
import { isDocumentPointer, referenceShape, unresolvedReference, type ReferenceShape } from "../schema/references";
import { mapSubschemas } from "../core/subschemas";
import { selfContainedSizeError } from "../schema/self-contained";
import { FEWER_COPIES } from "../schema/schema-size";
import {
  claimsStandardSchema,
  describeStandardSchema,
  isStandardSchema,
  jsonSchemaOfStandard,
} from "../schema/standard-schema";
import {
  assertValidSchema,
  backtrackingPatterns as findBacktrackingPatterns,
  compileValidator,
  type ArgumentsValidator,
} from "../runtime/validation";
import {
  isObject,
  type FreeTextInput,
  type JSONSchemaObject,
  type StandardSchemaV1,
  type TextGrammar,
  type Tool,
  type ToolAnnotations,
  type ToolCallContext,
  type ToolPolicy,
  type ToolResult,
} from "../core/types";

export interface DefineToolOptions<Args extends Record<string, unknown> = Record<string, unknown>>
  extends Omit<ToolPolicy, "timeout">, DeclarationOptions {
  name: string;
  description: string;
  /**
   * A JSON Schema of an object (a Standard Schema: see `DefineStandardToolOptions`). Defaults to an object with no
   * properties.
   */
  inputSchema?: JSONSchemaObject;
  /** The tool body. Its return becomes the result; a throw becomes an error result. */
  execute: (args: Args, ctx: ToolCallContext) => unknown;
  /** Check arguments against `inputSchema` before calling (Ajv, compiled once). Default false. */
  validate?: boolean;
  /**
   * Milliseconds before a call is ended with a `timeout` result, unless the call sets its own (the toolkit's by
   * default); `false` for no deadline.
   */
  timeout?: number | false;
  /**
   * Run the patterns RE2 cannot (backreferences, lookahead) on JavaScript's backtracking
   * engine instead of refusing the definition. Such a pattern can take exponential time on
   * input a model chooses: opt in only for patterns you have checked, with a small `maxLength`.
   */
  backtrackingPatterns?: boolean;
  annotations?: ToolAnnotations;
  /** A long-running tool: MCP clients may call it as a task, polling for its result (see `Tool.task`). */
  task?: boolean;
  /**
   * What the tool's structured results look like: a JSON Schema of an object. `execute`'s
   * object results become `structuredContent` (and their JSON the `output`), checked against it:
   * a mismatch is an `invalid_output` result.
   */
  outputSchema?: JSONSchemaObject;
  /** The mime type of the bytes `execute` returns (a Buffer or Uint8Array), e.g. "image/png". */
  mimeType?: string;
}

/**
 * `defineTool` with a Standard Schema (zod 4, valibot, arktype ...) as `inputSchema`: the
 * tool's JSON Schema is the schema's own, calls are checked by the schema itself, and
 * `execute` receives its output (transforms and defaults applied).
 */
export interface DefineStandardToolOptions<Schema extends StandardSchemaV1<unknown, object>> extends Omit<
  DefineToolOptions,
  "inputSchema" | "execute" | "validate"
> {
  /** A schema of an object: `z.object({...})`, `v.object({...})`, `type({...})`. */
  inputSchema: Schema;
  /** The tool body, given the schema's output. Its return becomes the result; a throw becomes an error result. */
  execute: (args: StandardSchemaV1.InferOutput<Schema>, ctx: ToolCallContext) => unknown;
  /** Check arguments with the schema before calling. Default true; `false` hands `execute` the arguments as sent. */
  validate?: boolean;
}

/**
 * `defineTool` for a free-text tool: its input is one string, not JSON arguments. OpenAI (Chat and
 * Responses) declares it as a custom tool, with the grammar passed on; every other provider as a
 * function of one string parameter, `input`. A `regex` grammar is checked on every call (the whole
 * text must match); a Lark grammar is stated to the model and left to OpenAI to enforce.
 */
export interface DefineTextToolOptions extends Omit<DefineToolOptions, "inputSchema" | "execute" | "validate"> {
  input: "text";
  /** The grammar the text follows: `{ syntax: "lark" | "regex", definition }`. */
  grammar?: TextGrammar;
  /** What the text is, where a provider declares it as a parameter. */
  inputDescription?: string;
  /** The tool body, given the text. Its return becomes the result; a throw becomes an error result. */
  execute: (text: string, ctx: ToolCallContext) => unknown;
}

/** Wraps a function of one free-text input as a `Tool` (see `DefineTextToolOptions`). */
export function defineTool(options: DefineTextToolOptions): Tool;
/**
 * Wraps a plain function as a `Tool`, its arguments described and checked by a Standard Schema. Throws
 * `ToolDefinitionError` for a definition that cannot work.
 */
export function defineTool<Schema extends StandardSchemaV1<unknown, object>>(
  options: DefineStandardToolOptions<Schema>,
): Tool;
/** Wraps a plain function as a `Tool`. Throws `ToolDefinitionError` for a definition that cannot work. */
export function defineTool<Args extends Record<string, unknown> = Record<string, unknown>>(
  options: DefineToolOptions<Args>,
): Tool;
export function defineTool(
  options: DefineToolOptions | DefineStandardToolOptions<StandardSchemaV1<unknown, object>> | DefineTextToolOptions,
): Tool {
  if (isObject(options) && "input" in options && options.input !== undefined)
    return defineTextTool(options as DefineTextToolOptions);
  return defineToolFrom(options as DefineToolOptions | DefineStandardToolOptions<StandardSchemaV1<unknown, object>>);
}

/**
 * `defineTool` for the other makers of tools (a decorated method with `@Tool({ input })`): the
 * same checks and runner, under their own `source`.
 */
export function definedToolFrom(
  options: DefineToolOptions | DefineStandardToolOptions<StandardSchemaV1<unknown, object>>,
  source: Tool["source"],
): Tool {
  return defineToolFrom(options, undefined, source);
}

function defineToolFrom(
  options: DefineToolOptions | DefineStandardToolOptions<StandardSchemaV1<unknown, object>>,
  freeText?: FreeTextInput,
  source: Tool["source"] = "native",
): Tool {
  const {
    name,
    description,
    execute,
    timeout,
    annotations,
    task,
    backtrackingPatterns = false,
    outputSchema,
    mimeType,
  } = options ?? ({} as DefineToolOptions);
  checkName(name);
  checkDescription(name, description);
  if (typeof execute !== "function")
    throw new ToolDefinitionError(`Tool "${name}": execute must be a function (args, ctx) => result.`);
  checkTimeout(`Tool "${name}"`, timeout);
  checkTask(`Tool "${name}"`, task);
  const policy = policyOf(`Tool "${name}"`, options as ToolPolicy);
  const given: unknown = options.inputSchema;
  const standard = isStandardSchema(given) ? given : undefined;
  const validate = options.validate ?? standard !== undefined;
  const inputSchema =
    standard !== undefined
      ? standardInputSchema(name, standard)
      : ((given as JSONSchemaObject | undefined) ?? { type: "object", properties: {} });
  checkInputSchema(name, inputSchema);
  checkSchemaSize(name, "inputSchema", inputSchema);
  const declarationProblem = resultDeclarationProblem({ outputSchema, mimeType });
  if (declarationProblem !== undefined) throw new ToolDefinitionError(`Tool "${name}": ${declarationProblem}.`);
  if (outputSchema !== undefined) checkSchemaSize(name, "outputSchema", outputSchema);
  const declaration = declarationFieldsOf(name, options, inputSchema, backtrackingPatterns);
  const body = shapedBody(
    execute as (args: unknown, ctx: ToolCallContext) => unknown,
    resultShapeOf(name, { outputSchema, mimeType }),
  );
  const fields = {
    name,
    description,
    inputSchema,
    ...(outputSchema !== undefined ? { outputSchema } : {}),
    source,
    ...(annotations ? { annotations } : {}),
    ...(task === true ? { task } : {}),
    ...policy,
    ...(timeout !== undefined ? { timeout } : {}),
    ...declaration,
    ...(freeText !== undefined ? { freeText } : {}),
  };
  if (standard !== undefined)
    return managedTool(fields, standardRunner(name, standard, inputSchema, validate, body, timeout), validate);
  if (!validate)
    return managedTool(
      fields,
      { run: (args, ctx, fallbackTimeout) => invokeWithLimits(name, body, args, ctx, timeout ?? fallbackTimeout) },
      false,
    );
  const decidedCheaply = checkValidatable(name, inputSchema, backtrackingPatterns);
  // Compiled on the first call (or by `toolkit.warm()`): defining thousands of tools stays cheap.
  const compiled = once(() => ({
    problemsOf: validatorOrThrow(name, inputSchema, backtrackingPatterns),
    clean: compileArgumentCleaner(inputSchema, { coerce: true }),
  }));
  // What only the compile can judge (anchors, other documents, ids, patterns JavaScript cannot read) is judged now.
  if (!decidedCheaply) compiled();
  // Validating means reading the arguments as the schema does: "42" for a number is 42, and
  // null for an optional value means it was not given.
  const check = (sent: Record<string, unknown>): ArgumentsVerdict => {
    const { problemsOf, clean } = compiled();
    const args = clean(sent);
    const problems = problemsOf(args);
    return problems.length > 0 ? { ok: false, result: invalidArguments(name, problems) } : { ok: true, args };
  };
  const run: RunAccepted = (sent, ctx, fallbackTimeout) => {
    const verdict = check(sent);
    return verdict.ok
      ? invokeWithLimits(name, body, verdict.args, ctx, timeout ?? fallbackTimeout)
      : Promise.resolve(verdict.result);
  };
  return managedTool(fields, { run, check, warm: () => void compiled() }, true);
}

/** A free-text tool: a validated tool of one string argument, `input`, whose body is given the text. */
function defineTextTool(options: DefineTextToolOptions): Tool {
  const { input, grammar, inputDescription, execute, ...rest } = options;
  const name = rest.name;
  checkName(name);
  if (input !== "text")
    throw new ToolDefinitionError(
      `Tool "${name}": input takes "text" (a free-text tool); for JSON arguments, give inputSchema instead.`,
    );
  if ("inputSchema" in rest && rest.inputSchema !== undefined)
    throw new ToolDefinitionError(
      `Tool "${name}": a free-text tool (input: "text") has no inputSchema; drop one of the two.`,
    );
  if (typeof execute !== "function")
    throw new ToolDefinitionError(`Tool "${name}": execute must be a function (text, ctx) => result.`);
  const inputSchema = freeTextSchema(name, grammar, inputDescription);
  const text = (args: Record<string, unknown>, ctx: ToolCallContext) =>
    execute(args[FREE_TEXT_PROPERTY] as string, ctx);
  return defineToolFrom(
    { ...rest, inputSchema, validate: true, execute: text },
    grammar === undefined ? {} : { grammar: { syntax: grammar.syntax, definition: grammar.definition } },
  );
}

/**
 * The JSON Schema a Standard Schema writes for its tool; a schema that writes none fails the definition, saying what to
 * do.
 */
function standardInputSchema(name: string, schema: StandardSchemaV1): JSONSchemaObject {
  let written: JSONSchemaObject;
  try {
    written = jsonSchemaOfStandard(schema);
  } catch (error) {
    throw new ToolDefinitionError(`Tool "${name}": inputSchema is ${(error as Error).message}.`);
  }
  if (!describesObjects(written)) {
    const values = typeof written.type === "string" ? `${written.type} values` : "values that are not all objects";
    throw new ToolDefinitionError(
      `Tool "${name}": inputSchema is ${describeStandardSchema(schema)} of ${values}, but tool arguments are always ` +
        "an object. Use an object schema: z.object({...}), v.object({...}), type({...}).",
    );
  }
  return written;
}

/**
 * The run side of a tool whose arguments a Standard Schema checks: the schema validates each
 * call inside the call's limits (an async check ends with the call's deadline or signal), its
 * issues become an `invalid_arguments` result, and `execute` gets its output. A validate
 * that throws is an `execution_failed` result. As for every validated tool, `null` for an
 * optional value that takes no null means "not given" (OpenAI's strict mode sends it); nothing
 * else is coerced: that is the schema's to do.
 */
function standardRunner(
  name: string,
  schema: StandardSchemaV1,
  inputSchema: JSONSchemaObject,
  validate: boolean,
  body: (args: unknown, ctx: ToolCallContext) => unknown,
  timeout: Timeout | undefined,
): ToolRunner {
  if (!validate)
    return { run: (sent, ctx, fallbackTimeout) => invokeWithLimits(name, body, sent, ctx, timeout ?? fallbackTimeout) };
  const couldNotCheck = (thrown: unknown) =>
    failedWith(thrown, `Tool "${name}" could not check its arguments: its input schema threw: ${errorMessage(thrown)}`);
  const refused = (verdict: StandardVerdict & { ok: false }) => invalidArguments(name, problemTexts(verdict.problems));
  const cleaner = once(() => compileArgumentCleaner(inputSchema, { coerce: false }));
  const dropNulls = (sent: Record<string, unknown>) => cleaner()(sent);
  /** What follows the schema's verdict on `sent`; a schema that throws is `failed` with its result. */
  const judged = <R>(
    sent: Record<string, unknown>,
    next: (verdict: StandardVerdict) => R,
    failed: (result: ToolResult) => R,
  ): R | Promise<R> => {
    let verdict: StandardVerdict | Promise<StandardVerdict>;
    try {
      verdict = standardVerdict(schema, sent);
    } catch (thrown) {
      return failed(couldNotCheck(thrown));
    }
    return verdict instanceof Promise
      ? verdict.then(next, (thrown: unknown) => failed(couldNotCheck(thrown)))
      : next(verdict);
  };
  const checkedBody = (sent: Record<string, unknown>, ctx: ToolCallContext) =>
    judged(
      dropNulls(sent),
      (verdict): unknown => (verdict.ok ? body(verdict.value, ctx) : refused(verdict)),
      (result) => result,
    );
  // What crosses to another process is what was sent (nulls dropped), not the schema's output, which need not be JSON:
  // the run there checks it again.
  const check: CheckArguments = (sent) => {
    const args = dropNulls(sent);
    return judged<ArgumentsVerdict>(
      args,
      (verdict) => (verdict.ok ? { ok: true, args } : { ok: false, result: refused(verdict) }),
      (result) => ({ ok: false, result }),
    );
  };
  return {
    run: (sent, ctx, fallbackTimeout) => invokeWithLimits(name, checkedBody, sent, ctx, timeout ?? fallbackTimeout),
    check,
    warm: () => void cleaner(),
  };
}

/**
 * What the compile of a validated tool's schema would refuse, found at definition without
 * compiling (the compile waits for the first call): a pattern that cannot run in linear time,
 * and a reference into the schema that points at nothing.
 */
function checkValidatable(name: string, schema: JSONSchemaObject, backtracking: boolean): boolean {
  const [slow] = backtracking ? [] : findBacktrackingPatterns(schema);
  if (slow !== undefined) {
    throw new ToolDefinitionError(
      `Tool "${name}": ${slow.problem}. ` +
        "Rewrite it without backreferences or lookahead, or opt in with backtrackingPatterns: true and bound its " +
        "input with maxLength.",
    );
  }
  const shape = referenceShape(schema);
  const unresolved = unresolvedReference(schema, shape);
  if (unresolved !== undefined) {
    throw new ToolDefinitionError(
      `Tool "${name}": inputSchema cannot be compiled for validation: the reference ` +
        `${JSON.stringify(unresolved.ref)} (at ${unresolved.pointer}) points at nothing in the schema. Add the ` +
        "definition it names, or fix the reference.",
    );
  }
  return cheaplyDecided(schema, shape);
}

/**
 * Whether the checks above are all a compile would find: no reference other than a pointer
 * into the document, no `$id`, and every pattern one JavaScript reads (Ajv reads them so too).
 */
function cheaplyDecided(schema: JSONSchemaObject, { refs }: ReferenceShape): boolean {
  if (refs.some(({ ref }) => !isDocumentPointer(ref))) return false;
  let decided = true;
  mapSubschemas(schema, (node) => {
    if (!decided || typeof node !== "object" || node === null) return node;
    const { $id, pattern, patternProperties } = node as Record<string, unknown>;
    const patterns = [pattern, ...(isObject(patternProperties) ? Object.keys(patternProperties) : [])];
    if ($id !== undefined || patterns.some((source) => source !== undefined && !readsAsRegExp(source))) decided = false;
    return node;
  });
  return decided;
}

function readsAsRegExp(source: unknown): boolean {
  if (typeof source !== "string") return false;
  try {
    new RegExp(source, "u");
    return true;
  } catch {
    return false;
  }
}

/**
 * The validator of a schema `checkValidatable` let through; a compile that still fails throws the definition's error.
 */
function validatorOrThrow(name: string, schema: JSONSchemaObject, backtracking: boolean): ArgumentsValidator {
  try {
    return compileValidator(schema, { backtrackingPatterns: backtracking });
  } catch (error) {
    throw new ToolDefinitionError(
      `Tool "${name}": inputSchema cannot be compiled for validation: ${(error as Error).message}.`,
    );
  }
}

/**
 * A schema kept with its `$ref`s is refused when inlining them (as Gemini's export does) would pass `MAX_SCHEMA_SIZE`.
 */
function checkSchemaSize(name: string, key: "inputSchema" | "outputSchema", schema: JSONSchemaObject): void {
  const tooLarge = selfContainedSizeError(schema);
  if (tooLarge !== undefined)
    throw new ToolDefinitionError(`Tool "${name}": ${key} is too large: ${tooLarge.message}. ${FEWER_COPIES}.`);
}

function checkInputSchema(name: string, schema: unknown): void {
  if (claimsStandardSchema(schema) && !isStandardSchema(schema)) {
    throw new ToolDefinitionError(
      `Tool "${name}": inputSchema has a "~standard" property but is no Standard Schema (v1): it needs ` +
        "~standard.version 1 and a ~standard.validate function.",
    );
  }
  if (
    typeof schema !== "object" ||
    schema === null ||
    Array.isArray(schema) ||
    !describesObjects(schema as JSONSchemaObject)
  ) {
    throw new ToolDefinitionError(
      `Tool "${name}": inputSchema must be a JSON Schema with type "object" at its root (tool arguments are always ` +
        `an object), e.g. { type: "object", properties: { city: { type: "string" } }, required: ["city"] }.`,
    );
  }
  try {
    assertValidSchema(schema as JSONSchemaObject);
  } catch (error) {
    throw new ToolDefinitionError(
      `Tool "${name}": inputSchema is not a valid JSON Schema: ${(error as Error).message}.`,
    );
  }
}
