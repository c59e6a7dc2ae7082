/**
 * Errors thrown to the *developer* (bad definitions, misused decorators). Failures of a
 * model's call are never thrown: they are `ToolResult`s.
 */
export class ToolnexusError extends Error {
  override name = "ToolnexusError";
}

/** A tool definition that cannot work: empty description, bad name, bad schema. */
export class ToolDefinitionError extends ToolnexusError {
  override name = "ToolDefinitionError";
}

/** Two tools with one name in a toolkit. */
export class DuplicateToolError extends ToolnexusError {
  override name = "DuplicateToolError";
}

/** A decorated class whose metadata cannot produce a correct tool. */
export class ScanError extends ToolnexusError {
  override name = "ScanError";
}

/** A toolkit that cannot be exported to a provider as it is (e.g. a name the provider rejects). */
export class ExportError extends ToolnexusError {
  override name = "ExportError";
}

/**
 * Thrown inside a tool by `ctx.elicit` / `ctx.sample` when nobody can answer: the MCP client
 * cannot (no capability, no session), or the toolkit has no `elicit` / `sample` hook. Its
 * message says which; uncaught, it is the call's `execution_failed` result.
 */
export class InputUnavailableError extends ToolnexusError {
  override name = "InputUnavailableError";
}

/** Why reading a resource or getting a prompt failed. */
export type PrimitiveErrorKind = "not_found" | "invalid_arguments" | "forbidden" | "failed" | "timeout" | "aborted";

/**
 * Reading a resource or getting a prompt failed: MCP answers it as a JSON-RPC error (a missing
 * or hidden one is `not_found`, bad arguments `invalid_arguments`), with this message.
 */
export class PrimitiveError extends ToolnexusError {
  override name = "PrimitiveError";
  constructor(
    message: string,
    readonly kind: PrimitiveErrorKind = "failed",
    options?: ErrorOptions,
  ) {
    super(message, options);
  }
}
