/**
 * The official @google/genai client against the local Gemini mock, a tool that returns an
 * image: turn 1 calls it, `runGemini` answers with the image in `functionResponse.parts`, turn 2
 * is accepted (the mock checks each part is exactly one of inlineData / fileData, with a mime
 * type) and its final text says what it received. A model before Gemini 3 refuses media in
 * function responses; `toGemini({ multimodalResults: false })` sends a note instead.
 */
import "../support/share-undici-dispatcher"; // jest only: see the file
import type { Content, GenerateContentResponse } from "@google/genai" with { "resolution-mode": "import" };
import { defineTool, image, Toolkit } from "toolnexus";
import { startMockProviders, type MockProviders } from "../support/mock-providers";

// @google/genai's `require` entry is typed by an ES-module .d.ts: require() it, typed as the module it is.
const genai: typeof import("@google/genai", { with: { "resolution-mode": "import" } }) = require("@google/genai");
const { ApiError, GoogleGenAI } = genai;

const PNG = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 13, 0x49, 0x48, 0x44, 0x52]);
const PROMPT = "Take a screenshot of the dashboard and tell me what it shows.";

const screenshot = defineTool({
  name: "screenshot",
  description: "A screenshot of a page of the app",
  inputSchema: { type: "object", properties: { page: { type: "string" } }, required: ["page"] },
  execute: () => [{ type: "text", text: "The dashboard, just now" }, image(PNG)],
});

let mock: MockProviders;

beforeAll(async () => {
  mock = await startMockProviders({ calls: [{ name: "screenshot", args: { page: "dashboard" } }] });
});

afterAll(async () => {
  await mock.close();
});

/** Turn 1, the toolkit's reply, turn 2: both requests as the mock recorded them. */
async function conversation(toolkit: Toolkit, model: string, tools: ReturnType<Toolkit["toGemini"]>) {
  const before = mock.requests.length;
  const ai = new GoogleGenAI({ apiKey: "test-key", httpOptions: { baseUrl: mock.baseUrl } });
  const contents: Content[] = [{ role: "user", parts: [{ text: PROMPT }] }];
  const first = await ai.models.generateContent({ model, contents, config: { tools } });
  const reply = (await toolkit.runGemini(first))!;
  const second: unknown = await ai.models
    .generateContent({ model, contents: [...contents, first.candidates![0]!.content!, reply], config: { tools } })
    .catch((error: unknown) => error);
  return { reply, second, requests: mock.requests.slice(before) };
}

describe("Gemini 3: an image in a function response, through the official SDK", () => {
  it("runs the two-turn conversation; the model receives the image inline", async () => {
    const toolkit = new Toolkit([screenshot]);
    const { reply, second, requests } = await conversation(toolkit, "gemini-3-flash-preview", toolkit.toGemini());

    expect((second as GenerateContentResponse).text).toBe(
      [
        "The tools returned:",
        "- screenshot: The dashboard, just now\n[image/png image, 16 B] (with image/png inline)",
      ].join("\n"),
    );
    expect(requests.map((r) => ({ status: r.status, turn: r.turn, violations: r.violations }))).toEqual([
      { status: 200, turn: 1, violations: [] },
      { status: 200, turn: 2, violations: [] },
    ]);
    // As it went over the wire: one function response, its text form and the image beside it.
    expect(requests[1]!.body.contents[2]).toEqual({
      role: "user",
      parts: [
        {
          functionResponse: {
            id: reply.parts[0]!.functionResponse.id,
            name: "screenshot",
            response: { output: "The dashboard, just now\n[image/png image, 16 B]" },
            parts: [{ inlineData: { mimeType: "image/png", data: PNG.toString("base64") } }],
          },
        },
      ],
    });
  });
});

describe("models before Gemini 3", () => {
  it("refuse media in function responses with a 400", async () => {
    const toolkit = new Toolkit([screenshot]);
    const { second, requests } = await conversation(toolkit, "gemini-2.5-flash", toolkit.toGemini());
    expect(second).toBeInstanceOf(ApiError);
    expect((second as InstanceType<typeof ApiError>).status).toBe(400);
    expect((second as Error).message).toContain("Multimodal function responses are not supported for this model");
    expect(requests[1]!.status).toBe(400);
  });

  it("take the conversation with multimodalResults: false: the image is a note the model reads", async () => {
    const toolkit = new Toolkit([screenshot]);
    const { second, requests } = await conversation(
      toolkit,
      "gemini-2.5-flash",
      toolkit.toGemini({ multimodalResults: false }),
    );
    expect((second as GenerateContentResponse).text).toBe(
      [
        "The tools returned:",
        "- screenshot: The dashboard, just now\n[image/png image, 16 B not sent: this model takes no media in function responses]",
      ].join("\n"),
    );
    expect(requests.map((r) => r.status)).toEqual([200, 200]);
    expect(requests[1]!.body.contents[2].parts[0].functionResponse.parts).toBeUndefined();
  });
});

describe("the mock checks function response parts as Gemini documents them", () => {
  it("refuses a part with both inlineData and fileData, one without a mime type, and an unknown field", async () => {
    const ai = new GoogleGenAI({ apiKey: "test-key", httpOptions: { baseUrl: mock.baseUrl } });
    const contents: Content[] = [
      { role: "user", parts: [{ text: PROMPT }] },
      { role: "model", parts: [{ functionCall: { name: "screenshot", args: { page: "dashboard" } } }] },
      {
        role: "user",
        parts: [
          {
            functionResponse: {
              name: "screenshot",
              response: { output: "see the image" },
              parts: [
                {
                  inlineData: { mimeType: "image/png", data: PNG.toString("base64") },
                  fileData: { fileUri: "https://example.com/a.png", mimeType: "image/png" },
                },
                { inlineData: { data: PNG.toString("base64") } },
                { fileData: { fileUri: "https://example.com/a.png", mimeType: "image/png", caption: "a" } as never },
              ],
            },
          },
        ],
      },
    ];
    const error = await ai.models
      .generateContent({ model: "gemini-3-flash-preview", contents })
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ApiError);
    const [refused] = mock.requests.slice(-1);
    expect(refused!.violations.map((v) => v.at)).toEqual([
      "contents[2].parts[0].functionResponse.parts[0]",
      "contents[2].parts[0].functionResponse.parts[1].inlineData.mimeType",
      "contents[2].parts[0].functionResponse.parts[2].fileData.caption",
    ]);
  });
});
