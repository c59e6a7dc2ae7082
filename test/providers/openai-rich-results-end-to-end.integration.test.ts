/**
 * Results with images, audio and files, round-tripped with the official `openai` client
 * against the local mock, which checks what OpenAI checks: for Chat Completions, every tool
 * message right after the assistant message and the parts in a user message after them, each
 * in its documented shape; for Responses, `function_call_output.output` as a string or a list
 * of input_text / input_image / input_file items. toolnexus output goes in without casts.
 */
import "reflect-metadata";
import "../support/share-undici-dispatcher"; // jest only: see the file
import OpenAI from "openai";
import type { ChatCompletionMessageParam } from "openai/resources/chat/completions";
import type { ResponseInput } from "openai/resources/responses/responses";
import { image, Param, Tool, Toolkit } from "toolnexus";
import {
  startMockProviders,
  type MockProvider,
  type MockProviders,
  type ScriptedCall,
} from "../support/mock-providers";
import { dataUrlOf, PDF, PNG, RICH_TOOLS } from "./fixtures/openai-rich-result-tools";

/** Decorated tools: a chart (text and an image) and a report returned as bytes of a declared type. */
class Studio {
  @Tool("The sales chart of a year")
  chart(@Param() year: number) {
    return [{ type: "text", text: `Sales ${year}` }, image(PNG, "image/png")];
  }

  @Tool({ description: "The quarterly report as a PDF", mimeType: "application/pdf" })
  quarterly() {
    return PDF;
  }
}

const SCRIPTS: Record<"openai-chat" | "openai-responses", ScriptedCall[]> = {
  "openai-chat": [
    { name: "chart", args: { year: 2024 } },
    { name: "quarterly", args: {} },
    { name: "voice", args: {} },
    { name: "birdsong", args: {} },
    { name: "greet", args: {} },
  ],
  "openai-responses": [
    { name: "chart", args: { year: 2024 } },
    { name: "quarterly", args: {} },
    { name: "remote_report", args: {} },
    { name: "voice", args: {} },
    { name: "greet", args: {} },
  ],
};

let mock: MockProviders;
let toolkit: Toolkit;
const client = () => new OpenAI({ apiKey: "test-key", baseURL: mock.baseUrl + "/v1" });

beforeAll(async () => {
  mock = await startMockProviders({
    calls: (provider: MockProvider) => SCRIPTS[provider as keyof typeof SCRIPTS] ?? [],
  });
  toolkit = new Toolkit([
    new Studio(),
    RICH_TOOLS.voice(),
    RICH_TOOLS.birdsong(),
    RICH_TOOLS.greet(),
    RICH_TOOLS.remote_report(),
  ]);
});

afterAll(async () => {
  await mock.close();
});

/** The requests since `before`: two turns of `provider`, both accepted, nothing violated. */
function expectCleanConversation(provider: MockProvider, before: number) {
  const requests = mock.requests.slice(before);
  expect(
    requests.map((r) => ({ provider: r.provider, status: r.status, turn: r.turn, violations: r.violations })),
  ).toEqual([
    { provider, status: 200, turn: 1, violations: [] },
    { provider, status: 200, turn: 2, violations: [] },
  ]);
  return requests;
}

async function refusal(request: Promise<unknown>): Promise<InstanceType<typeof OpenAI.BadRequestError>> {
  const error = await request.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(OpenAI.BadRequestError);
  return error as InstanceType<typeof OpenAI.BadRequestError>;
}

describe("OpenAI Chat Completions: results with parts, round trip", () => {
  const model = "gpt-4.1-mini";
  const history: ChatCompletionMessageParam[] = [
    { role: "user", content: "Chart 2024, the Q3 report, the voice memo, the birdsong, and greet me." },
  ];

  it("sends the images, audio and PDFs in one user message after the tool messages, and the model reads them", async () => {
    const before = mock.requests.length;
    const openai = client();
    const tools = toolkit.toOpenAI({ strict: true });
    const completion = await openai.chat.completions.create({ model, messages: history, tools });
    const assistant = completion.choices[0]!.message;

    const messages: ChatCompletionMessageParam[] = [...history, assistant];
    messages.push(...(await toolkit.runOpenAI(completion)));
    const final = await openai.chat.completions.create({ model, tools, messages });

    const [, turn2] = expectCleanConversation("openai-chat", before);
    const ids = assistant.tool_calls!.map((c) => c.id);
    const sent = turn2!.body.messages;
    expect(sent.map((m: { role: string }) => m.role)).toEqual([
      "user",
      "assistant",
      "tool",
      "tool",
      "tool",
      "tool",
      "tool",
      "user",
    ]);
    expect(sent.slice(2, 7).map((m: { tool_call_id: string }) => m.tool_call_id)).toEqual(ids);
    expect(sent[7].content).toEqual([
      { type: "text", text: `Attachments of tool call ${ids[0]} (chart):` },
      { type: "image_url", image_url: { url: dataUrlOf("image/png", PNG) } },
      { type: "text", text: `Attachments of tool call ${ids[1]} (quarterly):` },
      { type: "file", file: { file_data: dataUrlOf("application/pdf", PDF), filename: "file.pdf" } },
      { type: "text", text: `Attachments of tool call ${ids[2]} (voice):` },
      { type: "input_audio", input_audio: { data: expect.any(String), format: "wav" } },
    ]);

    const text = final.choices[0]!.message.content;
    expect(text).toContain(
      "- chart: Sales 2024\n[image/png image, 16 B, attached in the user message after the tool results]",
    );
    expect(text).toContain(
      "- birdsong: [audio/ogg audio, 6 B not sent: OpenAI Chat Completions takes wav and mp3 audio only (not audio/ogg)]",
    );
    expect(text).toContain("- greet: hello");
    expect(text).toContain(
      `Then: Attachments of tool call ${ids[0]} (chart): [image image/png data] Attachments of tool call ${ids[1]} (quarterly): [file file.pdf] Attachments of tool call ${ids[2]} (voice): [wav audio]`,
    );
  });

  it("refuses the user message placed before all tool messages are in", async () => {
    const openai = client();
    const completion = await openai.chat.completions.create({
      model,
      messages: history,
      tools: toolkit.toOpenAI({ strict: true }),
    });
    const reply = await toolkit.runOpenAI(completion);
    const attachments = reply[reply.length - 1]!;
    const tooEarly = [...reply.slice(0, 1), attachments, ...reply.slice(1, -1)];
    const error = await refusal(
      openai.chat.completions.create({ model, messages: [...history, completion.choices[0]!.message, ...tooEarly] }),
    );
    expect(error.message).toContain("did not have response messages");
  });

  it("refuses parts not in their documented shape", async () => {
    const openai = client();
    const error = await refusal(
      openai.chat.completions.create({
        model,
        messages: [
          {
            role: "user",
            content: [
              { type: "input_audio", input_audio: { data: "data:audio/ogg;base64,AAAA", format: "wav" } },
              { type: "file", file: { file_data: "data:text/csv;base64,AAAA", filename: "a.csv" } },
            ],
          },
        ],
      }),
    );
    expect(error.message).toContain("messages[0].content[0].input_audio.data");
    expect(error.message).toContain("Chat Completions takes PDF files only");
  });
});

describe("OpenAI Responses: results with parts, round trip", () => {
  const model = "gpt-4.1-mini";
  const input: ResponseInput = [
    { role: "user", content: "Chart 2024, the Q3 report, last year's report, the voice memo, and greet me." },
  ];

  it("sends each result's parts as its function_call_output list, and the model reads them", async () => {
    const before = mock.requests.length;
    const openai = client();
    const tools = toolkit.toOpenAIResponses({ strict: true });
    const response = await openai.responses.create({ model, input, tools });
    const calls = response.output.filter((item) => item.type === "function_call");

    const final = await openai.responses.create({
      model,
      tools,
      input: [...input, ...calls, ...(await toolkit.runOpenAIResponses(response))],
    });

    const [, turn2] = expectCleanConversation("openai-responses", before);
    const outputs = turn2!.body.input.filter((item: { type?: string }) => item.type === "function_call_output");
    expect(outputs.map((o: { call_id: string }) => o.call_id)).toEqual(calls.map((c) => c.call_id));
    expect(outputs.map((o: { output: unknown }) => o.output)).toEqual([
      [
        { type: "input_text", text: "Sales 2024" },
        { type: "input_image", image_url: dataUrlOf("image/png", PNG), detail: "auto" },
      ],
      [{ type: "input_file", file_data: dataUrlOf("application/pdf", PDF), filename: "file.pdf" }],
      [{ type: "input_file", file_url: "https://example.com/q3.pdf" }],
      [
        {
          type: "input_text",
          text: "[audio/wav audio, 16 B not sent: OpenAI Responses function outputs carry text, images and files, not audio]",
        },
      ],
      "hello",
    ]);

    expect(final.output_text).toContain("- chart: Sales 2024\n[image image/png data]");
    expect(final.output_text).toContain("- quarterly: [file file.pdf]");
    expect(final.output_text).toContain("- remote_report: [file https://example.com/q3.pdf]");
    expect(final.output_text).toContain("- voice: [audio/wav audio, 16 B not sent:");
    expect(final.output_text).toContain("- greet: hello");
  });

  it("refuses an output item that is not input_text, input_image or input_file", async () => {
    const openai = client();
    const response = await openai.responses.create({
      model,
      input,
      tools: toolkit.toOpenAIResponses({ strict: true }),
    });
    const calls = response.output.filter((item) => item.type === "function_call");
    const outputs = await toolkit.runOpenAIResponses(response);
    const withAudio = outputs.map((item, i) =>
      i === 0 ? { ...item, output: [{ type: "input_audio", input_audio: { data: "AAAA", format: "wav" } }] } : item,
    );
    const error = await refusal(
      openai.responses.create({ model, input: [...input, ...calls, ...(withAudio as ResponseInput)] }),
    );
    expect(error.message).toContain("Supported values are: 'input_text', 'input_image', and 'input_file'.");
  });
});
