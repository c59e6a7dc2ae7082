// defineTool with a zod schema: the JSON Schema it declares, a call it parses (defaults applied), a call it refuses.
import { z } from "zod";
import { defineTool, Toolkit } from "toolnexus";
import { report } from "./weather-toolkit.mjs";

const weather = defineTool({
  name: "get_weather",
  description: "Weather for a city over some days",
  inputSchema: z.object({ city: z.string().min(2), days: z.number().int().min(1).default(1) }),
  execute: ({ city, days }) => `sunny in ${city} for ${days} day(s)`,
});
const toolkit = new Toolkit([weather]);
report({
  inputSchema: weather.inputSchema,
  answered: await toolkit.execute("get_weather", { city: "Chennai" }),
  refused: await toolkit.execute("get_weather", { city: "C" }),
});
