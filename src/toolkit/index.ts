export { Toolkit, type ToolkitOptions } from "./toolkit";
export { isTool, type ToolSource } from "./tool-sources";
export type { CallOptions, ExecuteOptions } from "../pipeline/call-options";
export type { ErrorTextPolicy, ToolFailure } from "../pipeline/failure-report";
export { MAX_LISTED_TOOLS } from "../pipeline/unknown-tool";
export type { ProviderReplies } from "../providers/registry";
