/**
 * The consumer matrix's packages: every optional peer of toolnexus, every SDK and framework its
 * integrations drive, and the compiler the decorated services are built with, each installed at
 * the release its `latest` dist-tag points to when the test runs, so that the matrix is the
 * first to fail when one of them moves on.
 */
export const MATRIX_PACKAGES = [
  // toolnexus/ai-sdk, and a provider of the AI SDK's own.
  "ai",
  "@ai-sdk/openai",
  // toolnexus/langchain, in LangChain's agents and LangGraph's graphs.
  "@langchain/core",
  "langchain",
  "@langchain/langgraph",
  // toolnexus/openai-agents, and the OpenAI client its provider runs.
  "@openai/agents",
  "openai",
  // The official clients the run* round trips go through.
  "@google/genai",
  "@anthropic-ai/sdk",
  "@aws-sdk/client-bedrock-runtime",
  // toolnexus/mcp, and fromMcp with the SDK 2.x's client (its server and Node adapter serve it the 2026 revision).
  "@modelcontextprotocol/sdk",
  "@modelcontextprotocol/client",
  "@modelcontextprotocol/server",
  "@modelcontextprotocol/node",
  // toolnexus/nestjs, on Express.
  "@nestjs/common",
  "@nestjs/core",
  "@nestjs/platform-express",
  "rxjs",
  "reflect-metadata",
  // toolnexus/bullmq.
  "bullmq",
  "ioredis",
  // Schemas: Standard Schema libraries, DTOs, and the generator's compiler front end.
  "zod",
  "valibot",
  "@valibot/to-json-schema",
  "class-validator",
  "typescript-json-schema",
  // Tracing and token counts.
  "@opentelemetry/api",
  "gpt-tokenizer",
  // The consumer's own compiler for the decorated services, and the Node types it builds with.
  "typescript",
  "@types/node",
] as const;

export type MatrixPackage = (typeof MATRIX_PACKAGES)[number];
