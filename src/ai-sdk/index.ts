/**
 * `toolnexus/ai-sdk`: a toolkit's tools as a Vercel AI SDK tool set for `generateText`,
 * `streamText` and `Agent` (the `ai` package, version 6, an optional peer dependency: install
 * it to use this entry point). The core entry never imports this file.
 */
export { toAiSdkTools, type AiSdkCall, type AiSdkTool, type AiSdkToolSet, type AiSdkToolsOptions } from "./tool-set";
