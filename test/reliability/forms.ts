/**
 * One tool per parameter form toolnexus supports, for the reliability suite. Every tool body
 * checks what it was given against what its declaration promised and records any breach in
 * `breaches` (a validated tool must never see an argument that breaks its schema), then
 * returns something built from its arguments so result serialization is exercised too.
 */
import "reflect-metadata";
import { Type } from "class-transformer";
import { ArrayMinSize, IsEmail, IsInt, IsOptional, IsString, Min, ValidateNested } from "class-validator";
import { Args, Ctx, Param, Tool, defineTool, type Tool as ToolShape, type ToolContext } from "../../src";

export const breaches: string[] = [];
/** How many times each tool body ran (the fuzz checks that valid payloads get through too). */
export const bodyRuns: Record<string, number> = {};

function ran(tool: string): void {
  bodyRuns[tool] = (bodyRuns[tool] ?? 0) + 1;
}

/**
 * Breaches by a non-finite number (NaN, ±Infinity) are kept apart: that is a known gap (the
 * validator accepts them as JSON Schema numbers, and +Infinity as an integer), pinned by
 * limits.test.ts, so that the fuzz still fails on every other breach.
 */
export const nonFiniteBreaches: string[] = [];

function breach(tool: string, what: string, value: unknown): void {
  let shown: string;
  try {
    shown =
      typeof value === "bigint"
        ? `${value}n`
        : typeof value === "number"
          ? String(value)
          : (JSON.stringify(value) ?? String(value));
  } catch {
    shown = Object.prototype.toString.call(value);
  }
  const line = `${tool}: ${what} (got ${shown.slice(0, 200)})`;
  if (typeof value === "number" && !Number.isFinite(value)) nonFiniteBreaches.push(line);
  else breaches.push(line);
}

export enum Units {
  Celsius = "celsius",
  Fahrenheit = "fahrenheit",
}

export class Address {
  @IsString() street!: string;
  @IsInt() @Min(1) number!: number;
}

export class Line {
  @IsString() sku!: string;
  @IsInt() @Min(1) quantity!: number;
}

export class Order {
  @IsEmail() email!: string;
  @ValidateNested({ each: true }) @ArrayMinSize(1) @Type(() => Line) lines!: Line[];
  @IsOptional() @IsString() note?: string;
}

const isString = (v: unknown): v is string => typeof v === "string";

export class FormsService {
  @Tool("Scalars: a string, a ranged integer and a boolean")
  scalars(
    @Param("text") text: string,
    @Param("count", { integer: true, minimum: 0, maximum: 1000 }) count: number,
    @Param("flag") flag: boolean,
  ) {
    ran("scalars");
    if (!isString(text)) breach("scalars", "text is not a string", text);
    if (!Number.isInteger(count) || count < 0 || count > 1000)
      breach("scalars", "count is not an integer in 0..1000", count);
    if (typeof flag !== "boolean") breach("scalars", "flag is not a boolean", flag);
    return { text, count, flag };
  }

  @Tool("Enums: a TypeScript string enum and a numeric enum")
  enums(@Param("units", { enum: Units }) units: Units, @Param("level", { enum: [1, 2, 3] }) level: number) {
    ran("enums");
    if (units !== Units.Celsius && units !== Units.Fahrenheit) breach("enums", "units outside the enum", units);
    if (level !== 1 && level !== 2 && level !== 3) breach("enums", "level outside the enum", level);
    return `${units}/${level}`;
  }

  @Tool("A date-time, received as a Date")
  date(@Param("when") when: Date) {
    ran("date");
    if (!(when instanceof Date) || Number.isNaN(when.getTime())) breach("date", "when is not a valid Date", when);
    return { when };
  }

  @Tool("Arrays of strings and of numbers")
  arrays(
    @Param("tags", { type: [String], maxItems: 50 }) tags: string[],
    @Param("scores", { type: [Number] }) scores: number[],
  ) {
    ran("arrays");
    if (!Array.isArray(tags) || tags.length > 50 || !tags.every(isString))
      breach("arrays", "tags is not an array of at most 50 strings", tags);
    if (!Array.isArray(scores) || !scores.every((s) => typeof s === "number"))
      breach("arrays", "scores is not an array of numbers", scores);
    return { tags: tags.length, total: scores.reduce((a, b) => a + b, 0) };
  }

  @Tool("Optional parameters: one with a default, one marked optional")
  optionals(
    @Param("city") city: string,
    @Param("units", { enum: Units }) units: Units = Units.Celsius,
    @Param("days", { optional: true, integer: true, minimum: 1 }) days?: number,
  ) {
    ran("optionals");
    if (!isString(city)) breach("optionals", "city is not a string", city);
    if (units !== Units.Celsius && units !== Units.Fahrenheit) breach("optionals", "units outside the enum", units);
    if (days !== undefined && (!Number.isInteger(days) || days < 1))
      breach("optionals", "days is neither absent nor an integer >= 1", days);
    return { city, units, days };
  }

  @Tool("A DTO class parameter")
  dto(@Param("address") address: Address) {
    ran("dto");
    if (
      !(address instanceof Address) ||
      !isString(address.street) ||
      !Number.isInteger(address.number) ||
      address.number < 1
    ) {
      breach("dto", "address is not a valid Address instance", address);
    }
    return address;
  }

  @Tool("An array of DTOs")
  dtoArray(@Param("lines", { type: [Line] }) lines: Line[]) {
    ran("dtoArray");
    if (
      !Array.isArray(lines) ||
      !lines.every((l) => l instanceof Line && isString(l.sku) && Number.isInteger(l.quantity) && l.quantity >= 1)
    ) {
      breach("dtoArray", "lines is not an array of valid Line instances", lines);
    }
    return lines.length;
  }

  @Tool("The whole argument object as one DTO")
  order(@Args() order: Order, @Ctx() ctx: ToolContext) {
    ran("order");
    if (!(order instanceof Order) || !isString(order.email) || !Array.isArray(order.lines) || order.lines.length < 1) {
      breach("order", "order is not a valid Order instance", order);
    } else if (!order.lines.every((l) => l instanceof Line))
      breach("order", "order.lines are not Line instances", order.lines);
    if (typeof ctx !== "object" || ctx === null) breach("order", "ctx is not an object", ctx);
    return { email: order.email, lines: order.lines.length, callId: ctx.callId };
  }

  @Tool("No parameters, only the context")
  context(@Ctx() ctx: ToolContext) {
    ran("context");
    if (typeof ctx !== "object" || ctx === null) breach("context", "ctx is not an object", ctx);
    return { provider: ctx.provider ?? null };
  }

  @Tool("An explicit JSON Schema: a string or a finite number")
  union(
    @Param("value", { schema: { anyOf: [{ type: "string", maxLength: 100 }, { type: "number" }] } }) value: unknown,
  ) {
    ran("union");
    if (!(isString(value) && value.length <= 100) && typeof value !== "number")
      breach("union", "value is neither a short string nor a number", value);
    return value;
  }

  @Tool("A free-form object")
  freeForm(@Param("payload", { schema: { type: "object" } }) payload: Record<string, unknown>) {
    ran("freeForm");
    if (typeof payload !== "object" || payload === null || Array.isArray(payload))
      breach("freeForm", "payload is not an object", payload);
    return payload;
  }
}

/** Results a tool body can return synchronously that are hard to settle. */
export const ODD_RESULTS = [
  "then-getter-throws",
  "thenable-resolves",
  "thenable-rejects-late",
  "thenable-both",
  "proxy-throws",
  "function",
  "symbol",
] as const;

export class OddResultsService {
  @Tool("Returns, synchronously, a value that is hard to turn into a result")
  oddResult(@Param("mode", { enum: [...ODD_RESULTS] }) mode: (typeof ODD_RESULTS)[number]) {
    ran("oddResult");
    switch (mode) {
      case "then-getter-throws":
        return Object.defineProperty({}, "then", {
          get() {
            throw new Error("then getter");
          },
        });
      case "thenable-resolves":
        return { then: (resolve: (v: unknown) => void) => setImmediate(() => resolve("resolved later")) };
      case "thenable-rejects-late":
        return {
          then: (_: unknown, reject: (e: unknown) => void) => setImmediate(() => reject(new Error("rejected later"))),
        };
      case "thenable-both":
        return {
          then: (resolve: (v: unknown) => void, reject: (e: unknown) => void) => {
            resolve("first");
            reject(new Error("second"));
            throw new Error("third");
          },
        };
      case "proxy-throws":
        return new Proxy(
          {},
          {
            get() {
              throw new Error("proxy get");
            },
            ownKeys() {
              throw new Error("proxy keys");
            },
          },
        );
      case "function":
        return () => "a function";
      case "symbol":
        return Symbol("s");
    }
  }
}

/** defineTool without validation: sees exactly what was sent, echoes it. */
export const echoTool = defineTool({
  name: "echo",
  description: "Echoes its arguments",
  execute: (args) => {
    ran("echo");
    return args;
  },
});

/** defineTool with validation. */
export const validatedTool = defineTool({
  name: "weather",
  description: "Weather for a city",
  validate: true,
  inputSchema: {
    type: "object",
    properties: {
      city: { type: "string", minLength: 1 },
      days: { type: "integer", minimum: 1, maximum: 14 },
      units: { type: "string", enum: ["metric", "imperial"] },
    },
    required: ["city"],
    additionalProperties: false,
  },
  execute: ({ city, days, units }) => {
    ran("weather");
    if (!isString(city) || city.length < 1) breach("weather", "city is not a non-empty string", city);
    if (days !== undefined && (!Number.isInteger(days) || (days as number) < 1 || (days as number) > 14))
      breach("weather", "days out of range", days);
    if (units !== undefined && units !== "metric" && units !== "imperial")
      breach("weather", "units outside the enum", units);
    return `${String(city)}: sunny`;
  },
});

/** A Tool written by hand (not made by toolnexus): misbehaves depending on what it gets. */
export const handWrittenTool: ToolShape = {
  name: "hand_written",
  description: "A hand-written tool that throws, rejects or returns odd values",
  source: "custom",
  inputSchema: { type: "object", properties: { mode: { type: "string" } } },
  async execute(args) {
    ran("hand_written");
    const mode = (args as { mode?: unknown }).mode;
    if (mode === "throw") throw new Error("hand-written failure");
    if (mode === "reject-string") return Promise.reject("a plain string") as never;
    if (mode === "bigint") return { output: 1n } as never;
    if (mode === "cycle") {
      const cyclic: Record<string, unknown> = {};
      cyclic.self = cyclic;
      return cyclic as never;
    }
    return { output: JSON.stringify(Object.keys(args ?? {})), isError: false };
  },
};

export const decoratedToolNames = [
  "scalars",
  "enums",
  "date",
  "arrays",
  "optionals",
  "dto",
  "dtoArray",
  "order",
  "context",
  "union",
  "freeForm",
  "oddResult",
] as const;

/** Every parameter name any form declares, so generated payloads hit real keys. */
export const KNOWN_KEYS = [
  "text",
  "count",
  "flag",
  "units",
  "level",
  "when",
  "tags",
  "scores",
  "city",
  "days",
  "address",
  "street",
  "number",
  "lines",
  "sku",
  "quantity",
  "email",
  "note",
  "value",
  "payload",
  "mode",
];
