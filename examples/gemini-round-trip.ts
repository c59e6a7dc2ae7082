/**
 * Reference scenario 3: a `functionCall` part as the model returns it, run through the
 * toolkit, answered with a `functionResponse`. Failure is data, not an exception.
 */
import { toGemini, Toolkit } from "toolnexus";
import { weather } from "./gemini-one-tool";

export async function main() {
  const toolkit = new Toolkit([weather]);

  // Exactly what the model sends back (Gemini args are an object, not a JSON string).
  const modelTurn = {
    role: "model",
    parts: [{ functionCall: { name: "get_weather", args: { city: "Chennai" } } }],
  };
  const reply = await toolkit.runGemini(modelTurn);
  console.log("a call that succeeds:", JSON.stringify(reply));

  // The tool throws `new Error("city is required")`: the model gets `{ error }` to act on.
  const failed = await toolkit.runGemini([{ functionCall: { name: "get_weather", args: {} } }]);
  console.log("a call whose tool throws, answered as data:", JSON.stringify(failed));

  // The same failure seen directly on the tool.
  const direct = await weather.execute({});
  console.log(
    "the same failure from tool.execute:",
    JSON.stringify({ isError: direct.isError, output: direct.output }),
  );

  // Zero tools: the wrapper survives, its list is empty.
  const empty = toGemini([]);
  console.log("zero tools:", JSON.stringify(empty));
  return { reply, failed, direct, empty };
}

if (require.main === module) void main();
