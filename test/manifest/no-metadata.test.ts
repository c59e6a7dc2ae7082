import "reflect-metadata";
import { mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { ScanError, Toolkit } from "../../src";
import { MANIFEST_ENV } from "../../src/manifest";
import { EXPECTED_SCHEMAS } from "./expected";
import { compile } from "./temp-package";

/**
 * With a manifest, tools work where `design:paramtypes` is missing. The types fixture
 * is compiled file by file with TypeScript's transpileModule and emitDecoratorMetadata off,
 * which is what esbuild, tsx and swc (without its metadata option) produce.
 */
const fixture = join(__dirname, "..", "fixtures", "generate", "types");
const out = join(fixture, "dist", "no-metadata");
const manifest = join(fixture, "toolnexus.manifest.json");

type Ctor = new () => object;
let WeatherService: Ctor;
let StatusService: Ctor;
let OrdersService: Ctor;
const emitted: Record<string, string> = {};

beforeAll(() => {
  rmSync(out, { recursive: true, force: true });
  mkdirSync(out, { recursive: true });
  for (const file of readdirSync(join(fixture, "src"))) {
    const fileName = join(fixture, "src", file);
    const outputText = compile(readFileSync(fileName, "utf8"), fileName);
    emitted[file] = outputText;
    writeFileSync(join(out, file.replace(/\.ts$/, ".js")), outputText);
  }
  ({ WeatherService, StatusService } = require(join(out, "weather.js")) as Record<string, Ctor>);
  ({ OrdersService } = require(join(out, "orders.js")) as Record<string, Ctor>);
});

afterAll(() => rmSync(join(fixture, "dist"), { recursive: true, force: true }));

describe("decorated code compiled without decorator metadata", () => {
  it("really has no design:* metadata", () => {
    expect(Object.keys(emitted).sort()).toEqual(["orders.ts", "shapes.ts", "weather.ts"]);
    for (const file of ["orders.ts", "weather.ts"]) {
      expect(emitted[file]).toContain("__decorate(");
      expect(emitted[file]).toContain("__param(");
      expect(emitted[file]).not.toContain("design:");
    }
    expect(Reflect.getMetadata("design:paramtypes", WeatherService.prototype, "current")).toBeUndefined();
  });

  const scanError = (instance: object): ScanError => {
    try {
      new Toolkit([instance], { manifest: false });
    } catch (error) {
      expect(error).toBeInstanceOf(ScanError);
      return error as ScanError;
    }
    throw new Error("expected a ScanError");
  };

  it("cannot be scanned without the manifest: the errors say why and how to fix it", () => {
    // A tool described only by JSDoc has no description without the manifest either.
    expect(scanError(new StatusService()).message).toBe(
      'StatusService.ping: Tool "ping" needs a non-empty description: models choose tools by it. Use @Tool("what it does").',
    );
    expect(scanError(new WeatherService()).message).toBe(
      'WeatherService.alerts, parameter 0 ("area"): no type metadata was emitted for this method. This happens under runners that compile TypeScript with esbuild (tsx, vitest, Vite SSR, esbuild bundles) or with Bun, which never emit decorator metadata, with swc or Babel without their metadata options, or when `reflect-metadata` is not loaded. Fix: run `npx toolnexus generate` and keep toolnexus.manifest.json next to the code (`npx toolnexus generate --watch` beside `vitest --watch` keeps it current), or give each parameter its type (@Param({ type: String }), @Args(Dto)), or give the tool its whole input with @Tool({ input }); or compile with tsc, ts-node or ts-jest and "emitDecoratorMetadata": true (swc: jsc.transform.decoratorMetadata).',
    );
  });

  describe("with the manifest", () => {
    const toolkit = () => new Toolkit([new WeatherService(), new StatusService(), new OrdersService()], { manifest });

    it("builds the same tools as code compiled with metadata", () => {
      const kit = toolkit();
      expect(kit.tools().map((t) => t.name)).toEqual([
        "alerts",
        "current",
        "forecast_days",
        "ping",
        "place_order",
        "checkCoupon",
      ]);
      for (const name of Object.keys(EXPECTED_SCHEMAS)) {
        expect({ name, schema: kit.get(name)!.inputSchema }).toEqual({ name, schema: EXPECTED_SCHEMAS[name] });
      }
      expect(kit.get("current")!.description).toBe("Current weather for a city.");
    });

    it("runs calls: defaults, Dates and DTO instances are made from the manifest's facts", async () => {
      const kit = toolkit();
      expect(JSON.parse((await kit.execute("current", { city: "Chennai" })).output)).toEqual({
        city: "Chennai",
        units: "metric",
      });
      const forecast = await kit.execute("forecast_days", {
        city: "Pune",
        days: "3",
        from: "2025-01-02T03:04:05.000Z",
      });
      expect(JSON.parse(forecast.output)).toEqual({
        city: "Pune",
        days: 3,
        hours: [9, 12, 18],
        from: "2025-01-02T03:04:05.000Z",
        fromIsDate: true,
      });
      const order = await kit.execute("place_order", { customerEmail: "a@b.co", lines: [{ sku: "A1", quantity: 2 }] });
      expect(JSON.parse(order.output)).toEqual({ isDto: true, lines: [{ isDto: true, sku: "A1" }] });
      const tooMany = await kit.execute("place_order", {
        customerEmail: "a@b.co",
        lines: [{ sku: "A1", quantity: 500 }],
      });
      expect(tooMany).toMatchObject({ isError: true, metadata: { error: "invalid_arguments" } });
      expect(tooMany.output).toContain('"lines[0].quantity" must be <= 99');
      const alerts = await kit.execute("alerts", {
        area: { center: { lat: 1, lon: 2 }, landmarks: [{ name: "Zoo", kind: "park" }] },
        severities: ["severe"],
        priority: 3,
        channel: null,
        id: 7,
      });
      expect(alerts.isError).toBe(false);
      const wrongKind = await kit.execute("alerts", {
        area: { center: { lat: 1, lon: 2 }, landmarks: [{ name: "Zoo", kind: "zoo" }] },
        severities: [],
        priority: 3,
        channel: null,
        id: 7,
      });
      expect(wrongKind).toMatchObject({ isError: true, metadata: { error: "invalid_arguments" } });
    });

    it("is found without being passed: above the compiled files, in the fixture's directory", () => {
      expect(new Toolkit([new WeatherService()]).get("forecast_days")!.inputSchema).toEqual(
        EXPECTED_SCHEMAS.forecast_days,
      );
    });

    it(`is loaded without being passed: $${MANIFEST_ENV}`, () => {
      const previous = process.env[MANIFEST_ENV];
      process.env[MANIFEST_ENV] = manifest;
      try {
        expect(new Toolkit([new WeatherService()]).get("forecast_days")!.inputSchema).toEqual(
          EXPECTED_SCHEMAS.forecast_days,
        );
      } finally {
        if (previous === undefined) delete process.env[MANIFEST_ENV];
        else process.env[MANIFEST_ENV] = previous;
      }
    });
  });
});
