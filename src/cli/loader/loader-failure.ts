/**
 * The `code` of an error that comes from toolnexus's own module loader (the compiler cannot be
 * loaded, the ES module hooks cannot start, the compiler crashed), not from the user's module.
 * It survives the trip from the hooks thread to the main thread, as own properties of errors do.
 */
export const LOADER_FAILURE = "TOOLNEXUS_LOADER_FAILURE";

export function loaderFailure(what: string, cause: unknown): Error {
  const reason = cause instanceof Error ? cause.message : String(cause);
  return Object.assign(new Error(`${what}: ${reason}`, { cause }), { code: LOADER_FAILURE });
}

export function isLoaderFailure(error: unknown): boolean {
  return (error as { code?: unknown } | null)?.code === LOADER_FAILURE;
}
