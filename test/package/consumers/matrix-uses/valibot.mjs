// defineTool with a valibot schema (its JSON Schema from @valibot/to-json-schema): what it declares, a call it accepts, one it refuses.
import * as v from "valibot";
import { defineTool, Toolkit } from "toolnexus";
import { report } from "./weather-toolkit.mjs";

const weather = defineTool({
  name: "get_weather",
  description: "Current weather for a city",
  inputSchema: v.object({ city: v.pipe(v.string(), v.minLength(2)) }),
  execute: ({ city }) => `sunny in ${city}`,
});
const toolkit = new Toolkit([weather]);
report({
  inputSchema: weather.inputSchema,
  answered: await toolkit.execute("get_weather", { city: "Chennai" }),
  refused: await toolkit.execute("get_weather", { city: "C" }),
});
