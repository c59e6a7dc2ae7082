/**
 * `toolnexus/nestjs`: discover `@Tool` methods on the providers of a NestJS application and
 * inject one `Toolkit` built from them (the root entry's class is the injection token). NestJS
 * (`@nestjs/common`, `@nestjs/core`) is an optional peer dependency: install it to use this
 * entry point. The core entry never imports this file.
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
// `@Param` under a name that does not clash with Nest's own `@Param` (route parameters): the same
// decorator. The injected toolkit's token is the core's class: `import { Toolkit } from "toolnexus"`.
export { ToolParam } from "../decorators/param.decorator";
