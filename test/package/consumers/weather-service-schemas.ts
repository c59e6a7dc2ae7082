/** The schemas the scanner must read from weatherServiceSource's metadata (sources.ts), whichever compiler emitted it: string, number, boolean, enum and DTO parameters. */
export function expectWeatherServiceSchemas(tools: ReadonlyArray<{ name: string; inputSchema: unknown }>): void {
  const schemas = Object.fromEntries(tools.map((tool) => [tool.name, tool.inputSchema]));
  expect(schemas.forecast).toEqual({
    type: "object",
    properties: {
      city: { type: "string", description: "City name" },
      days: { type: "number" },
      hourly: { type: "boolean" },
      units: { type: "string", enum: ["celsius", "fahrenheit"] },
    },
    required: ["city", "days", "hourly", "units"],
    additionalProperties: false,
  });
  expect(schemas.plan).toMatchObject({
    properties: {
      trip: {
        type: "object",
        properties: { city: { type: "string" }, days: { type: "integer", minimum: 1 } },
        required: ["city", "days"],
      },
    },
    required: ["trip"],
  });
}
