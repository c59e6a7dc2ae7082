/**
 * Patterns: a tool whose argument has a `pattern`, validated through `Toolkit.execute`, against
 * Ajv with JavaScript's own (backtracking) RegExp engine, the default of every Ajv user:
 *  - an everyday pattern on everyday input (an e-mail address): what running patterns on RE2
 *    costs when nobody attacks, against Ajv with the same body called after it, and against
 *    the same tool without its pattern;
 *  - a catastrophic pattern (`^(a+)+$`) on attack input: toolnexus on the longest string it
 *    checks against a pattern (`PATTERN_INPUT_LIMIT` characters) against Ajv on a string of
 *    only 24 characters, which is all a backtracking engine can take in a bench; every further
 *    character doubles its time, so the ratio is a floor of what the engine change saves.
 */
import Ajv from "ajv";
import { defineTool, LIMITS, Toolkit } from "../../src";
import { compare, row, settingsFor } from "../harness";
import type { BenchRow, BenchSuite } from "../types";

const { PATTERN_INPUT_LIMIT } = LIMITS;

const SUITE = "patterns";
const UNIT = "ns/call";
const EMAIL = "^[\\w.+-]+@[\\w-]+(\\.[\\w-]+)*\\.[a-z]{2,}$";
const CATASTROPHIC = "^(a+)+$";
const BACKTRACKING_ATTACK_LENGTH = 24;

function schemaWith(pattern: string) {
  return {
    type: "object" as const,
    properties: { text: { type: "string" as const, pattern } },
    required: ["text"],
    additionalProperties: false,
  };
}

export const run: BenchSuite = async (options) => {
  const toolkit = new Toolkit([
    defineTool({
      name: "email",
      description: "Takes an address",
      validate: true,
      inputSchema: schemaWith(EMAIL),
      execute: ({ text }) => text,
    }),
    defineTool({
      name: "plain",
      description: "Takes an address",
      validate: true,
      inputSchema: schemaWith(".*"),
      execute: ({ text }) => text,
    }),
    defineTool({
      name: "evil",
      description: "Takes a's",
      validate: true,
      inputSchema: schemaWith(CATASTROPHIC),
      execute: ({ text }) => text,
    }),
  ]);
  const ajv = new Ajv({ allErrors: true });
  const ajvEmail = ajv.compile(schemaWith(EMAIL));
  const ajvEvil = ajv.compile(schemaWith(CATASTROPHIC));

  const address = { text: "ada.lovelace+tools@analytical-engine.example.org" };
  const attack = { text: "a".repeat(PATTERN_INPUT_LIMIT - 1) + "!" };
  const shortAttack = { text: "a".repeat(BACKTRACKING_ATTACK_LENGTH - 1) + "!" };

  // Both sides must decide the same way before they are timed.
  if ((await toolkit.execute("email", address)).isError || !ajvEmail(address))
    throw new Error("patterns: the address must be accepted by both");
  if (!(await toolkit.execute("evil", attack)).isError || ajvEvil(shortAttack))
    throw new Error("patterns: the attack must be refused by both");

  const settings = settingsFor(options);
  const ajvCall = (args: { text: string }) =>
    ajvEmail(args) ? { output: args.text, isError: false } : { output: ajv.errorsText(ajvEmail.errors), isError: true };
  const everyday = await compare(
    {
      toolnexus: () => toolkit.execute("email", address),
      ajv: () => ajvCall(address),
      unpatterned: () => toolkit.execute("plain", address),
    },
    settings,
  );
  // A backtracking attack takes milliseconds per call: one call per sample, fewer rounds.
  const attacked = await compare(
    { toolnexus: () => toolkit.execute("evil", attack), ajv: () => ajvEvil(shortAttack) },
    { ...settings, batch: 1, time: options.quick ? 300 : 1_000 },
  );

  const rows: BenchRow[] = [
    row({
      suite: SUITE,
      case: "Toolkit.execute, e-mail pattern, valid address",
      value: everyday.toolnexus!,
      baseline: "Ajv (JavaScript RegExp) + the same body",
      baselineValue: everyday.ajv!,
      unit: UNIT,
    }),
    row({
      suite: SUITE,
      case: "Toolkit.execute, e-mail pattern, valid address",
      value: everyday.toolnexus!,
      baseline: "Toolkit.execute, the pattern `.*`",
      baselineValue: everyday.unpatterned!,
      unit: UNIT,
    }),
    row(
      {
        suite: SUITE,
        case: `Toolkit.execute, ^(a+)+$ on ${PATTERN_INPUT_LIMIT} characters of attack`,
        value: attacked.toolnexus!,
        baseline: `Ajv, JavaScript RegExp, on only ${BACKTRACKING_ATTACK_LENGTH} characters`,
        baselineValue: attacked.ajv!,
        unit: UNIT,
      },
      { text: "one call under 10 ms", maxValue: 10_000_000 },
    ),
  ];
  return rows;
};
