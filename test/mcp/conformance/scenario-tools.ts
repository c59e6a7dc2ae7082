/**
 * The tools the official conformance suite's server scenarios call, by the names and results
 * those scenarios ask for, defined as any toolnexus user defines tools. Only the scenarios of
 * features toolnexus serves have their tool here.
 */
import { setTimeout as sleep } from "node:timers/promises";
import { defineTool, type JSONSchemaObject, type Tool, type ToolResult } from "toolnexus";

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
        address: { type: "object", properties: { street: { type: "string" }, city: { type: "string" } } },
      },
      properties: { name: { type: "string" }, address: { $ref: "#/$defs/address" } },
      additionalProperties: false,
    },
    execute: ({ name }) => `Hello, ${String(name)}.`,
  }),
];
