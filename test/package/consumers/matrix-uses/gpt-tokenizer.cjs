// What declarations cost in tokens, counted by gpt-tokenizer's o200k encoding (OpenAI's own) where it is installed.
const { defineTool, describeExport } = require("toolnexus");

const tools = [
  defineTool({
    name: "get_weather",
    description: "Current weather for a city",
    inputSchema: { type: "object", properties: { city: { type: "string" } }, required: ["city"] },
    execute: () => "sunny",
  }),
];
console.log(JSON.stringify(describeExport("openai", tools).tokens));
