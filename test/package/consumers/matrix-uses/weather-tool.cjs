// The tool the uses call, as defineTool's options: each use loads toolnexus its own way
// (core.cjs with require(), the others with import) and defines it from these.
exports.weatherToolOptions = () => ({
  name: "get_weather",
  description: "Current weather for a city",
  inputSchema: {
    type: "object",
    properties: { city: { type: "string" } },
    required: ["city"],
    additionalProperties: false,
  },
  validate: true,
  execute: ({ city }) => `sunny in ${city}`,
});
