/**
 * The `code` of an error in the project's setup that the loader met before compiling (no usable
 * TypeScript compiler installed, a tsconfig.json it cannot read): the user's to fix, and its
 * message says how. It survives the trip from the hooks thread, as own properties of errors do.
 */
export const SETUP_ERROR = "TOOLNEXUS_SETUP_ERROR";

export function setupError(message: string): Error {
  return Object.assign(new Error(message), { code: SETUP_ERROR });
}

export function isSetupError(error: unknown): boolean {
  return (error as { code?: unknown } | null)?.code === SETUP_ERROR;
}
