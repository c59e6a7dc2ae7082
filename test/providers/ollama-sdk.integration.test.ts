/**
 * The official `ollama` client against a local server that speaks Ollama's native `/api/chat`
 * (non-streaming) as the server does: turn 1 declares the tools and answers with tool calls;
 * `runOllama` answers them; turn 2 sends the answers back. The server holds each request to
 * Ollama's rules (the tools to what its Go structs keep, each assistant turn's calls answered by
 * `tool` messages in order) and refuses with a 400 `{ error }` as Ollama does.
 */
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { Ollama, type ChatResponse, type Message, type Tool } from "ollama";
import { defineTool, image, Toolkit } from "toolnexus";
import { checkOllamaTools, describeViolations } from "../support/dialect-rules";

const PNG = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 13, 0x49, 0x48, 0x44, 0x52]);
const PROMPT = "What is the weather in Paris, and show me the rain radar.";

const weather = defineTool({
  name: "get_weather",
  description: "Current weather for a city",
  inputSchema: {
    type: "object",
    properties: { city: { type: "string", minLength: 1 }, unit: { enum: ["C", "F"], default: "C" } },
    required: ["city"],
    additionalProperties: false,
  },
  execute: ({ city, unit }) => `18°${String(unit ?? "C")} and sunny in ${String(city)}`,
});

const radar = defineTool({
  name: "rain_radar",
  description: "The rain radar image of a city",
  inputSchema: { type: "object", properties: { city: { type: "string" } }, required: ["city"] },
  execute: ({ city }) => [{ type: "text", text: `radar of ${String(city)}` }, image(PNG)],
});

const failing = defineTool({
  name: "air_quality",
  description: "Air quality of a city",
  inputSchema: { type: "object", properties: { city: { type: "string" } }, required: ["city"] },
  execute: () => {
    throw new Error("sensor offline");
  },
});

/** The keys of Ollama's `api.Message`: anything else is dropped by the server. */
const MESSAGE_KEYS = new Set(["role", "content", "thinking", "images", "tool_calls", "tool_name", "tool_call_id"]);

interface Received {
  body: { model: string; messages: Array<Record<string, unknown>>; tools?: unknown; stream?: boolean };
  status: number;
  problems: string[];
}

/** What an assistant turn's tool calls need: one `tool` message each, right after it, in order, by name (and by id where the call had one). */
function answerProblems(messages: Array<Record<string, unknown>>): string[] {
  const problems: string[] = [];
  messages.forEach((message, i) => {
    for (const key of Object.keys(message))
      if (!MESSAGE_KEYS.has(key)) problems.push(`messages[${i}].${key}: not a field of Message`);
    if (message.role !== "assistant" || !Array.isArray(message.tool_calls)) return;
    const calls = message.tool_calls as Array<{ id?: string; function: { name: string } }>;
    calls.forEach((call, j) => {
      const answer = messages[i + 1 + j];
      if (answer?.role !== "tool")
        return void problems.push(`messages[${i + 1 + j}]: the answer to call ${j} must be a tool message`);
      if (answer.tool_name !== call.function.name)
        problems.push(
          `messages[${i + 1 + j}].tool_name: expected ${call.function.name}, got ${String(answer.tool_name)}`,
        );
      if (call.id !== undefined && answer.tool_call_id !== call.id)
        problems.push(`messages[${i + 1 + j}].tool_call_id: expected ${call.id}`);
      if (typeof answer.content !== "string") problems.push(`messages[${i + 1 + j}].content: must be a string`);
      const images = answer.images ?? [];
      if (
        !Array.isArray(images) ||
        images.some((data) => typeof data !== "string" || Buffer.from(data, "base64").toString("base64") !== data)
      )
        problems.push(`messages[${i + 1 + j}].images: must be base64 strings`);
    });
  });
  return problems;
}

/** A local `/api/chat`: the first turn calls the tools named in `calls`; the next says what the tools answered. */
async function startOllama(
  calls: ChatResponse["message"]["tool_calls"],
): Promise<{ host: string; received: Received[]; close(): Promise<void> }> {
  const received: Received[] = [];
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (chunk: Buffer) => chunks.push(chunk));
    req.on("end", () => {
      const send = (status: number, body: object) => {
        res.writeHead(status, { "content-type": "application/json; charset=utf-8" });
        res.end(JSON.stringify(body));
      };
      if (req.method !== "POST" || req.url !== "/api/chat") return send(404, { error: "404 page not found" });
      const body = JSON.parse(Buffer.concat(chunks).toString("utf8")) as Received["body"];
      const problems = [
        ...(body.tools === undefined
          ? []
          : describeViolations(checkOllamaTools(body.tools)).split("\n").filter(Boolean)),
        ...answerProblems(body.messages),
      ];
      const status = problems.length > 0 ? 400 : 200;
      received.push({ body, status, problems });
      if (status === 400) return send(400, { error: problems.join("; ") });
      const answered = body.messages.filter((message) => message.role === "tool");
      const message =
        answered.length === 0
          ? { role: "assistant", content: "", tool_calls: calls }
          : {
              role: "assistant",
              content: answered
                .map(
                  (m) =>
                    `${String(m.tool_name)}: ${String(m.content)} (${((m.images as unknown[]) ?? []).length} images)`,
                )
                .join("\n"),
            };
      send(200, {
        model: body.model,
        created_at: "2026-01-01T00:00:00.000Z",
        message,
        done_reason: "stop",
        done: true,
        total_duration: 1000,
        load_duration: 10,
        prompt_eval_count: 20,
        prompt_eval_duration: 100,
        eval_count: 10,
        eval_duration: 100,
      });
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    host: `http://127.0.0.1:${port}`,
    received,
    close: () => new Promise<void>((resolve, reject) => server.close((error) => (error ? reject(error) : resolve()))),
  };
}

/** Turn 1, the toolkit's reply, turn 2, through the official client. */
async function roundTrip(host: string, toolkit: Toolkit) {
  const client = new Ollama({ host });
  const tools: Tool[] = toolkit.toOllama();
  const messages: Message[] = [{ role: "user", content: PROMPT }];
  const first = await client.chat({ model: "qwen3", messages, tools, stream: false });
  const reply = await toolkit.runOllama(first);
  const second = await client.chat({
    model: "qwen3",
    messages: [...messages, first.message, ...reply],
    tools,
    stream: false,
  });
  return { tools, first, reply, second };
}

const toolkit = new Toolkit([weather, radar, failing]);

describe.each([
  ["Ollama before 0.12.10: calls without ids", false],
  ["Ollama 0.12.10 and later: calls with ids", true],
] as const)("%s", (_label, withIds) => {
  const calls: NonNullable<ChatResponse["message"]["tool_calls"]> = [
    { function: { name: "get_weather", arguments: { city: "Paris" } } },
    { function: { name: "rain_radar", arguments: { city: "Paris" } } },
    { function: { name: "air_quality", arguments: { city: "Paris" } } },
  ].map((call, index) => (withIds ? { id: `call_${index}`, function: { index, ...call.function } } : call));
  let ollama: Awaited<ReturnType<typeof startOllama>>;

  beforeAll(async () => {
    ollama = await startOllama(calls);
  });
  afterAll(() => ollama.close());

  it("declarations sent, calls run, answers sent back in call order: the server accepts both turns", async () => {
    const { tools, reply, second } = await roundTrip(ollama.host, toolkit);

    expect(ollama.received.map(({ status, problems }) => ({ status, problems }))).toEqual([
      { status: 200, problems: [] },
      { status: 200, problems: [] },
    ]);
    const [turn1, turn2] = ollama.received.map((request) => request.body);

    // Turn 1: the declarations as toolnexus made them, over the wire as they are.
    expect(turn1).toEqual({
      model: "qwen3",
      messages: [{ role: "user", content: PROMPT }],
      tools: JSON.parse(JSON.stringify(tools)) as unknown,
      stream: false,
    });
    expect(turn1!.tools).toEqual([
      {
        type: "function",
        function: {
          name: "get_weather",
          description: "Current weather for a city",
          parameters: {
            type: "object",
            properties: {
              city: { type: "string", description: "minLength: 1." },
              unit: { enum: ["C", "F"], description: 'Default: "C".' },
            },
            required: ["city"],
          },
        },
      },
      {
        type: "function",
        function: { name: "rain_radar", description: "The rain radar image of a city", parameters: radar.inputSchema },
      },
      {
        type: "function",
        function: { name: "air_quality", description: "Air quality of a city", parameters: failing.inputSchema },
      },
    ]);

    // Turn 2: the assistant turn as the client got it, then one tool message per call, in order.
    const ids = (index: number) => (withIds ? { tool_call_id: `call_${index}` } : {});
    expect(reply).toEqual([
      { role: "tool", content: "18°C and sunny in Paris", tool_name: "get_weather", ...ids(0) },
      {
        role: "tool",
        content: "radar of Paris\n[image/png image, 16 B]",
        tool_name: "rain_radar",
        ...ids(1),
        images: [PNG.toString("base64")],
      },
      {
        role: "tool",
        content: expect.stringMatching(/^Error: .*sensor offline/) as unknown as string,
        tool_name: "air_quality",
        ...ids(2),
      },
    ]);
    expect(turn2!.messages).toEqual([
      { role: "user", content: PROMPT },
      { role: "assistant", content: "", tool_calls: calls },
      ...JSON.parse(JSON.stringify(reply)),
    ]);

    expect(second.message.content).toBe(
      [
        "get_weather: 18°C and sunny in Paris (0 images)",
        "rain_radar: radar of Paris\n[image/png image, 16 B] (1 images)",
        `air_quality: ${reply[2]!.content} (0 images)`,
      ].join("\n"),
    );
  });
});

describe("the local server holds requests to Ollama's rules", () => {
  let ollama: Awaited<ReturnType<typeof startOllama>>;

  beforeAll(async () => {
    ollama = await startOllama([]);
  });
  afterAll(() => ollama.close());

  it("refuses a schema as the tool wrote it (keywords the server would drop), and answers out of order, with a 400", async () => {
    const client = new Ollama({ host: ollama.host });
    const raw = {
      type: "function",
      function: { name: "get_weather", description: "d", parameters: weather.inputSchema },
    };
    const refused = await client
      .chat({ model: "qwen3", messages: [{ role: "user", content: PROMPT }], tools: [raw as Tool], stream: false })
      .catch((error: unknown) => error);
    expect(refused).toBeInstanceOf(Error);
    expect((refused as Error).message).toMatch(/additionalProperties.*drops it/);

    const outOfOrder: Message[] = [
      { role: "user", content: PROMPT },
      {
        role: "assistant",
        content: "",
        tool_calls: [{ function: { name: "get_weather", arguments: { city: "Paris" } } }],
      },
      { role: "tool", content: "sunny", tool_name: "rain_radar" },
    ];
    const wrong = await client
      .chat({ model: "qwen3", messages: outOfOrder, stream: false })
      .catch((error: unknown) => error);
    expect((wrong as Error).message).toContain("messages[2].tool_name: expected get_weather, got rain_radar");
    expect(ollama.received.map((request) => request.status)).toEqual([400, 400]);
  });
});
