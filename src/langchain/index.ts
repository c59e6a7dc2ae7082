/**
 * `toolnexus/langchain`: a toolkit's tools as LangChain structured tools (`@langchain/core`, an
 * optional peer dependency: install it to use this entry point). The core entry never imports
 * this file.
 */
export { toLangChainTools, type LangChainToolsOptions, type ToolnexusTool } from "./tools";
export type { LangChainApprovalRequest, LangChainApprover } from "./approval";
export { contentBlockOf } from "./content";
