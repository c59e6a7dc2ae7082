import type { LogLevel } from "./types";

/** The syslog severities, least severe first (MCP's `LoggingLevel`). */
export const LOG_LEVELS: readonly LogLevel[] = [
  "debug",
  "info",
  "notice",
  "warning",
  "error",
  "critical",
  "alert",
  "emergency",
];

/**
 * How severe `level` is (0 for debug); a level that is not one of them throws, wherever the
 * log goes (MCP, the toolkit's `log`, nowhere), so a tool's mistake shows on its first run.
 */
export function logLevelRank(level: unknown): number {
  const rank = LOG_LEVELS.indexOf(level as LogLevel);
  if (rank < 0) throw new TypeError(`ctx.log: level must be one of ${LOG_LEVELS.join(", ")} (got ${String(level)}).`);
  return rank;
}
