import "reflect-metadata";
import { Toolkit } from "../../src";
import { generateManifest, type GenerateResult } from "../../src/generate";
import { validateManifest, type ManifestTool } from "../../src/manifest";
import { canonicalSchema } from "../../src/schema/canonical";
import { WeatherTools } from "../fixtures/generate/outputs/src/weather";
import { fixtureProject, root } from "./support";

/**
 * test/fixtures/generate/outputs: tools returning an interface, a Promise of it, a class
 * instance, a union of object types (those get an output schema), a string, void, a Buffer, a
 * ToolResult and a content part (those do not). Generated once, in-process.
 */
let result: GenerateResult;

beforeAll(() => {
  result = generateManifest({ project: fixtureProject("outputs"), cwd: root });
});

const tool = (method: string): ManifestTool => {
  const found = result.manifest.tools[`WeatherTools.${method}`];
  if (found === undefined)
    throw new Error(
      `no manifest entry WeatherTools.${method}; entries: ${Object.keys(result.manifest.tools).join(", ")}`,
    );
  return found;
};

const WEATHER = {
  type: "object",
  description: "The weather of one day.",
  properties: {
    temperature: { type: "number", description: "Degrees Celsius." },
    sky: { type: "string", description: "What the sky does.", enum: ["clear", "cloudy", "rain"] },
    windKmh: { type: "number", description: "Wind in km/h, when it was measured." },
  },
  required: ["sky", "temperature"],
};

describe("output schemas inferred from return types", () => {
  it("are written exactly for the tools whose results are objects", () => {
    const withOutput = Object.entries(result.manifest.tools)
      .filter(([, entry]) => entry.output !== undefined)
      .map(([key]) => key);
    expect(withOutput).toEqual([
      "WeatherTools.broken",
      "WeatherTools.lookup",
      "WeatherTools.measured",
      "WeatherTools.report",
      "WeatherTools.stated",
      "WeatherTools.today",
      "WeatherTools.tomorrow",
    ]);
    // A string, void, Buffer bytes, a ToolResult and a content part are not structured results.
    for (const method of ["describe", "reset", "map", "raw", "radar"])
      expect({ method, output: tool(method).output }).toEqual({ method, output: undefined });
    expect(result.warnings).toEqual([]);
  });

  it("an interface and a Promise of it give one schema, with the JSDoc of the type and its properties, objects left open", () => {
    expect(tool("today").output).toEqual(WEATHER);
    expect(tool("tomorrow").output).toEqual(WEATHER);
    expect(tool("measured").output).toEqual(WEATHER);
  });

  it("a class instance is described as JSON.stringify writes it: no accessor, #private field or method", () => {
    expect(tool("report").output).toEqual({
      type: "object",
      description: "A report, returned as a class instance.",
      properties: {
        title: { type: "string", description: "The report's title." },
        pages: { type: "number", description: "How many pages it has." },
      },
      required: ["pages", "title"],
    });
  });

  it("a union of object types becomes anyOf of objects", () => {
    expect(tool("lookup").output).toEqual({
      description: "A city looked up: found, or why not.",
      anyOf: [
        {
          type: "object",
          properties: {
            found: { type: "boolean", const: true },
            city: { type: "string", description: "The city's official name." },
          },
          required: ["city", "found"],
        },
        {
          type: "object",
          properties: {
            found: { type: "boolean", const: false },
            reason: { type: "string", description: "Why it was not found." },
          },
          required: ["found", "reason"],
        },
      ],
    });
  });

  it("is self-contained and in canonical key order, as parameter schemas are", () => {
    for (const entry of Object.values(result.manifest.tools)) {
      if (entry.output === undefined) continue;
      expect(JSON.stringify(entry.output)).not.toMatch(/\$ref|\$schema|definitions/);
      expect(JSON.stringify(canonicalSchema(entry.output))).toBe(JSON.stringify(entry.output));
    }
  });

  it("is written even where @Tool({ output }) states one (that one wins at run time)", () => {
    expect(tool("stated").output).toEqual(WEATHER);
  });

  it("passes the manifest validator, which refuses an output that is not a schema object", () => {
    expect(() => validateManifest(JSON.parse(result.text), "generated")).not.toThrow();
    const broken = JSON.parse(result.text);
    broken.tools["WeatherTools.today"].output = "object";
    expect(() => validateManifest(broken, "edited")).toThrow(
      "The toolnexus manifest edited is invalid: /tools/WeatherTools.today/output must be a JSON Schema object when present.",
    );
  });
});

describe("the scanner with the generated manifest", () => {
  let kit: Toolkit;
  beforeAll(() => {
    kit = new Toolkit([new WeatherTools()], { manifest: result.manifest });
  });

  it("gives each tool the manifest's output schema, and the decorator's where it states one", () => {
    expect(kit.get("today")!.outputSchema).toEqual(WEATHER);
    expect(kit.get("lookup")!.outputSchema).toEqual(tool("lookup").output);
    expect(kit.get("report")!.outputSchema).toEqual(tool("report").output);
    expect(kit.get("describe")!.outputSchema).toBeUndefined();
    expect(kit.get("raw")!.outputSchema).toBeUndefined();
    expect(kit.get("stated")!.outputSchema).toEqual({
      type: "object",
      properties: { ok: { type: "boolean" } },
      required: ["ok"],
    });
  });

  it("returns matching objects as structured content", async () => {
    expect(await kit.execute("today", { city: "Pune" })).toMatchObject({
      isError: false,
      structuredContent: { temperature: 4, sky: "clear" },
    });
    expect(await kit.execute("tomorrow", { city: "Pune" })).toMatchObject({
      isError: false,
      structuredContent: { temperature: 5, sky: "rain", windKmh: 12 },
    });
    expect((await kit.execute("report", { city: "Pune" })).structuredContent).toEqual({
      title: "Weather in Pune",
      pages: 3,
    });
    expect((await kit.execute("lookup", { city: "" })).structuredContent).toEqual({
      found: false,
      reason: "no name given",
    });
    expect((await kit.execute("stated", {})).structuredContent).toEqual({ ok: true });
    // More properties than the type names are no mismatch: TypeScript allows them too.
    expect((await kit.execute("measured", { station: "PNQ" })).structuredContent).toEqual({
      temperature: 21,
      sky: "cloudy",
      station: "PNQ",
    });
  });

  it("a result that does not match its output schema is an invalid_output error", async () => {
    const broken = await kit.execute("broken", {});
    expect(broken).toMatchObject({ isError: true, metadata: { error: "invalid_output" } });
    expect(broken.output).toContain("temperature");
    expect(broken.structuredContent).toBeUndefined();
  });

  it("leaves results that are not structured as they were", async () => {
    expect(await kit.execute("describe", { city: "Pune" })).toEqual({ output: "Sunny in Pune", isError: false });
    expect(await kit.execute("raw", {})).toEqual({ output: "raw", isError: false });
  });
});
