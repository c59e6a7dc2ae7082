/**
 * The official SDK clients, pointed at the local mock providers, drive a whole two-turn
 * conversation with a Toolkit of decorated tools: turn 1 (two parallel calls, one of them
 * invalid) → toolkit.run* on the SDK's own response object → append per the provider's
 * pattern → turn 2 → the final text quotes both results. The mock checks every declaration
 * and every tool result against the provider's rules, and refuses with the provider's 400.
 *
 * toolnexus output goes into the SDK calls without casts: that is part of what is tested
 * (`npx tsc -p tsconfig.json` type-checks this file against the SDKs' own types).
 */
import "reflect-metadata";
import "../support/share-undici-dispatcher"; // jest only: see the file
import Anthropic from "@anthropic-ai/sdk";
import type { MessageParam } from "@anthropic-ai/sdk/resources/messages";
import type { Content, FunctionDeclaration } from "@google/genai" with { "resolution-mode": "import" };
import OpenAI from "openai";
import type { ChatCompletionMessageParam } from "openai/resources/chat/completions";
import type { ResponseInput } from "openai/resources/responses/responses";
import { OrdersService, WeatherService } from "../../examples/services";
import { Toolkit } from "../../src";
import {
  checkAnthropicToolResults,
  checkAnthropicTools,
  checkGeminiToolResults,
  checkGeminiTools,
  checkOpenAIChatToolResults,
  checkOpenAIChatTools,
  checkOpenAIResponsesToolResults,
  checkOpenAIResponsesTools,
} from "../support/dialect-rules";
import {
  startMockProviders,
  type MockProvider,
  type MockProviders,
  type ScriptedCall,
} from "../support/mock-providers";

// @google/genai's `require` entry is typed by an ES-module .d.ts, so a static import from this
// CommonJS test fails to type-check (TS1479). require() it, typed as the module it is.
const genai: typeof import("@google/genai", { with: { "resolution-mode": "import" } }) = require("@google/genai");
const { ApiError, GoogleGenAI, Type } = genai;
type ApiError = InstanceType<typeof ApiError>;

const PROMPT =
  "What is the weather in Chennai in fahrenheit? Also order for me: email not-an-email, nothing in the cart.";

/** The model's turn 1: a valid weather call and an order the tool refuses (bad email, empty cart). */
function script(provider: MockProvider): ScriptedCall[] {
  const order: Record<string, unknown> = { customerEmail: "not-an-email", lines: [] };
  // A strict-mode model answers every property, null for the optional ones.
  if (provider === "openai-chat" || provider === "openai-responses") order.note = null;
  return [
    { name: "getWeather", args: { city: "Chennai", units: "fahrenheit" } },
    { name: "place_order", args: order },
  ];
}

const WEATHER_OUTPUT = JSON.stringify({ city: "Chennai", temperature: 88, units: "fahrenheit" });

/** Both results, quoted by the mock's final answer: the success output and the error text. */
function expectBothResults(text: string | null | undefined) {
  expect(text).toContain("The tools returned:");
  expect(text).toContain(`- getWeather: ${WEATHER_OUTPUT}`);
  expect(text).toMatch(/- place_order \(error\): (Error: )?Invalid arguments for tool "place_order"/);
  expect(text).toContain('"customerEmail"');
  expect(text).toContain('"lines"');
}

let mock: MockProviders;
let toolkit: Toolkit;

beforeAll(async () => {
  mock = await startMockProviders({ calls: script });
  toolkit = new Toolkit([new WeatherService(), new OrdersService()]);
});

afterAll(async () => {
  await mock.close();
});

/** The requests since `before`: two turns of `provider`, both accepted, nothing violated. */
function expectCleanConversation(provider: MockProvider, before: number) {
  const requests = mock.requests.slice(before);
  expect(requests.map((r) => r.provider)).toEqual([provider, provider]);
  expect(requests.map((r) => ({ status: r.status, turn: r.turn, violations: r.violations }))).toEqual([
    { status: 200, turn: 1, violations: [] },
    { status: 200, turn: 2, violations: [] },
  ]);
  return requests;
}

describe("Gemini: @google/genai models.generateContent", () => {
  it("runs the two-turn conversation", async () => {
    const before = mock.requests.length;
    const ai = new GoogleGenAI({ apiKey: "test-key", httpOptions: { baseUrl: mock.baseUrl } });
    const model = "gemini-2.5-flash";
    const contents: Content[] = [{ role: "user", parts: [{ text: PROMPT }] }];

    const first = await ai.models.generateContent({ model, contents, config: { tools: toolkit.toGemini() } });
    expect(first.functionCalls?.map((c) => c.name)).toEqual(["getWeather", "place_order"]);

    const modelTurn = first.candidates![0]!.content!;
    // The response holds calls, so there is a reply to append.
    const reply = (await toolkit.runGemini(first))!;
    expect(reply.parts.map((p) => p.functionResponse.id)).toEqual(first.functionCalls!.map((c) => c.id));

    const second = await ai.models.generateContent({
      model,
      contents: [...contents, modelTurn, reply],
      config: { tools: toolkit.toGemini() },
    });
    expectBothResults(second.text);

    const [turn1, turn2] = expectCleanConversation("gemini", before);
    expect(turn1!.path).toBe(`/v1beta/models/${model}:generateContent`);
    expect(turn1!.headers["x-goog-api-key"]).toBe("test-key");
    expect(checkGeminiTools(turn1!.body.tools)).toEqual([]);
    expect(turn1!.body.tools[0].functionDeclarations.map((d: FunctionDeclaration) => d.name)).toEqual([
      "getWeather",
      "place_order",
    ]);
    // The tool results as they went over the wire: ONE user turn, output for the success, error for the failure.
    expect(checkGeminiToolResults(turn2!.body.contents)).toEqual([]);
    const sent = turn2!.body.contents[2];
    expect(sent.role).toBe("user");
    expect(
      sent.parts.map((p: { functionResponse: { name: string; response: object } }) => [
        p.functionResponse.name,
        Object.keys(p.functionResponse.response),
      ]),
    ).toEqual([
      ["getWeather", ["output"]],
      ["place_order", ["error"]],
    ]);
  });

  it("refuses a hand-written declaration outside the Gemini dialect with the Gemini 400", async () => {
    const ai = new GoogleGenAI({ apiKey: "test-key", httpOptions: { baseUrl: mock.baseUrl } });
    // Bypassing toolnexus: exclusiveMinimum and additionalProperties are not Gemini Schema fields.
    const parameters = {
      type: Type.OBJECT,
      properties: { price: { type: Type.NUMBER, exclusiveMinimum: 0 } },
      required: ["price"],
      additionalProperties: false,
    };
    const before = mock.requests.length;
    const error = await ai.models
      .generateContent({
        model: "gemini-2.5-flash",
        contents: PROMPT,
        config: { tools: [{ functionDeclarations: [{ name: "raw_price", description: "Hand-written", parameters }] }] },
      })
      .then(
        () => undefined,
        (e: unknown) => e,
      );
    expect(error).toBeInstanceOf(ApiError);
    expect((error as ApiError).status).toBe(400);
    const body = JSON.parse((error as ApiError).message);
    expect(body.error).toMatchObject({ code: 400, status: "INVALID_ARGUMENT" });
    expect(body.error.message).toContain('Unknown name "exclusiveMinimum"');
    // The SDK itself strips additionalProperties on the way out (processJsonSchema), so the
    // 400 comes from exclusiveMinimum: the other unknown field got through.
    const sent = mock.requests[before]!;
    expect(sent.status).toBe(400);
    expect(JSON.stringify(sent.body.tools)).not.toContain("additionalProperties");
    expect(sent.violations.map((v) => v.at)).toEqual([
      "tools[0].functionDeclarations[0].parameters.properties.price.exclusiveMinimum",
    ]);
  });

  it("refuses tool results split over two user turns", async () => {
    const ai = new GoogleGenAI({ apiKey: "test-key", httpOptions: { baseUrl: mock.baseUrl } });
    const contents: Content[] = [{ role: "user", parts: [{ text: PROMPT }] }];
    const first = await ai.models.generateContent({
      model: "gemini-2.5-flash",
      contents,
      config: { tools: toolkit.toGemini() },
    });
    const reply = (await toolkit.runGemini(first))!;
    const split = reply.parts.map((part) => ({ role: "user", parts: [part] }));
    const error = await ai.models
      .generateContent({
        model: "gemini-2.5-flash",
        contents: [...contents, first.candidates![0]!.content!, ...split],
        config: { tools: toolkit.toGemini() },
      })
      .then(
        () => undefined,
        (e: unknown) => e,
      );
    expect((error as ApiError).status).toBe(400);
    expect((error as ApiError).message).toContain(
      "the number of function response parts (1) is equal to the number of function call parts (2)",
    );
  });
});

describe("OpenAI: openai chat.completions.create (strict)", () => {
  const client = () => new OpenAI({ apiKey: "test-key", baseURL: mock.baseUrl + "/v1" });

  it("runs the two-turn conversation", async () => {
    const before = mock.requests.length;
    const openai = client();
    const model = "gpt-4.1-mini";
    const history: ChatCompletionMessageParam[] = [{ role: "user", content: PROMPT }];
    const tools = toolkit.toOpenAI({ strict: true });

    const completion = await openai.chat.completions.create({ model, messages: history, tools });
    expect(completion.choices[0]!.finish_reason).toBe("tool_calls");
    const assistant = completion.choices[0]!.message;

    const final = await openai.chat.completions.create({
      model,
      tools,
      messages: [...history, assistant, ...(await toolkit.runOpenAI(completion))],
    });
    expectBothResults(final.choices[0]!.message.content);

    const [turn1, turn2] = expectCleanConversation("openai-chat", before);
    expect(turn1!.headers.authorization).toBe("Bearer test-key");
    expect(checkOpenAIChatTools(turn1!.body.tools)).toEqual([]);
    expect(turn1!.body.tools.map((t: { function: { strict: boolean } }) => t.function.strict)).toEqual([true, true]);
    expect(checkOpenAIChatToolResults(turn2!.body.messages)).toEqual([]);
    const toolMessages = turn2!.body.messages.filter((m: { role: string }) => m.role === "tool");
    expect(toolMessages.map((m: { tool_call_id: string }) => m.tool_call_id)).toEqual(
      assistant.tool_calls!.map((c) => c.id),
    );
    expect(toolMessages[0].content).toBe(WEATHER_OUTPUT);
    expect(toolMessages[1].content).toMatch(/^Error: Invalid arguments for tool "place_order"/);
  });

  it("refuses a strict declaration that is not strict-shaped with the OpenAI 400", async () => {
    const openai = client();
    const error = await openai.chat.completions
      .create({
        model: "gpt-4.1-mini",
        messages: [{ role: "user", content: PROMPT }],
        tools: [
          {
            type: "function",
            function: {
              name: "raw_open",
              parameters: { type: "object", properties: { a: { type: "string" } } },
              strict: true,
            },
          },
        ],
      })
      .then(
        () => undefined,
        (e: unknown) => e,
      );
    expect(error).toBeInstanceOf(OpenAI.BadRequestError);
    const e = error as InstanceType<typeof OpenAI.BadRequestError>;
    expect(e.status).toBe(400);
    expect(e.type).toBe("invalid_request_error");
    expect(e.param).toBe("tools[0].function.parameters.additionalProperties");
    expect(e.message).toContain(
      "'required' is required to be supplied and to be an array including every key in properties. Missing 'a'",
    );
  });

  it("refuses an assistant tool_calls message answered for only one call", async () => {
    const openai = client();
    const history: ChatCompletionMessageParam[] = [{ role: "user", content: PROMPT }];
    const completion = await openai.chat.completions.create({
      model: "gpt-4.1-mini",
      messages: history,
      tools: toolkit.toOpenAI({ strict: true }),
    });
    const results = await toolkit.runOpenAI(completion);
    const error = await openai.chat.completions
      .create({ model: "gpt-4.1-mini", messages: [...history, completion.choices[0]!.message, results[0]!] })
      .then(
        () => undefined,
        (e: unknown) => e,
      );
    expect(error).toBeInstanceOf(OpenAI.BadRequestError);
    expect((error as Error).message).toContain(
      `did not have response messages: ${completion.choices[0]!.message.tool_calls![1]!.id}`,
    );
  });
});

describe("OpenAI: openai responses.create (strict)", () => {
  const client = () => new OpenAI({ apiKey: "test-key", baseURL: mock.baseUrl + "/v1" });

  it("runs the two-turn conversation", async () => {
    const before = mock.requests.length;
    const openai = client();
    const model = "gpt-4.1-mini";
    const input: ResponseInput = [{ role: "user", content: PROMPT }];
    const tools = toolkit.toOpenAIResponses({ strict: true });

    const response = await openai.responses.create({ model, input, tools });
    expect(response.output.map((item) => item.type)).toEqual(["function_call", "function_call"]);

    const final = await openai.responses.create({
      model,
      tools,
      // Stateless: resend the model's function_call items, then the outputs. (Spreading all of
      // response.output does not type-check against ResponseInput in openai 6.49: see the report.)
      input: [
        ...input,
        ...response.output.filter((item) => item.type === "function_call"),
        ...(await toolkit.runOpenAIResponses(response)),
      ],
    });
    expectBothResults(final.output_text);

    const [turn1, turn2] = expectCleanConversation("openai-responses", before);
    expect(checkOpenAIResponsesTools(turn1!.body.tools)).toEqual([]);
    expect(turn1!.body.tools.map((t: { strict: boolean }) => t.strict)).toEqual([true, true]);
    expect(checkOpenAIResponsesToolResults(turn2!.body.input)).toEqual([]);
    const outputs = turn2!.body.input.filter((i: { type?: string }) => i.type === "function_call_output");
    expect(outputs.map((o: { call_id: string }) => o.call_id)).toEqual(
      response.output.map((item) => (item.type === "function_call" ? item.call_id : "")),
    );
    expect(outputs[0].output).toBe(WEATHER_OUTPUT);
    expect(outputs[1].output).toMatch(/^Error: Invalid arguments for tool "place_order"/);
  });

  it("refuses a strict function whose schema leaves a property optional with the OpenAI 400", async () => {
    const openai = client();
    const error = await openai.responses
      .create({
        model: "gpt-4.1-mini",
        input: PROMPT,
        tools: [
          {
            type: "function",
            name: "raw_open",
            parameters: { type: "object", properties: { a: { type: "string" } }, additionalProperties: false },
            strict: true,
          },
        ],
      })
      .then(
        () => undefined,
        (e: unknown) => e,
      );
    expect(error).toBeInstanceOf(OpenAI.BadRequestError);
    const e = error as InstanceType<typeof OpenAI.BadRequestError>;
    expect(e.type).toBe("invalid_request_error");
    expect(e.param).toBe("tools[0].parameters.required");
  });

  it("refuses function_call_output items whose function_call is not in the input", async () => {
    const openai = client();
    const response = await openai.responses.create({
      model: "gpt-4.1-mini",
      input: PROMPT,
      tools: toolkit.toOpenAIResponses({ strict: true }),
    });
    const outputs = await toolkit.runOpenAIResponses(response);
    const error = await openai.responses
      .create({ model: "gpt-4.1-mini", input: [{ role: "user", content: PROMPT }, ...outputs] })
      .then(
        () => undefined,
        (e: unknown) => e,
      );
    expect(error).toBeInstanceOf(OpenAI.BadRequestError);
    expect((error as Error).message).toContain(
      `No tool call found for function call output with call_id ${outputs[0]!.call_id}.`,
    );
  });
});

describe("Anthropic: @anthropic-ai/sdk messages.create", () => {
  const client = () => new Anthropic({ apiKey: "test-key", baseURL: mock.baseUrl });

  it("runs the two-turn conversation", async () => {
    const before = mock.requests.length;
    const anthropic = client();
    const model = "claude-sonnet-4-5";
    const messages: MessageParam[] = [{ role: "user", content: PROMPT }];

    const message = await anthropic.messages.create({
      model,
      max_tokens: 1024,
      messages,
      tools: toolkit.toAnthropic(),
    });
    expect(message.stop_reason).toBe("tool_use");

    const final = await anthropic.messages.create({
      model,
      max_tokens: 1024,
      tools: toolkit.toAnthropic(),
      messages: [...messages, { role: "assistant", content: message.content }, (await toolkit.runAnthropic(message))!],
    });
    expect(final.stop_reason).toBe("end_turn");
    const text = final.content.map((block) => (block.type === "text" ? block.text : "")).join("");
    expectBothResults(text);

    const [turn1, turn2] = expectCleanConversation("anthropic", before);
    // @anthropic-ai/sdk 1.x sends `apiKey` as a Bearer token.
    expect(turn1!.headers.authorization).toBe("Bearer test-key");
    expect(checkAnthropicTools(turn1!.body.tools)).toEqual([]);
    expect(checkAnthropicToolResults(turn2!.body.messages)).toEqual([]);
    const results = turn2!.body.messages[2].content;
    const uses = message.content.filter((block) => block.type === "tool_use");
    expect(results.map((r: { tool_use_id: string }) => r.tool_use_id)).toEqual(uses.map((u) => u.id));
    expect(results[0]).toEqual({ type: "tool_result", tool_use_id: uses[0]!.id, content: WEATHER_OUTPUT });
    expect(results[1]).toMatchObject({
      type: "tool_result",
      is_error: true,
      content: expect.stringMatching(/^Invalid arguments for tool "place_order"/),
    });
  });

  it("refuses an input_schema with a root anyOf with the Anthropic 400", async () => {
    const anthropic = client();
    const error = await anthropic.messages
      .create({
        model: "claude-sonnet-4-5",
        max_tokens: 256,
        messages: [{ role: "user", content: PROMPT }],
        tools: [
          {
            name: "raw_union",
            description: "Hand-written",
            input_schema: { type: "object", anyOf: [{ required: ["a"] }, { required: ["b"] }] },
          },
        ],
      })
      .then(
        () => undefined,
        (e: unknown) => e,
      );
    expect(error).toBeInstanceOf(Anthropic.BadRequestError);
    const e = error as InstanceType<typeof Anthropic.BadRequestError>;
    expect(e.status).toBe(400);
    expect(e.error).toMatchObject({ type: "error", error: { type: "invalid_request_error" } });
    expect(e.message).toContain("input_schema does not support anyOf at the top level");
  });

  it("refuses a tool_use turn answered for only one tool_use id", async () => {
    const anthropic = client();
    const messages: MessageParam[] = [{ role: "user", content: PROMPT }];
    const message = await anthropic.messages.create({
      model: "claude-sonnet-4-5",
      max_tokens: 256,
      messages,
      tools: toolkit.toAnthropic(),
    });
    const reply = (await toolkit.runAnthropic(message))!;
    const error = await anthropic.messages
      .create({
        model: "claude-sonnet-4-5",
        max_tokens: 256,
        messages: [
          ...messages,
          { role: "assistant", content: message.content },
          { role: "user", content: reply.content.slice(0, 1) },
        ],
      })
      .then(
        () => undefined,
        (e: unknown) => e,
      );
    expect(error).toBeInstanceOf(Anthropic.BadRequestError);
    expect((error as Error).message).toContain(
      "`tool_use` ids were found without `tool_result` blocks immediately after",
    );
  });
});
