import { readFileSync } from "node:fs";
import { join } from "node:path";
import { generateManifest, renderManifest, type GenerateProgress, type GenerateResult } from "../../src/generate";
import type { ManifestParameter, ManifestTool } from "../../src/manifest";
import { fixtureProject, fixtures, root } from "./support";

/**
 * test/fixtures/generate/types: unions, literal types, enums, nested interfaces and aliases
 * across files, arrays, optional and defaulted parameters, Date, JSDoc at every level,
 * inherited tools, @Ctx and @Args, class-validator DTOs. Generated once, in-process.
 */
let result: GenerateResult;
const progress: GenerateProgress[] = [];

beforeAll(() => {
  result = generateManifest({
    project: fixtureProject("types"),
    cwd: root,
    onProgress: (event) => progress.push(event),
  });
});

const tool = (key: string): ManifestTool => {
  const found = result.manifest.tools[key];
  if (found === undefined)
    throw new Error(`no manifest entry ${key}; entries: ${Object.keys(result.manifest.tools).join(", ")}`);
  return found;
};
const param = (key: string, index: number) =>
  tool(key).parameters[index] as Extract<ManifestParameter, { kind: "param" }>;

describe("toolnexus generate on the types fixture", () => {
  it("finds every @Tool method, keyed by the declaring class and sorted", () => {
    expect(Object.keys(result.manifest.tools)).toEqual([
      "BaseService.ping",
      "OrdersService.checkCoupon",
      "OrdersService.place",
      "WeatherService.alerts",
      "WeatherService.current",
      "WeatherService.forecast",
    ]);
    expect(result.stats).toMatchObject({ files: 3, tools: 6, classes: 3 });
    expect(result.manifest.manifestVersion).toBe(1);
    expect(result.manifest.hash).toMatch(/^sha256:[0-9a-f]{32}$/);
    for (const entry of Object.values(result.manifest.tools)) expect(entry.hash).toMatch(/^sha256:[0-9a-f]{32}$/);
    expect(tool("WeatherService.current").file).toBe("src/weather.ts");
    expect(tool("OrdersService.place").file).toBe("src/orders.ts");
  });

  it("reports each phase (files, tools, time) with one program", () => {
    expect(progress.map((p) => p.phase)).toEqual(["program", "typecheck", "scan"]);
    expect(progress[0]).toMatchObject({ phase: "program", files: 3 });
    expect(progress[2]).toMatchObject({ phase: "scan", files: 3, tools: 6, classes: 3 });
    for (const event of progress) expect(event.ms).toBeGreaterThanOrEqual(0);
  });

  it("writes self-contained schemas: no $ref, no $schema, no definitions", () => {
    const text = JSON.stringify(result.manifest);
    expect(text).not.toContain("$ref");
    expect(text).not.toContain("$schema");
    expect(text).not.toContain("definitions");
  });

  it("is the committed fixture manifest, byte for byte (stable output)", () => {
    expect(result.text).toBe(renderManifest(result.manifest));
    expect(result.text).toBe(readFileSync(join(fixtures, "types", "toolnexus.manifest.json"), "utf8"));
  });

  it("takes the tool description from the method's JSDoc and @param texts for parameters", () => {
    expect(tool("WeatherService.current")).toMatchObject({
      name: "current",
      description: "Current weather for a city.",
    });
    expect(param("WeatherService.current", 0)).toEqual({
      kind: "param",
      name: "city",
      optional: false,
      schema: { type: "string", description: 'The city, e.g. "Chennai".' },
    });
    // JSDoc is recorded even where @Tool states a description (which wins at run time).
    expect(tool("WeatherService.alerts").description).toBe("Alerts inside an area.");
  });

  it("literal unions become enums; a default value makes a parameter optional and is recorded", () => {
    expect(param("WeatherService.current", 1)).toEqual({
      kind: "param",
      name: "units",
      optional: true,
      schema: {
        type: "string",
        description: "Unit system of the answer.",
        enum: ["metric", "imperial"],
        default: "metric",
      },
    });
    expect(param("WeatherService.alerts", 1).schema).toEqual({
      type: "array",
      description: "Which severities to report.",
      items: { type: "string", enum: ["minor", "severe"] },
    });
    // true | false is boolean; a union of numbers is an integer enum.
    expect(param("BaseService.ping", 0).schema).toEqual({
      type: "boolean",
      description: "Shout the answer.",
      default: false,
    });
    expect(param("BaseService.ping", 1)).toEqual({
      kind: "param",
      name: "times",
      optional: true,
      schema: { type: "integer", enum: [1, 2, 3] },
    });
  });

  it("TypeScript enums: numeric ones as integers, string ones as strings; a union with null admits null", () => {
    expect(param("WeatherService.alerts", 2)).toEqual({
      kind: "param",
      name: "priority",
      optional: false,
      schema: { type: "integer", enum: [1, 2, 3] },
    });
    expect(param("WeatherService.alerts", 3)).toEqual({
      kind: "param",
      name: "channel",
      optional: false,
      schema: { anyOf: [{ type: "string", enum: ["email", "sms"] }, { type: "null" }] },
    });
    expect(param("WeatherService.alerts", 5).schema).toEqual({ type: ["string", "number"] });
  });

  it("`?`, a default and `| undefined` make parameters optional; arrays get typed items", () => {
    const [city, days, hours, from, ctx] = tool("WeatherService.forecast").parameters;
    expect(city).toEqual({ kind: "param", name: "city", optional: false, schema: { type: "string" } });
    expect(days).toEqual({
      kind: "param",
      name: "days",
      optional: true,
      schema: { type: "number", description: "How many days ahead." },
    });
    expect(hours).toEqual({
      kind: "param",
      name: "hours",
      optional: true,
      schema: {
        type: "array",
        description: "Hours of the day to include.",
        default: [9, 12, 18],
        items: { type: "number" },
      },
    });
    expect(from).toEqual({
      kind: "param",
      name: "from",
      optional: true,
      convert: "date",
      schema: { type: "string", description: "Start of the forecast.", format: "date-time" },
    });
    expect(ctx).toEqual({ kind: "ctx" });
    expect(param("WeatherService.alerts", 4)).toEqual({
      kind: "param",
      name: "tags",
      optional: true,
      schema: { type: "array", items: { type: "string" } },
    });
  });

  it("interfaces and type aliases from other files are inlined, with JSDoc at every level", () => {
    expect(param("WeatherService.alerts", 0).schema).toEqual({
      type: "object",
      description: "Where to look.", // @param text wins over the interface's own JSDoc
      properties: {
        center: {
          type: "object",
          description: "The centre of the area.",
          properties: {
            lat: { type: "number", description: "Degrees north." },
            lon: { type: "number", description: "Degrees east." },
          },
          required: ["lat", "lon"],
          additionalProperties: false,
        },
        radiusKm: { type: "number", description: "Radius in kilometres.", minimum: 0 },
        landmarks: {
          type: "array",
          description: "Places inside the area.",
          items: {
            type: "object",
            description: "A named place.",
            properties: {
              name: { type: "string" },
              kind: { type: "string", description: "What sort of place it is.", enum: ["park", "museum", "station"] },
            },
            required: ["kind", "name"],
            additionalProperties: false,
          },
        },
      },
      required: ["center", "landmarks"],
      additionalProperties: false,
    });
  });

  it("names tools as the decorator does and keys inherited tools by the class that declares them", () => {
    expect(tool("WeatherService.forecast").name).toBe("forecast_days");
    expect(tool("OrdersService.place").name).toBe("place_order");
    expect(tool("BaseService.ping")).toMatchObject({ name: "ping", description: 'Answers "pong".' });
    expect(result.manifest.tools["StatusService.ping"]).toBeUndefined();
  });

  it("DTO classes: property JSDoc, `?`, initializers as defaults; the class is named for the runtime", () => {
    const [order] = tool("OrdersService.place").parameters;
    expect(order).toMatchObject({ kind: "args", className: "PlaceOrder" });
    // eslint-disable-next-line @typescript-eslint/no-explicit-any -- a generated schema, read by path
    const schema = (order as { schema: Record<string, any> }).schema;
    expect(schema.properties.customerEmail).toEqual({ type: "string", description: "Where the receipt goes." });
    expect(schema.properties.lines.items.properties.wrap).toEqual({
      type: "string",
      description: "Gift wrapping.",
      enum: ["paper", "box"],
    });
    expect(schema.required).toEqual(["customerEmail", "lines"]);
    const coupon = param("OrdersService.checkCoupon", 0);
    expect(coupon).toMatchObject({ convert: "class", className: "Coupon", optional: false });
    expect(coupon.schema).toEqual({
      type: "object",
      description: "The coupon to check.",
      properties: {
        code: { type: "string", description: "Code printed on the coupon." },
        percent: { type: "number", description: "Percent off.", default: 10 },
      },
      required: ["code"],
      additionalProperties: false,
    });
  });
});
