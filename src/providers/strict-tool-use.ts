import { checkStrictRequest, strictSchema } from "../schema/anthropic-strict";
import { plainObjectRoot, type ChangeLog } from "../schema/lowering";
import type { JSONSchemaObject } from "../core/types";
import type { DeclaredTool, Lowering } from "./adapter";

/**
 * A tool's schema for Anthropic's strict tool use, which Bedrock's Converse `strict` shares: an
 * object root, and with `strict`, the strict subset where the schema has one (else the root, marked
 * not strict; the log says why).
 */
export function lowerForStrictToolUse(
  schema: JSONSchemaObject,
  log: ChangeLog,
  options: { strict?: boolean },
): Lowering {
  const root = plainObjectRoot(schema, log);
  if (options.strict !== true) return { schema: root, codec: undefined };
  const strict = strictSchema(root, log);
  return strict === undefined
    ? { schema: root, codec: undefined, strict: false }
    : { schema: strict, codec: undefined, strict: true };
}

/** The strict tools of one request held to the provider's request-wide limits (an `ExportError` past one). */
export function checkStrictTools(provider: string, tools: readonly DeclaredTool[]): void {
  checkStrictRequest(
    provider,
    tools
      .filter(({ lowering }) => lowering.strict === true)
      .map(({ name, lowering }) => ({ name, schema: lowering.schema })),
  );
}
