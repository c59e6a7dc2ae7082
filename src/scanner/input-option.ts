import { definedToolFrom } from "../define/define-tool";
import { STANDARD_MODE_WAYS_FORWARD } from "../decorators/decorator-mode";
import type { ParameterRecord, ToolOptions } from "../decorators/metadata";
import { ScanError } from "../core/errors";
import type { MethodInvoker } from "../runtime/decorated";
import { isUserClass } from "../schema/scalars";
import type { JSONSchemaObject, Tool, ToolContext } from "../core/types";

/** Where `@Tool({ input })`'s method runs: on the scanned instance, or through an integration's invoker. */
export interface InputMethod {
  method: Function;
  methodName: string;
  instance: object | undefined;
  invoke: MethodInvoker | undefined;
}

/**
 * The parameters a method with `@Tool({ input })` has: the input, then the ctx. Parameter decorators beside it, or more
 * parameters than the two, are refused: the tool's input is the whole `input`.
 */
export function checkInputMethod(
  where: string,
  records: ReadonlyArray<ParameterRecord | undefined>,
  parameterCount: number,
): void {
  if (records.some((record) => record !== undefined))
    throw new ScanError(
      `${where}: @Tool({ input }) gives the tool's whole input, so its parameters take no @Param, @Ctx or @Args. ` +
        "Drop those decorators (the method takes (args, ctx)), or drop input and describe each parameter with @Param.",
    );
  if (parameterCount > 2)
    throw new ScanError(
      `${where}: with @Tool({ input }) the method takes (args, ctx), but it declares ${parameterCount} parameters. ` +
        "Read every argument from the one args object.",
    );
}

/** Whether `input` is a DTO class: those run as `@Args` does (class-transformer instances, class-validator checks). */
export function isDtoInput(input: ToolOptions["input"]): input is Extract<ToolOptions["input"], Function> {
  return typeof input === "function" && isUserClass(input);
}

/**
 * The tool of a method whose `@Tool({ input })` is a Standard Schema or a JSON Schema: checked and run as
 * `defineTool` runs its function, the method called with `(args, ctx)`.
 */
export function schemaInputTool(
  where: string,
  definition: { name: string; description: string; options: ToolOptions; outputSchema: JSONSchemaObject | undefined },
  { method, methodName, instance, invoke }: InputMethod,
): Tool {
  const { name, description, options, outputSchema } = definition;
  const { input, output: _output, name: _name, description: _description, ...rest } = options;
  const execute =
    invoke === undefined
      ? (args: Record<string, unknown>, ctx: ToolContext) => method.call(instance, args, ctx) as unknown
      : (args: Record<string, unknown>, ctx: ToolContext) =>
          invoke({
            tool: name,
            method: method as (...args: unknown[]) => unknown,
            methodName,
            positional: [args, ctx],
            args,
            ctx,
          });
  if (typeof input === "function")
    throw new ScanError(
      `${where}: @Tool({ input }) takes a Standard Schema, a JSON Schema or a DTO class (got ` +
        `${input.name || "a function"}).`,
    );
  try {
    return definedToolFrom(
      {
        ...rest,
        name,
        description,
        inputSchema: input as JSONSchemaObject,
        // A decorated tool's input is always checked, whatever its schema's kind.
        validate: true,
        ...(outputSchema !== undefined ? { outputSchema } : {}),
        execute,
      },
      "decorator",
    );
  } catch (error) {
    throw new ScanError(`${where}: ${(error as Error).message}`);
  }
}

/** Why a method of a class compiled with standard decorators has no tool schema, and the ways forward. */
export function standardModeParametersError(where: string, parameterCount: number, manifestNote: string): ScanError {
  return new ScanError(
    `${where}: this class is compiled with standard (TC39) decorators, which have no parameter decorators and emit ` +
      `no parameter types, so the method's ${parameterCount === 1 ? "parameter" : `${parameterCount} parameters`} ` +
      `cannot be described. ${STANDARD_MODE_WAYS_FORWARD}.${manifestNote}`,
  );
}
