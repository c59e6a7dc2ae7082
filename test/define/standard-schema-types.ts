/**
 * Type specification: with a Standard Schema as `inputSchema`, `execute`'s arguments are the
 * schema's output type; with a JSON Schema, the arguments type stays the type parameter.
 * Compiled by `npm run typecheck`; never run.
 */
import * as v from "valibot";
import { z } from "zod";
import { defineTool, Param, Tool, type StandardSchemaV1 } from "toolnexus";

const { type } = require("arktype") as typeof import("arktype", { with: { "resolution-mode": "import" } });

type Equal<A, B> = (<T>() => T extends A ? 1 : 2) extends <T>() => T extends B ? 1 : 2 ? true : false;
const exactly = <A, B>(check: Equal<A, B>) => check;

// ---- zod: the output type, transforms and defaults included ----------------------------------

defineTool({
  name: "weather",
  description: "Weather for a city.",
  inputSchema: z.object({
    city: z.string(),
    days: z.number().default(3),
    when: z.string().transform((text) => text.length),
  }),
  execute: (args) => {
    exactly<typeof args, { city: string; days: number; when: number }>(true);
    return args.city.toUpperCase();
  },
});

// @ts-expect-error city is a string, not a number
defineTool({
  name: "weather",
  description: "Weather for a city.",
  inputSchema: z.object({ city: z.string() }),
  execute: (args: { city: number }) => args.city,
});

defineTool({
  name: "weather",
  description: "Weather for a city.",
  inputSchema: z.object({ city: z.string() }),
  execute: (args) => {
    // @ts-expect-error the schema has no such property
    return args.country;
  },
});

// @ts-expect-error tool arguments are an object: a schema of strings is refused
defineTool({ name: "echo", description: "Echoes.", inputSchema: z.string(), execute: (text) => text });

// ---- valibot and arktype ----------------------------------------------------------------------

defineTool({
  name: "add",
  description: "Adds.",
  inputSchema: v.object({ a: v.number(), b: v.optional(v.number(), 1) }),
  execute: (args) => {
    exactly<typeof args, { a: number; b: number }>(true);
    return args.a + args.b;
  },
});

defineTool({
  name: "count",
  description: "Counts.",
  inputSchema: type({ items: "string[]", "limit?": "number" }),
  execute: (args) => {
    exactly<typeof args, { items: string[]; limit?: number }>(true);
    return args.items.length;
  },
});

// ---- a hand-written Standard Schema -------------------------------------------------------------

declare const handWritten: StandardSchemaV1<unknown, { id: string }>;
defineTool({ name: "get", description: "Gets.", inputSchema: handWritten, execute: ({ id }) => id.length });

// ---- JSON Schema: the type parameter as before --------------------------------------------------

defineTool<{ city: string }>({
  name: "weather",
  description: "Weather for a city.",
  inputSchema: { type: "object", properties: { city: { type: "string" } }, required: ["city"] },
  execute: (args) => {
    exactly<typeof args, { city: string }>(true);
    return args.city;
  },
});

defineTool({
  name: "weather",
  description: "Weather for a city.",
  inputSchema: { type: "object", properties: { city: { type: "string" } } },
  execute: (args) => {
    exactly<typeof args, Record<string, unknown>>(true);
    return String(args.city);
  },
});

defineTool({ name: "ping", description: "Pings.", execute: () => "pong" });

// ---- @Param({ schema }) takes a Standard Schema too ----------------------------------------------

export class Mailer {
  @Tool("Sends a message")
  send(@Param({ schema: z.string().email() }) to: string, @Param({ schema: { type: "string" } }) body: string) {
    return `${body} to ${to}`;
  }
}
