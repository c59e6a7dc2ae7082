import * as oneTool from "../../examples/gemini-one-tool";
import * as requestBody from "../../examples/gemini-request-body";
import * as roundTrip from "../../examples/gemini-round-trip";
import * as services from "../../examples/services";

// The examples `npm start` runs, held to what they claim.
beforeAll(() => jest.spyOn(console, "log").mockImplementation(() => undefined));
afterAll(() => jest.restoreAllMocks());

describe("reference scenario 1: one tool and its Gemini wrapper", () => {
  it("is exactly one wrapper with one declaration of exactly name, description, parameters", () => {
    const tools = oneTool.main();
    expect(tools).toHaveLength(1);
    const [{ functionDeclarations }] = tools;
    expect(functionDeclarations).toHaveLength(1);
    expect(Object.keys(functionDeclarations[0]!).sort()).toEqual(["description", "name", "parameters"]);
    expect(functionDeclarations[0]!.name).toBe("get_weather");
    expect(functionDeclarations[0]!.parameters.required).toEqual(["city"]);
  });
});

describe("reference scenario 2: three tools in a generateContent body", () => {
  it("puts three declarations, in order, in one wrapper", () => {
    const body = requestBody.main();
    expect(body.tools).toHaveLength(1);
    expect(body.tools[0].functionDeclarations.map((d) => d.name)).toEqual(["search", "ping", "kv_get"]);
    expect(JSON.stringify(body)).toContain('"functionDeclarations"');
  });
});

describe("reference scenario 3: a functionCall part round trip", () => {
  it("answers success with { output }, failure with { error }, and keeps the zero-tool wrapper", async () => {
    const { reply, failed, direct, empty } = await roundTrip.main();
    expect(reply).toEqual({
      role: "user",
      parts: [{ functionResponse: { name: "get_weather", response: { output: "sunny in Chennai" } } }],
    });
    expect(failed).toEqual({
      role: "user",
      parts: [{ functionResponse: { name: "get_weather", response: { error: "city is required" } } }],
    });
    expect(direct.isError).toBe(true);
    expect(direct.output).toBe("city is required");
    expect(empty).toEqual([{ functionDeclarations: [] }]);
  });
});

describe("decorated services example", () => {
  it("answers both parallel calls in order, the invalid one as an error naming its arguments", async () => {
    const { toolkit, reply: answered } = await services.main();
    const reply = answered!;
    expect(toolkit.tools().map((t) => t.name)).toEqual(["getWeather", "place_order"]);
    expect(reply.parts.map((p) => p.functionResponse.id)).toEqual(["call-1", "call-2"]);
    expect(reply.parts[0]!.functionResponse.response).toEqual({
      output: JSON.stringify({ city: "Chennai", temperature: 88, units: "fahrenheit" }),
    });
    const error = (reply.parts[1]!.functionResponse.response as { error: string }).error;
    expect(error).toContain('tool "place_order"');
    expect(error).toContain('"customerEmail"');
    expect(error).toContain('"lines"');
  });

  it("passes host state to tools through ctx.state", async () => {
    const { toolkit } = await services.main();
    const result = await toolkit.execute(
      "place_order",
      { customerEmail: "ada@example.com", lines: [{ sku: "ABC-1", quantity: 2 }] },
      { state: { user: "ada" } },
    );
    expect(JSON.parse(result.output)).toEqual({ orderId: 1000, units: 2, placedBy: "ada" });
  });
});
