import { PrimitiveError } from "../core/errors";
import { MAX_COMPLETIONS, type Completer, type Completion, type CompletionContext } from "../core/primitives";

/**
 * The completions of one argument for what the user has typed: a list's values that start with
 * it (case-insensitively) first, then those that contain it, each in the list's order; a
 * function's values as it ranks them. At most `MAX_COMPLETIONS`, duplicates and non-strings dropped.
 */
export async function complete(completer: Completer, value: string, context: CompletionContext): Promise<Completion> {
  let values: readonly unknown[];
  if (typeof completer === "function") {
    try {
      values = await completer(value, context);
    } catch (error) {
      throw new PrimitiveError(`Completing failed: ${error instanceof Error ? error.message : String(error)}`);
    }
    if (!Array.isArray(values))
      throw new PrimitiveError("Completing failed: the complete function must return a list of strings.");
  } else values = ranked(completer, value);
  const unique = [...new Set(values.filter((item): item is string => typeof item === "string"))];
  return {
    values: unique.slice(0, MAX_COMPLETIONS),
    total: unique.length,
    hasMore: unique.length > MAX_COMPLETIONS,
  };
}

function ranked(choices: readonly string[], typed: string): string[] {
  const needle = typed.toLowerCase();
  const starting: string[] = [];
  const containing: string[] = [];
  for (const choice of choices) {
    const hay = String(choice).toLowerCase();
    if (hay.startsWith(needle)) starting.push(choice);
    else if (hay.includes(needle)) containing.push(choice);
  }
  return [...starting, ...containing];
}
