/**
 * `toolnexus/ai-sdk`: a toolkit's tools as a Vercel AI SDK tool set for `generateText`,
 * `streamText` and agents (the `ai` package, version 6 or 7, an optional peer dependency: install
 * it to use this entry point). The core entry never imports this file.
 */
export { type AiSdkCall } from "./ai-sdk-call";
export { toAiSdkTools, type AiSdkTool, type AiSdkToolSet, type AiSdkToolsOptions } from "./tool-set";
