import fc from "fast-check";
import * as v from "valibot";
import { z } from "zod";
import { defineTool, Toolkit, type StandardSchemaV1 } from "toolnexus";

const { type } = require("arktype") as typeof import("arktype", { with: { "resolution-mode": "import" } });

const RUNS = { seed: 7, numRuns: 300 } as const;

/** Arguments a model might send: the schema's keys and one it does not know, each with a value near what it takes, or of any JSON kind. */
const anyValue = fc.oneof(
  fc.string({ maxLength: 6 }),
  fc.integer({ min: -3, max: 20 }),
  fc.double({ noNaN: true }),
  fc.boolean(),
  fc.constant(null),
  fc.constantFrom("c", "f", "k"),
  fc.array(fc.oneof(fc.string({ maxLength: 3 }), fc.integer()), { maxLength: 4 }),
);
const near = <T>(likely: fc.Arbitrary<T>) =>
  fc.oneof({ arbitrary: likely, weight: 5 }, { arbitrary: anyValue, weight: 1 });
const sentArguments = fc.record(
  {
    city: near(fc.string({ maxLength: 6 })),
    days: near(fc.integer({ min: 0, max: 15 })),
    unit: near(fc.constantFrom("c", "f", "k")),
    tags: near(fc.array(fc.string({ maxLength: 3 }), { maxLength: 4 })),
    extra: anyValue,
  },
  { requiredKeys: [] },
);

/** One schema in each library, and that library's own verdict on a value: its output, or that it refused it. */
const LIBRARIES: Array<
  [string, StandardSchemaV1<unknown, object>, (value: unknown) => { ok: true; value: unknown } | { ok: false }]
> = (() => {
  const zodSchema = z.object({
    city: z.string().min(1),
    days: z.number().int().min(1).max(14).default(3),
    unit: z.enum(["c", "f"]).optional(),
    tags: z.array(z.string()).max(3).optional(),
  });
  const valibotSchema = v.object({
    city: v.pipe(v.string(), v.minLength(1)),
    days: v.optional(v.pipe(v.number(), v.integer(), v.minValue(1), v.maxValue(14)), 3),
    unit: v.optional(v.picklist(["c", "f"])),
    tags: v.optional(v.pipe(v.array(v.string()), v.maxLength(3))),
  });
  const valibotWithJsonSchema = {
    "~standard": {
      ...valibotSchema["~standard"],
      jsonSchema: { input: () => ({ type: "object" }), output: () => ({ type: "object" }) },
    },
  };
  const arkSchema = type({
    city: "string > 0",
    days: "1 <= number.integer <= 14 = 3",
    "unit?": "'c' | 'f'",
    "tags?": "string[] <= 3",
  });
  return [
    [
      "zod",
      zodSchema,
      (value) =>
        (({ success, data }) => (success ? { ok: true, value: data } : { ok: false }))(zodSchema.safeParse(value)),
    ],
    [
      "valibot",
      valibotWithJsonSchema,
      (value) =>
        (({ success, output }) => (success ? { ok: true, value: output } : { ok: false }))(
          v.safeParse(valibotSchema, value),
        ),
    ],
    [
      "arktype",
      arkSchema,
      (value) => ((out) => (out instanceof type.errors ? { ok: false } : { ok: true, value: out }))(arkSchema(value)),
    ],
  ];
})();

describe.each(LIBRARIES)(
  "%s: the toolkit's verdict on any arguments is the schema's own",
  (_library, schema, ownVerdict) => {
    const received: unknown[] = [];
    const tool = defineTool({
      name: "weather",
      description: "Weather for a city.",
      inputSchema: schema,
      execute: (args) => {
        received.push(args);
        return "ok";
      },
    });
    const kit = new Toolkit([tool]);
    const optional = Object.keys(tool.inputSchema.properties ?? {}).filter(
      (key) => !(tool.inputSchema.required ?? []).includes(key),
    );
    /** As every validated tool reads arguments: a null for an optional argument (none of these takes null) means it was not given. */
    const asRead = (args: Record<string, unknown>) =>
      Object.fromEntries(Object.entries(args).filter(([key, value]) => !(value === null && optional.includes(key))));

    it("accepted arguments reach execute as the schema's output; refused ones are an invalid_arguments result", async () => {
      await fc.assert(
        fc.asyncProperty(sentArguments, fc.boolean(), async (args, asJson) => {
          received.length = 0;
          // A provider sends JSON text: the verdict is on the arguments read from it.
          const verdict = ownVerdict(
            asRead(asJson ? (JSON.parse(JSON.stringify(args)) as Record<string, unknown>) : args),
          );
          const result = await kit.execute("weather", asJson ? JSON.stringify(args) : args);
          if (verdict.ok) {
            expect(result).toEqual({ output: "ok", isError: false });
            expect(received).toEqual([verdict.value]);
          } else {
            expect(result).toMatchObject({ isError: true, metadata: { error: "invalid_arguments", tool: "weather" } });
            expect(result.output).toMatch(/^Invalid arguments for tool "weather":/);
            expect(received).toEqual([]);
          }
        }),
        RUNS,
      );
    });
  },
);
