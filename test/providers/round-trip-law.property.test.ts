/**
 * The round-trip law, for every provider: for any tool schema and any value valid under it,
 *  (a) the declaration passes the provider's own rules;
 *  (b) the value, written as a model writes it under the lowered schema, is valid there;
 *  (c) reading that answer back gives the value itself, valid for the tool,
 * unless the change report says which values the provider can no longer express.
 */
import fc from "fast-check";
import { ADAPTERS, type ExportFormat } from "../../src/providers/registry";
import { codecOf, exportTools } from "../../src/providers/adapter";
import { decodeWith, encodeWith } from "../../src/providers/codec";
import type { JSONSchemaObject, Tool } from "../../src";
import {
  checkAnthropicTools,
  checkBedrockToolConfig,
  checkGeminiTools,
  checkMcpTools,
  checkOllamaTools,
  checkOpenAIChatTools,
  checkOpenAIResponsesTools,
  describeViolations,
  geminiSchemaToJsonSchema,
  type Violation,
} from "../support/dialect-rules";
import { toolSchemaCase, validatorFor } from "../support/schema-arbitraries";

const RUNS = 1_000;
/** A fixed seed keeps CI repeatable; set LAW_SEED to explore others. */
const SEED = Number(process.env.LAW_SEED ?? 20261202);

interface Target {
  label: string;
  format: ExportFormat;
  options: Record<string, unknown>;
  rules: (declarations: unknown) => Violation[];
  /** The lowered schema in the declarations, as standard JSON Schema. */
  schemaOf: (declarations: unknown) => JSONSchemaObject;
}

/* eslint-disable @typescript-eslint/no-explicit-any */
const TARGETS: Target[] = [
  {
    label: "gemini",
    format: "gemini",
    options: {},
    rules: checkGeminiTools,
    schemaOf: (d: any) => geminiSchemaToJsonSchema(d[0].functionDeclarations[0].parameters) as JSONSchemaObject,
  },
  {
    label: "openai",
    format: "openai",
    options: {},
    rules: checkOpenAIChatTools,
    schemaOf: (d: any) => d[0].function.parameters,
  },
  {
    label: "openai strict",
    format: "openai",
    options: { strict: true },
    rules: checkOpenAIChatTools,
    schemaOf: (d: any) => d[0].function.parameters,
  },
  {
    label: "openai-responses strict",
    format: "openai-responses",
    options: { strict: true },
    rules: checkOpenAIResponsesTools,
    schemaOf: (d: any) => d[0].parameters,
  },
  {
    label: "anthropic",
    format: "anthropic",
    options: {},
    rules: checkAnthropicTools,
    schemaOf: (d: any) => d[0].input_schema,
  },
  {
    label: "bedrock",
    format: "bedrock",
    options: {},
    rules: checkBedrockToolConfig,
    schemaOf: (d: any) => d.tools[0].toolSpec.inputSchema.json,
  },
  { label: "mcp", format: "mcp", options: {}, rules: checkMcpTools, schemaOf: (d: any) => d[0].inputSchema },
  {
    label: "ollama",
    format: "ollama",
    options: {},
    rules: checkOllamaTools,
    schemaOf: (d: any) => d[0].function.parameters,
  },
];
/* eslint-enable @typescript-eslint/no-explicit-any */

/** What a provider's JSON wire does to a value. */
const overTheWire = (value: unknown): unknown => JSON.parse(JSON.stringify(value)) as unknown;

/**
 * The cases are made once for every provider (the same seed gives fast-check's same values as a
 * property run would), and each tool schema's validator is compiled once: Ajv's compile is most
 * of the law's cost. A failure names the case's index and the seed that makes it.
 */
const cases = fc.sample(toolSchemaCase, { numRuns: RUNS, seed: SEED });
const originalValidators = new Map<number, (value: unknown) => boolean>();
const originalValidator = (index: number) => {
  let validator = originalValidators.get(index);
  if (validator === undefined) originalValidators.set(index, (validator = validatorFor(cases[index]!.schema)));
  return validator;
};

describe.each(TARGETS)("the round-trip law: $label", (target) => {
  it(`holds for ${RUNS} generated schemas and their values`, () => {
    let lossy = 0;
    let checked = 0;
    cases.forEach(({ schema, values }, index) => {
      const where = `case ${index} of seed ${SEED}, schema ${JSON.stringify(schema)}`;
      // A Tool written by hand: any root a host may bring (untyped, a union, a reference) is exported.
      const tool: Tool = {
        name: "t",
        description: "Generated.",
        inputSchema: schema,
        source: "test",
        execute: () => Promise.resolve({ output: "", isError: false }),
      };
      const made = exportTools(ADAPTERS[target.format] as never, [tool], target.options as never);
      const violations = target.rules(made.declarations);
      if (violations.length > 0)
        throw new Error(
          `(a) ${target.label} would refuse the declaration (${where}):\n${describeViolations(violations)}`,
        );
      const codec = codecOf(made.binding.get("t")!);
      const original = originalValidator(index);
      const loweredSchema = target.schemaOf(made.declarations);
      const lowered = JSON.stringify(loweredSchema) === JSON.stringify(schema) ? original : validatorFor(loweredSchema);
      const reportsLoss = made.changes.some((change) => change.action === "lossy");
      for (const value of values) {
        checked++;
        const sent = overTheWire(encodeWith(codec, value));
        const back = decodeWith(codec, sent);
        const problem = !lowered(sent)
          ? `(b) ${JSON.stringify(value)} written as ${JSON.stringify(sent)} is not valid under the declared schema`
          : !original(back)
            ? `(c) ${JSON.stringify(value)} came back as ${JSON.stringify(back)}, which the tool's schema refuses`
            : JSON.stringify(canonical(back)) !== JSON.stringify(canonical(value))
              ? `(c) ${JSON.stringify(value)} came back as ${JSON.stringify(back)}`
              : undefined;
        if (problem === undefined) continue;
        if (!reportsLoss) throw new Error(`${problem}, and the report names no loss (${where})`);
        lossy++;
      }
    });
    // The law is checked on real values, and loss is the exception.
    expect(checked).toBeGreaterThan(RUNS);
    expect(lossy).toBeLessThan(checked / 10);
  });
});

/** Objects with sorted keys, so deep equality does not depend on key order. */
function canonical(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(canonical);
  if (typeof value !== "object" || value === null) return value;
  return Object.fromEntries(
    Object.keys(value)
      .sort()
      .map((key) => [key, canonical((value as Record<string, unknown>)[key])]),
  );
}
