/**
 * `toolnexus/nestjs`: discover `@Tool` methods on the providers of a NestJS application and
 * inject one `Toolkit` built from them. NestJS (`@nestjs/common`, `@nestjs/core`) is an optional
 * peer dependency: install it to use this entry point. The core entry never imports this file.
 */
export { ToolnexusModule } from "./toolnexus.module";
export { ToolnexusExplorer, type DiscoveredTool, type ToolScope } from "./explorer";
export {
  TOOLNEXUS_OPTIONS,
  REQUEST_STATE_KEY,
  type ToolnexusModuleOptions,
  type ToolnexusModuleAsyncOptions,
  type ToolnexusMcpOptions,
  type ToolPrefixOption,
  type ProviderLocation,
} from "./options";
export { prefixFromModuleName } from "./provider-tools";
export { toolCallOf, TOOLNEXUS_CONTEXT_TYPE, type ToolCallInfo, type ToolnexusContextType } from "./execution-context";
// The toolkit's own class is the injection token: `constructor(private readonly toolkit: Toolkit)`.
export { Toolkit } from "../toolkit";
