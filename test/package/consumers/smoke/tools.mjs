// The tools module `toolnexus export` loads: a toolkit of one defined tool.
import { defineTool, Toolkit } from "toolnexus";

export const toolkit = new Toolkit([
  defineTool({
    name: "get_weather",
    description: "Current weather for a city",
    inputSchema: { type: "object", properties: { city: { type: "string" } }, required: ["city"] },
    execute: ({ city }) => `sunny in ${city}`,
  }),
]);
