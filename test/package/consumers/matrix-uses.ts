/**
 * The consumer matrix's uses: for each integration, its smallest real use, as a user of the
 * published package writes it (plain .mjs and .cjs scripts in matrix-uses/, the decorated
 * services of sources.ts compiled by the project's own TypeScript, the toolnexus CLI), each
 * printing one JSON value the use's check reads.
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import type { NodeMajor } from "../../support/node-binaries";
import { FINAL_ANSWER } from "./matrix-services";
import type { MatrixPackage } from "./matrix-packages";
import { expectWeatherServiceSchemas } from "./weather-service-schemas";

type Json = any; // eslint-disable-line @typescript-eslint/no-explicit-any

/** What a use runs: a script of uses/, a file of the TypeScript build, or the toolnexus CLI. */
export type UseCommand = { script: string } | { built: string } | { cli: (major: NodeMajor) => string[] };

export interface MatrixUse {
  /** The integration, first in the test title, so that a failure names it. */
  integration: string;
  /** What the use does, for the title; given the installed versions where it names one. */
  does: string | ((versionOf: (name: string) => string) => string);
  /** The matrix packages it loads: their versions go in the title, their engines (and their dependencies') decide the Nodes it runs on. */
  packages: readonly MatrixPackage[];
  command: UseCommand;
  /** It calls through the test's redis-server. */
  needsRedis?: boolean;
  /** What it prints: one JSON document (the default), or lines of text for a program written for people. */
  prints?: "json" | "lines";
  /** Checks what the run printed, parsed as `prints` says (`directory`: the project's, for what it wrote). */
  check(output: Json, run: { major: NodeMajor; directory: string }): void;
}

const WEATHER_SCHEMA = {
  type: "object",
  properties: { city: { type: "string" } },
  required: ["city"],
  additionalProperties: false,
};

const forecastCall = { city: "Chennai", days: 3, hourly: true, units: "celsius" };

export const MATRIX_USES: readonly MatrixUse[] = [
  {
    integration: "quick start",
    does: (versionOf) =>
      `the README's Quick start as a new user copies it, compiled by TypeScript ${versionOf("typescript")}, prints what the README says`,
    packages: ["typescript"],
    command: { built: "quick-start.js" },
    prints: "lines",
    check(lines) {
      expect(lines).toEqual([
        "1 get_weather",
        '{"role":"user","parts":[{"functionResponse":{"name":"get_weather","response":{"output":"sunny in Chennai"}}}]}',
        "{",
        "  output: 'city is required',",
        "  isError: true,",
        "  metadata: { error: 'execution_failed' }",
        "}",
      ]);
    },
  },
  {
    integration: "core",
    does: "from CommonJS with no peer installed for it: defineTool, a Toolkit, declarations for Gemini, OpenAI, Anthropic and Bedrock, calls, and runOpenAI",
    packages: [],
    command: { script: "core.cjs" },
    check(output) {
      expect(output.declarations.gemini).toEqual([
        {
          functionDeclarations: [
            {
              name: "get_weather",
              description: "Current weather for a city",
              parameters: { type: "object", properties: { city: { type: "string" } }, required: ["city"] },
            },
          ],
        },
      ]);
      expect(output.declarations.openai).toEqual([
        {
          type: "function",
          function: { name: "get_weather", description: "Current weather for a city", parameters: WEATHER_SCHEMA },
        },
      ]);
      expect(output.declarations.anthropic).toEqual([
        { name: "get_weather", description: "Current weather for a city", input_schema: WEATHER_SCHEMA },
      ]);
      expect(output.declarations.bedrock.tools).toEqual([
        {
          toolSpec: {
            name: "get_weather",
            description: "Current weather for a city",
            inputSchema: { json: WEATHER_SCHEMA },
          },
        },
      ]);
      expect(output.sameFromToolkit).toBe(true);
      expect(output.answered).toEqual({ output: "sunny in Chennai", isError: false });
      expect(output.refused).toMatchObject({ isError: true, metadata: { error: "invalid_arguments" } });
      expect(output.openaiReplies).toEqual([{ role: "tool", tool_call_id: "call_1", content: "sunny in Chennai" }]);
    },
  },
  {
    integration: "gemini",
    does: "runGemini between two generateContent turns of the official client, against the local Gemini stand-in",
    packages: ["@google/genai"],
    command: { script: "gemini.mjs" },
    check(output) {
      expect(output).toEqual({ calls: ["get_weather"], answer: FINAL_ANSWER });
    },
  },
  {
    integration: "openai",
    does: "runOpenAI (Chat Completions) and runOpenAIResponses between two turns of the official client, strict tools, against the local OpenAI stand-in",
    packages: ["openai"],
    command: { script: "openai.mjs" },
    check(output) {
      expect(output).toEqual({ chat: FINAL_ANSWER, responses: FINAL_ANSWER });
    },
  },
  {
    integration: "anthropic",
    does: "runAnthropic between two messages.create turns of the official client, against the local Anthropic stand-in",
    packages: ["@anthropic-ai/sdk"],
    command: { script: "anthropic.mjs" },
    check(output) {
      expect(output).toEqual({ stopReason: "tool_use", answer: FINAL_ANSWER });
    },
  },
  {
    integration: "bedrock",
    does: "runBedrock between two ConverseCommand turns of BedrockRuntimeClient, against the local Converse stand-in",
    packages: ["@aws-sdk/client-bedrock-runtime"],
    command: { script: "bedrock.mjs" },
    check(output) {
      expect(output).toEqual({ stopReason: "tool_use", answer: FINAL_ANSWER });
    },
  },
  {
    integration: "ai-sdk",
    does: "toAiSdkTools in generateText, ai/test's mock language model calling one tool and reading its result",
    packages: ["ai"],
    command: { script: "ai-sdk.mjs" },
    check(output) {
      expect(output.steps).toBe(2);
      expect(output.toolResultsSent).toEqual([
        {
          type: "tool-result",
          toolCallId: "call_1",
          toolName: "get_weather",
          output: { type: "text", value: "sunny in Chennai" },
        },
      ]);
    },
  },
  {
    integration: "ai-sdk with @ai-sdk/openai",
    does: "toAiSdkTools in generateText with the AI SDK's OpenAI provider, against the local OpenAI stand-in",
    packages: ["ai", "@ai-sdk/openai"],
    command: { script: "ai-sdk-openai.mjs" },
    check(output) {
      expect(output).toEqual({ steps: 2, answer: FINAL_ANSWER });
    },
  },
  {
    integration: "langchain",
    does: "toLangChainTools: a tool invoked with a tool call, LangGraph's ToolNode, and createAgent's loop with a scripted chat model",
    packages: ["@langchain/core", "@langchain/langgraph", "langchain"],
    command: { script: "langchain.mjs" },
    check(output) {
      expect(output).toEqual({
        invoked: { isToolMessage: true, toolCallId: "call_1", content: "sunny in Chennai" },
        toolNode: ["sunny in Chennai"],
        agent: "The tool said: sunny in Chennai",
      });
    },
  },
  {
    integration: "openai-agents",
    does: "toAgentsTools run by the Agents SDK's runner, its OpenAI provider against the local Responses stand-in",
    packages: ["@openai/agents"],
    command: { script: "openai-agents.mjs" },
    check(output) {
      expect(output).toEqual({ answer: FINAL_ANSWER });
    },
  },
  {
    integration: "mcp",
    does: "serveMcp over streamable HTTP on 127.0.0.1, the official client listing and calling its tool",
    packages: ["@modelcontextprotocol/sdk"],
    command: { script: "mcp.mjs" },
    check(output) {
      expect(output.tools).toEqual([{ name: "get_weather", inputSchema: WEATHER_SCHEMA }]);
      expect(output.result).toEqual({ content: [{ type: "text", text: "sunny in Chennai" }], isError: false });
    },
  },
  {
    integration: "mcp with the SDK 2.x",
    does: "fromMcp with the SDK 2.x's client on revision 2026-07-28, against its own server and against serveMcp",
    packages: ["@modelcontextprotocol/client", "@modelcontextprotocol/server", "@modelcontextprotocol/node"],
    command: { script: "mcp-sdk-2.mjs" },
    check(output) {
      expect(output.modern).toEqual({
        era: "modern",
        version: "2026-07-28",
        result: { output: "sunny in Chennai, says 2026", isError: false },
      });
      expect(output.served).toMatchObject({
        era: "modern",
        version: "2026-07-28",
        result: { output: "sunny in Chennai", isError: false },
      });
    },
  },
  {
    integration: "nestjs",
    does: (versionOf) =>
      `ToolnexusModule in a Nest application on Express, compiled by TypeScript ${versionOf("typescript")}: discovery, the injected toolkit, request scope, a guard, the MCP endpoint`,
    packages: ["@nestjs/common", "@nestjs/core", "@nestjs/platform-express", "rxjs", "reflect-metadata"],
    command: { built: "app.js" },
    check(output) {
      expect(output.oneToolkitClass).toBe(true);
      expect(output.discovered.map(({ name, provider, scope }: Json) => ({ name, provider, scope }))).toEqual([
        { name: "forecast", provider: "WeatherService", scope: "singleton" },
        { name: "plan", provider: "WeatherService", scope: "singleton" },
        { name: "whoami", provider: "VisitorService", scope: "request" },
        { name: "openVault", provider: "VaultService", scope: "singleton" },
      ]);
      expect(JSON.parse(output.forecast.output)).toEqual({ ...forecastCall, from: "2025-01-01" });
      expect(JSON.parse(output.whoami.output)).toEqual({ user: "ada" });
      expect(output.vault.refused).toMatchObject({ isError: true, metadata: { error: "forbidden" } });
      expect(output.vault.opened.output).toBe("opened");
      expect(output.mcp.status).toBe(200);
      const message = /^data: (.*)$/m.exec(output.mcp.body)?.[1];
      const listed = JSON.parse(message ?? "null")?.result?.tools?.map((tool: Json) => tool.name);
      expect([...(listed ?? [])].sort()).toEqual(["forecast", "openVault", "plan", "whoami"]);
    },
  },
  {
    integration: "class-validator",
    does: (versionOf) =>
      `a decorated service compiled by TypeScript ${versionOf("typescript")} scanned: parameter types from decorator metadata, a DTO's schema from its class-validator decorators`,
    packages: ["class-validator", "reflect-metadata"],
    command: { built: "scan.js" },
    check(output) {
      expectWeatherServiceSchemas(output.tools);
      expect(JSON.parse(output.forecast.output)).toEqual({ ...forecastCall, from: "2025-01-01" });
      expect(JSON.parse(output.plan.output)).toEqual({ isTrip: true, city: "Pune", days: 2 });
    },
  },
  {
    integration: "cli",
    does: (versionOf) =>
      `toolnexus list of the decorated services' .ts module, compiled as the CLI loads it, in a project with TypeScript ${versionOf("typescript")}`,
    packages: ["typescript"],
    command: { cli: () => ["list", "src/tools.ts", "--json"] },
    check(output) {
      expectWeatherServiceSchemas(output);
    },
  },
  {
    integration: "generate",
    does: (versionOf) =>
      `toolnexus generate: the manifest of the project's decorated services, with typescript-json-schema ${versionOf("typescript-json-schema")}, beside the project's TypeScript ${versionOf("typescript")}`,
    packages: ["typescript-json-schema"],
    command: { cli: (major) => ["generate", "--out", `generated/node-${major}.manifest.json`, "--json", "--quiet"] },
    check(output, { major, directory }) {
      expect(output).toMatchObject({ ok: true, tools: 4, errors: [] });
      const manifest = JSON.parse(readFileSync(join(directory, `generated/node-${major}.manifest.json`), "utf8"));
      expect(Object.keys(manifest.tools).sort()).toEqual([
        "VaultService.openVault",
        "VisitorService.whoami",
        "WeatherService.forecast",
        "WeatherService.plan",
      ]);
      const days = manifest.tools["WeatherService.forecast"].parameters.find(
        (parameter: Json) => parameter.name === "days",
      );
      expect(days?.schema).toMatchObject({ type: "number", description: "How many days ahead" });
    },
  },
  {
    integration: "bullmq",
    does: "a call through queueExecutor, taken by startToolWorker from a queue on a real redis-server",
    packages: ["bullmq", "ioredis"],
    command: { script: "bullmq.mjs" },
    needsRedis: true,
    check(output) {
      expect(output.result).toEqual({ output: "sunny in Chennai, answered by the worker", isError: false });
    },
  },
  {
    integration: "zod",
    does: "defineTool with a zod schema: its JSON Schema, a call parsed with its defaults, a call refused",
    packages: ["zod"],
    command: { script: "zod.mjs" },
    check(output) {
      expect(output.inputSchema).toMatchObject({
        type: "object",
        properties: { city: { type: "string", minLength: 2 }, days: { type: "integer", minimum: 1, default: 1 } },
        required: ["city"],
      });
      expect(output.answered).toEqual({ output: "sunny in Chennai for 1 day(s)", isError: false });
      expect(output.refused).toMatchObject({ isError: true, metadata: { error: "invalid_arguments" } });
      expect(output.refused.output).toContain('"city"');
    },
  },
  {
    integration: "valibot",
    does: "defineTool with a valibot schema: its JSON Schema from @valibot/to-json-schema, a call accepted, a call refused",
    packages: ["valibot", "@valibot/to-json-schema"],
    command: { script: "valibot.mjs" },
    check(output) {
      expect(output.inputSchema).toMatchObject({
        type: "object",
        properties: { city: { type: "string", minLength: 2 } },
        required: ["city"],
      });
      expect(output.answered).toEqual({ output: "sunny in Chennai", isError: false });
      expect(output.refused).toMatchObject({ isError: true, metadata: { error: "invalid_arguments" } });
    },
  },
  {
    integration: "opentelemetry",
    does: "a call traced through @opentelemetry/api: one execute_tool span with the GenAI attributes, ended",
    packages: ["@opentelemetry/api"],
    command: { script: "opentelemetry.cjs" },
    check(output) {
      expect(output.result).toEqual({ output: "sunny", isError: false });
      expect(output.spans).toEqual([
        expect.objectContaining({
          name: "execute_tool get_weather",
          attributes: expect.objectContaining({ "gen_ai.tool.name": "get_weather", "gen_ai.tool.call.id": "call_1" }),
          ended: true,
        }),
      ]);
    },
  },
  {
    integration: "gpt-tokenizer",
    does: "what OpenAI declarations cost, counted with gpt-tokenizer's o200k encoding",
    packages: ["gpt-tokenizer"],
    command: { script: "gpt-tokenizer.cjs" },
    check(output) {
      expect(output.method).toBe("o200k");
      expect(output.tools).toEqual([expect.objectContaining({ name: "get_weather", tokens: expect.any(Number) })]);
      expect(output.declared).toBeGreaterThan(0);
    },
  },
];
