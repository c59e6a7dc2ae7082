/**
 * Reference scenario 1: one tool and its Gemini wrapper. The top-level array holds tool
 * *groups*: Gemini wants every declaration inside ONE `functionDeclarations` wrapper.
 */
import { defineTool, toGemini } from "toolnexus";

export const weather = defineTool({
  name: "get_weather",
  description: "Current weather for a city",
  inputSchema: {
    type: "object",
    properties: { city: { type: "string" } },
    required: ["city"],
  },
  execute: ({ city }) => {
    if (typeof city !== "string" || city === "") throw new Error("city is required");
    return `sunny in ${city}`;
  },
});

export function main() {
  const tools = toGemini([weather]);
  const [{ functionDeclarations }] = tools; // always exactly one wrapper
  const [declaration] = functionDeclarations;
  console.log(`one wrapper, ${functionDeclarations.length} declaration: ${declaration!.name}`);
  console.log(JSON.stringify(tools, null, 2));
  return tools;
}

if (require.main === module) main();
