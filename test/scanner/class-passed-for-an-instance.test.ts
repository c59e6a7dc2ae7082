import "reflect-metadata";
import { Test } from "@nestjs/testing";
import { ScanError, Tool, ToolDefinitionError, Toolkit, scanTools, type ToolSource } from "../../src";
import { createMcpServer, serveMcp } from "../../src/mcp";
import { ToolnexusModule } from "../../src/nestjs";

// Tools are bound to an instance, so wherever an instance of a decorated class is expected, the
// class itself is refused with the call to write instead: `new X()`.

class WeatherService {
  @Tool("Current weather for a city")
  getWeather(city: string) {
    return `sunny in ${city}`;
  }
}

class NoTools {
  plain() {
    return 1;
  }
}

function lookup(city: string) {
  return city;
}

/** The class, as a caller without types (or with a cast) would pass it. */
const asSource = (value: unknown) => value as ToolSource;

describe("a class passed where an instance of it is expected", () => {
  it("scanTools(X) says: pass new X()", () => {
    expect(() => scanTools(asSource(WeatherService) as object)).toThrow(ScanError);
    expect(() => scanTools(asSource(WeatherService) as object)).toThrow(
      "scanTools takes an instance of a class with @Tool methods; got the class WeatherService itself: pass an instance, new WeatherService().",
    );
  });

  it("new Toolkit([X]) says: pass new X()", () => {
    expect(() => new Toolkit([asSource(WeatherService)])).toThrow(ToolDefinitionError);
    expect(() => new Toolkit([asSource(WeatherService)])).toThrow(
      "A toolkit takes Tools and decorated instances; got the class WeatherService itself: pass an instance, new WeatherService().",
    );
  });

  it("new Toolkit(X), without the array, says: new Toolkit([new X()])", () => {
    expect(() => new Toolkit(asSource(WeatherService) as ToolSource[])).toThrow(
      "new Toolkit takes an array of Tools and decorated instances; got the class WeatherService itself: pass new Toolkit([new WeatherService()]).",
    );
    expect(() => new Toolkit(asSource(new WeatherService()) as ToolSource[])).toThrow(
      "got a single object: put it in an array, new Toolkit([it])",
    );
  });

  it("toolkit.register(X) says: pass new X(), and leaves the toolkit as it was", () => {
    const toolkit = new Toolkit();
    expect(() => toolkit.register(asSource(WeatherService))).toThrow(
      "got the class WeatherService itself: pass an instance, new WeatherService().",
    );
    expect(toolkit.size).toBe(0);
    expect(toolkit.register(new WeatherService()).size).toBe(1);
  });

  it("serveMcp(X) and createMcpServer(X) say: pass [new X()]", async () => {
    await expect(serveMcp(asSource(WeatherService) as never)).rejects.toThrow(
      "serveMcp takes a Toolkit (or an array of Tools and decorated instances); got the class WeatherService itself: pass [new WeatherService()].",
    );
    expect(() => createMcpServer([asSource(WeatherService)])).toThrow(
      "got the class WeatherService itself: pass an instance, new WeatherService().",
    );
  });

  it("ToolnexusModule.forRoot({ tools: [X] }) stops startup saying: pass new X()", async () => {
    const moduleRef = await Test.createTestingModule({
      imports: [ToolnexusModule.forRoot({ tools: [asSource(WeatherService) as never] })],
    })
      .setLogger({ log() {}, warn() {}, error() {} })
      .compile();
    await expect(moduleRef.init()).rejects.toThrow(
      "got the class WeatherService itself: pass an instance, new WeatherService().",
    );
  });

  it("a class without @Tool methods: says an instance of a decorated class is needed", () => {
    expect(() => scanTools(asSource(NoTools) as object)).toThrow(
      "got the class NoTools itself, which has no @Tool methods: pass an instance of a class whose methods are decorated with @Tool.",
    );
  });

  it("a plain function: says to wrap it with defineTool", () => {
    expect(() => new Toolkit([asSource(lookup)])).toThrow(
      "got the function lookup: make a function a tool with defineTool({ name, description, inputSchema, execute }).",
    );
  });

  it("instances are taken as before", () => {
    expect(scanTools(new WeatherService()).map((tool) => tool.name)).toEqual(["getWeather"]);
    expect(new Toolkit([new WeatherService()]).has("getWeather")).toBe(true);
  });
});
