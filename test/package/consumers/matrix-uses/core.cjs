// The core from CommonJS, no peer installed for it: a defined tool, its declarations for four
// providers, calls through the toolkit (one refused by the schema), and a reply to an OpenAI
// assistant message that called it.
const { defineTool, Toolkit, toAnthropic, toBedrock, toGemini, toOpenAI } = require("toolnexus");
const { weatherToolOptions } = require("./weather-tool.cjs");

const weather = defineTool(weatherToolOptions());
const toolkit = new Toolkit([weather]);
const completion = {
  choices: [
    {
      message: {
        role: "assistant",
        content: null,
        tool_calls: [
          { id: "call_1", type: "function", function: { name: "get_weather", arguments: '{"city":"Chennai"}' } },
        ],
      },
    },
  ],
};

async function main() {
  console.log(
    JSON.stringify({
      declarations: {
        gemini: toGemini([weather]),
        openai: toOpenAI([weather]),
        anthropic: toAnthropic([weather]),
        bedrock: toBedrock([weather]),
      },
      sameFromToolkit: JSON.stringify(toolkit.toOpenAI()) === JSON.stringify(toOpenAI([weather])),
      answered: await toolkit.execute("get_weather", { city: "Chennai" }),
      refused: await toolkit.execute("get_weather", {}),
      openaiReplies: await toolkit.runOpenAI(completion),
    }),
  );
}

void main();
