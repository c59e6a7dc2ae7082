/**
 * The tools the official conformance suite's server scenarios call, by the names and results
 * those scenarios ask for, defined as any toolnexus user defines tools. Only the scenarios of
 * features toolnexus serves have their tool here.
 */
import { setTimeout as sleep } from "node:timers/promises";
import { defineTool, type JSONSchemaObject, type SampleResult, type Tool, type ToolResult } from "toolnexus";

const NO_ARGUMENTS: JSONSchemaObject = { type: "object", properties: {} };

/** A 1x1 red PNG. */
const RED_PIXEL_PNG =
  "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8DwHwAFBQIAX8jx0gAAAABJRU5ErkJggg==";

/** A WAV file of one silent sample: the 44-byte RIFF header and two bytes of 16-bit PCM. */
const SILENT_WAV = Buffer.concat([
  Buffer.from("RIFF", "ascii"),
  Buffer.from([38, 0, 0, 0]),
  Buffer.from("WAVEfmt ", "ascii"),
  Buffer.from([16, 0, 0, 0, 1, 0, 1, 0, 0x40, 0x1f, 0, 0, 0x80, 0x3e, 0, 0, 2, 0, 16, 0]),
  Buffer.from("data", "ascii"),
  Buffer.from([2, 0, 0, 0, 0, 0]),
]).toString("base64");

const base64 = (text: string) => Buffer.from(text, "utf8").toString("base64");

export const scenarioTools: Tool[] = [
  defineTool({
    name: "test_simple_text",
    description: "Returns simple text",
    inputSchema: NO_ARGUMENTS,
    execute: () => "This is a simple text response for testing.",
  }),
  defineTool({
    name: "test_image_content",
    description: "Returns an image",
    inputSchema: NO_ARGUMENTS,
    execute: (): ToolResult => ({
      output: "",
      isError: false,
      content: [{ type: "image", data: RED_PIXEL_PNG, mimeType: "image/png" }],
    }),
  }),
  defineTool({
    name: "test_audio_content",
    description: "Returns audio",
    inputSchema: NO_ARGUMENTS,
    execute: (): ToolResult => ({
      output: "",
      isError: false,
      content: [{ type: "audio", data: SILENT_WAV, mimeType: "audio/wav" }],
    }),
  }),
  defineTool({
    name: "test_embedded_resource",
    description: "Returns an embedded resource",
    inputSchema: NO_ARGUMENTS,
    execute: (): ToolResult => ({
      output: "",
      isError: false,
      content: [
        {
          type: "file",
          name: "embedded-resource",
          data: base64("This is an embedded resource content."),
          mimeType: "text/plain",
        },
      ],
    }),
  }),
  defineTool({
    name: "test_multiple_content_types",
    description: "Returns text, an image and an embedded resource",
    inputSchema: NO_ARGUMENTS,
    execute: (): ToolResult => ({
      output: "",
      isError: false,
      content: [
        { type: "text", text: "Multiple content types test:" },
        { type: "image", data: RED_PIXEL_PNG, mimeType: "image/png" },
        {
          type: "file",
          name: "mixed-content-resource",
          data: base64(JSON.stringify({ test: "data", value: 123 })),
          mimeType: "application/json",
        },
      ],
    }),
  }),
  defineTool({
    name: "test_error_handling",
    description: "Always fails",
    inputSchema: NO_ARGUMENTS,
    execute: () => {
      throw new Error("This tool intentionally returns an error for testing");
    },
  }),
  defineTool({
    name: "test_tool_with_progress",
    description: "Reports progress at 0, 50 and 100 of 100",
    inputSchema: NO_ARGUMENTS,
    execute: async (_args, ctx) => {
      ctx.reportProgress(0, 100);
      await sleep(50);
      ctx.reportProgress(50, 100);
      await sleep(50);
      ctx.reportProgress(100, 100);
      return "Progress reported: 0, 50 and 100 of 100.";
    },
  }),
  defineTool({
    name: "json_schema_2020_12_tool",
    description: "Tool with JSON Schema 2020-12 features",
    inputSchema: {
      $schema: "https://json-schema.org/draft/2020-12/schema",
      type: "object",
      $defs: {
        address: {
          $anchor: "addressDef",
          type: "object",
          properties: { street: { type: "string" }, city: { type: "string" } },
        },
      },
      properties: {
        name: { type: "string" },
        address: { $ref: "#/$defs/address" },
        contactMethod: { type: "string", enum: ["phone", "email"] },
        phone: { type: "string" },
        email: { type: "string" },
      },
      allOf: [{ anyOf: [{ required: ["phone"] }, { required: ["email"] }] }],
      if: { properties: { contactMethod: { const: "phone" } }, required: ["contactMethod"] },
      then: { required: ["phone"] },
      else: { required: ["email"] },
      additionalProperties: false,
    },
    execute: ({ name }) => `Hello, ${String(name)}.`,
  }),
];

/** The 2025-era scenarios' tools that ask the client (over the session the client opened at initialize). */
export const askingScenarioTools: Tool[] = [
  defineTool({
    name: "test_sampling",
    description: "Asks the client's model",
    inputSchema: { type: "object", properties: { prompt: { type: "string" } }, required: ["prompt"] },
    execute: async ({ prompt }, ctx) => {
      const result = await ctx.sample({
        messages: [{ role: "user", content: { type: "text", text: String(prompt) } }],
        maxTokens: 100,
      });
      return `LLM response: ${textOf(result)}`;
    },
  }),
  defineTool({
    name: "test_elicitation",
    description: "Asks the user",
    inputSchema: { type: "object", properties: { message: { type: "string" } }, required: ["message"] },
    execute: async ({ message }, ctx) => {
      const answer = await ctx.elicit({
        message: String(message),
        schema: {
          type: "object",
          properties: {
            username: { type: "string", description: "User's response" },
            email: { type: "string", description: "User's email address" },
          },
          required: ["username", "email"],
        },
      });
      return `User response: ${JSON.stringify(answer)}`;
    },
  }),
  defineTool({
    name: "test_elicitation_sep1034_defaults",
    description: "Asks the user with defaults",
    inputSchema: NO_ARGUMENTS,
    execute: async (_args, ctx) => {
      const answer = await ctx.elicit({
        message: "Please review and update the form fields with defaults",
        schema: {
          type: "object",
          properties: {
            name: { type: "string", default: "John Doe" },
            age: { type: "integer", default: 30 },
            score: { type: "number", default: 95.5 },
            status: { type: "string", enum: ["active", "inactive", "pending"], default: "active" },
            verified: { type: "boolean", default: true },
          },
        },
      });
      return `Elicitation completed: action=${answer.action}, content=${JSON.stringify("content" in answer ? answer.content : {})}`;
    },
  }),
  defineTool({
    name: "test_elicitation_sep1330_enums",
    description: "Asks the user to pick from every kind of enum",
    inputSchema: NO_ARGUMENTS,
    execute: async (_args, ctx) => {
      const answer = await ctx.elicit({
        message: "Please select options from the enum fields",
        schema: {
          type: "object",
          properties: {
            untitledSingle: { type: "string", enum: ["option1", "option2", "option3"] },
            titledSingle: {
              type: "string",
              oneOf: [
                { const: "value1", title: "First Option" },
                { const: "value2", title: "Second Option" },
                { const: "value3", title: "Third Option" },
              ],
            },
            legacyEnum: {
              type: "string",
              enum: ["opt1", "opt2", "opt3"],
              enumNames: ["Option One", "Option Two", "Option Three"],
            },
            untitledMulti: { type: "array", items: { type: "string", enum: ["option1", "option2", "option3"] } },
            titledMulti: {
              type: "array",
              items: {
                anyOf: [
                  { const: "value1", title: "First Choice" },
                  { const: "value2", title: "Second Choice" },
                  { const: "value3", title: "Third Choice" },
                ],
              },
            },
          },
        },
      });
      return `Elicitation completed: action=${answer.action}, content=${JSON.stringify("content" in answer ? answer.content : {})}`;
    },
  }),
];

/** A form of one required field. */
const form = (field: string, type: "string" | "boolean"): JSONSchemaObject => ({
  type: "object",
  properties: { [field]: { type } },
  required: [field],
});

/** The text of a sampling result. */
const textOf = (result: SampleResult): string => String((result.content as { text?: unknown }).text ?? "");

/**
 * The tools of revision 2026-07-28's multi-round-trip scenarios: each asks the client with
 * `ctx.elicit` / `ctx.sample` under the keys the scenarios name, and answers once it has the
 * answers.
 */
export const inputRequiredScenarioTools: Tool[] = [
  defineTool({
    name: "test_input_required_result_elicitation",
    description: "Asks the user's name, then greets them",
    inputSchema: NO_ARGUMENTS,
    execute: async (_args, ctx) => {
      const answer = await ctx.elicit({
        key: "user_name",
        message: "What is your name?",
        schema: form("name", "string"),
      });
      return answer.action === "accept" ? `Hello, ${String(answer.content?.name)}!` : `No name (${answer.action}).`;
    },
  }),
  defineTool({
    name: "test_input_required_result_sampling",
    description: "Asks the client's model a question",
    inputSchema: NO_ARGUMENTS,
    execute: async (_args, ctx) => {
      const result = await ctx.sample({
        key: "capital_question",
        messages: [{ role: "user", content: { type: "text", text: "What is the capital of France?" } }],
        maxTokens: 100,
      });
      return `The model answered: ${textOf(result)}`;
    },
  }),
  defineTool({
    name: "test_input_required_result_request_state",
    description: "Asks for a confirmation, carrying its state through the client",
    inputSchema: NO_ARGUMENTS,
    execute: async (_args, ctx) => {
      const answer = await ctx.elicit({ key: "confirm", message: "Please confirm", schema: form("ok", "boolean") });
      return answer.action === "accept" && answer.content?.ok === true ? "Confirmed." : "Not confirmed.";
    },
  }),
  defineTool({
    name: "test_input_required_result_multi_round",
    description: "Asks two questions, one round each",
    inputSchema: NO_ARGUMENTS,
    execute: async (_args, ctx) => {
      const name = await ctx.elicit({
        key: "step1",
        message: "Step 1: What is your name?",
        schema: form("name", "string"),
      });
      const color = await ctx.elicit({
        key: "step2",
        message: "Step 2: What is your favorite color?",
        schema: form("color", "string"),
      });
      return `${String(name.action === "accept" ? name.content?.name : "?")} likes ${String(
        color.action === "accept" ? color.content?.color : "?",
      )}.`;
    },
  }),
  defineTool({
    name: "test_input_required_result_capabilities",
    description: "Asks the user and the client's model at once: only what the client can answer is asked",
    inputSchema: NO_ARGUMENTS,
    execute: async (_args, ctx) => {
      const [name, greeting] = await Promise.allSettled([
        ctx.elicit({ key: "user_name", message: "What is your name?", schema: form("name", "string") }),
        ctx.sample({
          key: "greeting",
          messages: [{ role: "user", content: { type: "text", text: "Generate a greeting" } }],
          maxTokens: 50,
        }),
      ]);
      const who =
        name.status === "fulfilled" && name.value.action === "accept" ? String(name.value.content?.name) : "you";
      return `${greeting.status === "fulfilled" ? textOf(greeting.value) : "Hello"}, ${who}!`;
    },
  }),
  defineTool({
    name: "test_input_required_result_tampered_state",
    description: "Asks a question with signed state",
    inputSchema: NO_ARGUMENTS,
    execute: async (_args, ctx) => {
      const answer = await ctx.elicit({ key: "confirm", message: "Please confirm", schema: form("ok", "boolean") });
      return `Answered: ${answer.action}.`;
    },
  }),
];
