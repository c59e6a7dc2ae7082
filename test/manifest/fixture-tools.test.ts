import "reflect-metadata";
import { join } from "node:path";
import { Toolkit, scanTools, type Tool } from "../../src";
import { loadManifest } from "../../src/manifest";
import { OrdersService } from "../fixtures/generate/types/src/orders";
import { StatusService, WeatherService } from "../fixtures/generate/types/src/weather";
import { EXPECTED_SCHEMAS } from "./expected";

/**
 * The types fixture compiled WITH decorator metadata (ts-jest), scanned with its committed
 * manifest: explicit decorator options > manifest > design:paramtypes.
 */
const manifestPath = join(__dirname, "..", "fixtures", "generate", "types", "toolnexus.manifest.json");
const toolkit = () =>
  new Toolkit([new WeatherService(), new StatusService(), new OrdersService()], { manifest: manifestPath });

describe("a manifest merged with decorator metadata", () => {
  const kit = toolkit();
  const schemaOf = (name: string) => kit.get(name)!.inputSchema;

  it("fills what metadata cannot see: literal unions, element types, optionality, JSDoc", () => {
    for (const name of ["current", "forecast_days", "ping", "place_order", "checkCoupon"]) {
      expect({ name, schema: schemaOf(name) }).toEqual({ name, schema: EXPECTED_SCHEMAS[name] });
    }
  });

  it("explicit decorator options win over the manifest", () => {
    const alerts = kit.get("alerts")!;
    expect(alerts.description).toBe("Weather alerts inside an area (explicit description)"); // @Tool("...") over JSDoc
    expect(alerts.inputSchema.properties!.id).toEqual({
      type: ["string", "number"],
      description: "An id, text or number (explicit description)",
    });
    expect(alerts.inputSchema.required).toEqual(["area", "severities", "priority", "channel", "id"]);
    expect(alerts.inputSchema.properties!.channel).toEqual({
      anyOf: [{ type: "string", enum: ["email", "sms"] }, { type: "null" }],
    });
  });

  it("descriptions come from JSDoc where the decorators give none", () => {
    expect(kit.get("current")!.description).toBe("Current weather for a city.");
    expect(kit.get("forecast_days")!.description).toBe("Forecast for the next days.");
    expect(kit.get("ping")!.description).toBe('Answers "pong".');
  });

  it("inherited tools use the entry of the class that declares them", () => {
    const [ping] = scanTools(new StatusService(), { manifest: manifestPath });
    expect(ping!.inputSchema).toEqual(EXPECTED_SCHEMAS.ping);
  });

  it("the same manifest as an object or as a path gives the same tools", () => {
    const fromObject = scanTools(new WeatherService(), { manifest: loadManifest(manifestPath) });
    const fromPath = scanTools(new WeatherService(), { manifest: manifestPath });
    const plain = (tools: Tool[]) =>
      tools.map(({ name, description, inputSchema }) => ({ name, description, inputSchema }));
    expect(plain(fromObject)).toEqual(plain(fromPath));
  });

  it("runs calls with the merged schemas: defaults, Date and DTO conversion, validation", async () => {
    expect(JSON.parse((await kit.execute("current", { city: "Chennai" })).output)).toEqual({
      city: "Chennai",
      units: "metric",
    });
    const forecast = await kit.execute(
      "forecast_days",
      { city: "Pune", from: "2025-01-02T03:04:05.000Z" },
      { provider: "test" },
    );
    expect(JSON.parse(forecast.output)).toEqual({
      city: "Pune",
      hours: [9, 12, 18],
      from: "2025-01-02T03:04:05.000Z",
      fromIsDate: true,
      provider: "test",
    });
    const bad = await kit.execute("current", { city: "Chennai", units: "kelvin" });
    expect(bad).toMatchObject({ isError: true, metadata: { error: "invalid_arguments" } });
    expect(bad.output).toContain('"units"');
    const order = await kit.execute("place_order", {
      customerEmail: "a@b.co",
      lines: [{ sku: "A1", quantity: 2, wrap: "box" }],
    });
    expect(JSON.parse(order.output)).toEqual({ isDto: true, lines: [{ isDto: true, sku: "A1" }] });
    const coupon = await kit.execute("checkCoupon", { coupon: { code: "SAVE" } });
    expect(JSON.parse(coupon.output)).toEqual({ isCoupon: true, code: "SAVE", percent: 10 });
    const refused = await kit.execute("place_order", {
      customerEmail: "a@b.co",
      lines: [{ sku: "A1", quantity: 2 }],
      internalFlag: true,
    });
    expect(refused).toMatchObject({ isError: true, metadata: { error: "invalid_arguments" } });
  });
});
