/**
 * The declarations and the reply are the `ollama` client's own `Tool[]` and `Message[]`, without
 * a cast, and its `chat()` sends them as they are. The client is handed a `fetch` of its own
 * (no server, no port): what it would send is what the test reads.
 */
import { Ollama, type ChatResponse, type Fetch, type Message, type Tool } from "ollama";
import { defineTool, image, toOllama, Toolkit } from "../../src";

const PNG = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 13, 0x49, 0x48, 0x44, 0x52]);

const weather = defineTool({
  name: "get_weather",
  description: "Current weather for a city",
  inputSchema: {
    type: "object",
    properties: { city: { type: "string", minLength: 1 }, days: { type: "integer", minimum: 1, default: 1 } },
    required: ["city"],
  },
  execute: ({ city }) => `sunny in ${String(city)}`,
});

const radar = defineTool({
  name: "radar",
  description: "The rain radar of a city",
  inputSchema: { type: "object", properties: { city: { type: "string" } }, required: ["city"] },
  execute: ({ city }) => [{ type: "text", text: `radar of ${String(city)}` }, image(PNG)],
});

/** A `fetch` that answers every request with `answer`, and keeps the JSON bodies it was sent. */
function recordingFetch(answer: object): { fetch: Fetch; bodies: unknown[] } {
  const bodies: unknown[] = [];
  const fetch: Fetch = (_input, init) => {
    bodies.push(JSON.parse(String(init?.body)));
    return Promise.resolve(
      new Response(JSON.stringify(answer), { status: 200, headers: { "content-type": "application/json" } }),
    );
  };
  return { fetch, bodies };
}

it("toOllama gives the client's Tool[] and runOllama its Message[]; chat() sends both as they are", async () => {
  const toolkit = new Toolkit([weather, radar]);
  const tools: Tool[] = toolkit.toOllama();
  const free: Tool[] = toOllama(toolkit.tools());
  expect(free).toEqual(tools);

  const response: ChatResponse = {
    model: "qwen3",
    created_at: new Date(0),
    message: {
      role: "assistant",
      content: "",
      tool_calls: [
        { function: { name: "get_weather", arguments: { city: "Paris" } } },
        { function: { name: "radar", arguments: { city: "Paris" } } },
      ],
    },
    done: true,
    done_reason: "stop",
    total_duration: 1,
    load_duration: 1,
    prompt_eval_count: 1,
    prompt_eval_duration: 1,
    eval_count: 1,
    eval_duration: 1,
  };
  const reply: Message[] = await toolkit.runOllama(response);
  const messages: Message[] = [{ role: "user", content: "Will it rain in Paris?" }, response.message, ...reply];

  const { fetch, bodies } = recordingFetch({
    ...response,
    created_at: "1970-01-01T00:00:00Z",
    message: { role: "assistant", content: "Sunny, no rain." },
  });
  const client = new Ollama({ host: "http://ollama.test:11434", fetch });
  const answer = await client.chat({ model: "qwen3", messages, tools, stream: false });

  expect(answer.message.content).toBe("Sunny, no rain.");
  expect(bodies).toEqual([
    {
      model: "qwen3",
      messages: JSON.parse(JSON.stringify(messages)) as unknown,
      tools: JSON.parse(JSON.stringify(tools)) as unknown,
      stream: false,
    },
  ]);
  expect(reply).toEqual([
    { role: "tool", content: "sunny in Paris", tool_name: "get_weather" },
    {
      role: "tool",
      content: "radar of Paris\n[image/png image, 16 B]",
      tool_name: "radar",
      images: [PNG.toString("base64")],
    },
  ]);
});
