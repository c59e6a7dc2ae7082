/**
 * An error the CLI reports as one line, `toolnexus: <message>`, with the fix in the message.
 * Exit code 2 for usage and loading errors (the default); `--verbose` adds the cause's stack.
 */
export class CliError extends Error {
  override name = "CliError";
  constructor(
    message: string,
    readonly exitCode = 2,
    options?: { cause?: unknown },
  ) {
    super(message, options);
  }
}

/** Collapses whitespace so a message fits on one line. */
export function oneLine(text: string): string {
  return text
    .replace(/\s*\n\s*/g, " ")
    .replace(/\s+/g, " ")
    .trim();
}

/** Joins a reason and a fix: "reason. Fix." without doubled periods. */
export function withFix(reason: string, fix: string): string {
  const body = oneLine(reason).replace(/[.\s]+$/, "");
  return fix === "" ? `${body}.` : `${body}. ${fix}`;
}

/** The message of anything thrown, on one line. */
export function messageOf(error: unknown): string {
  if (error instanceof Error) return oneLine(error.message || error.name);
  return oneLine(String(error));
}
