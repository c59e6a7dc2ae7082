import { toolMethodsOf } from "../decorators/metadata";
import { exportTools, type ExportBinding, type LoweringCache } from "../providers/adapter";
import { mcp, type McpTool } from "../providers/mcp";
import { functionInsteadOfInstance } from "../scanner/instance-expected";
import { Toolkit, type ToolSource } from "../toolkit";
import type { Tool, ToolContext, ToolResult } from "../core/types";

/** What the MCP server needs from a toolkit (a `Toolkit`, or anything shaped like one). */
export interface McpToolkit {
  /** The tools a client may see; given the call's ctx (its `state`), only those visible to it. */
  tools(ctx?: ToolContext): Tool[];
  get(name: string): Tool | undefined;
  execute(name: string, args: unknown, ctx?: ToolContext): Promise<ToolResult>;
  /** The OAuth scopes a caller needs for a resource (by URI) or prompt (by name); a `Toolkit` has it. */
  scopesFor?(kind: "resource" | "prompt", key: string, ctx?: ToolContext): readonly string[] | undefined;
}

/** Accepts a Toolkit, or the tools and decorated instances to build one from. */
export function asToolkit(toolkit: McpToolkit | readonly ToolSource[]): McpToolkit {
  if (Array.isArray(toolkit)) return new Toolkit(toolkit as readonly ToolSource[]);
  const kit = toolkit as McpToolkit;
  if (typeof kit?.tools !== "function" || typeof kit.execute !== "function" || typeof kit.get !== "function") {
    throw new TypeError(
      `serveMcp takes a Toolkit (or an array of Tools and decorated instances)${insteadOfToolkit(toolkit)}.`,
    );
  }
  return kit;
}

/** What came instead of a toolkit, and what to pass. */
function insteadOfToolkit(value: unknown): string {
  if (typeof value === "function") {
    const name = value.name || "X";
    return toolMethodsOf((value as { prototype?: unknown }).prototype).length > 0
      ? `; got the class ${name} itself: pass [new ${name}()]`
      : `; ${functionInsteadOfInstance(value)}`;
  }
  if (typeof value === "object" && value !== null)
    return "; got a single object: put it in an array, [it], or in a Toolkit";
  return `; got ${value === null ? "null" : typeof value}`;
}

/**
 * The tool names clients see. MCP allows `A-Z a-z 0-9 . _ -` up to 128 characters; a name
 * outside that (a Gemini-only `:`) is mapped reversibly, as `toMcp(tools, { names: "sanitize" })` does.
 */
class Declarations {
  #key = "";
  #tools: McpTool[] = [];
  #binding: ExportBinding = new Map();
  /** Each tool lowered once: a client that sees other tools than the last one is declared without lowering again. */
  readonly #lowerings: LoweringCache = new Map();

  constructor(private readonly toolkit: McpToolkit) {}

  current(ctx: ToolContext): { tools: McpTool[]; binding: ExportBinding } {
    const tools = this.toolkit.tools(ctx);
    const key = tools.map((tool) => tool.name).join("\u0000");
    if (key !== this.#key || this.#tools.length !== tools.length) {
      const made = exportTools(mcp, tools, { names: "sanitize" }, this.#lowerings);
      const taskTools = new Set(tools.filter((tool) => tool.task === true).map((tool) => tool.name));
      // Clients that do not use tasks can still call these tools: task support is optional.
      this.#tools = made.declarations.map((declared) =>
        taskTools.has(made.binding.get(declared.name)?.tool ?? "")
          ? { ...declared, execution: { taskSupport: "optional" } }
          : declared,
      );
      this.#binding = made.binding;
      this.#key = key;
    }
    return { tools: this.#tools, binding: this.#binding };
  }
}

const declarationsOf = new WeakMap<McpToolkit, Declarations>();

export function declarations(toolkit: McpToolkit): Declarations {
  let found = declarationsOf.get(toolkit);
  if (found === undefined) declarationsOf.set(toolkit, (found = new Declarations(toolkit)));
  return found;
}
