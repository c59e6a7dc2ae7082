import { checkDescription, checkName, checkTask, checkTimeout, policyOf } from "../core/checks";
import { DuplicateToolError, ToolDefinitionError } from "../core/errors";
import type { Tool, ToolContext } from "../core/types";
import { retryPolicyOf } from "../control/policy";
import { visibilityBy, visibilityOf, type Visibility } from "../control/visibility";
import type { CallableTool, ToolTable } from "../pipeline/call-pipeline";
import type { CallOptions } from "../pipeline/call-options";
import { invokeWithLimits } from "../runtime/invoke";
import { errorMessage } from "../runtime/result";
import { checkArgumentsOf, guarded, runAcceptedOf, warmOf, type RunAccepted } from "../runtime/run-contract";
import { SEARCH_TOOL_NAME } from "../providers/tool-search";
import { DeferredToolSearch } from "./tool-search";

/** A toolkit's uniquely named tools, in registration order, and who may see each. */
export class ToolRegistry implements ToolTable {
  readonly #tools = new Map<string, CallableTool>();
  readonly #visible: CallOptions["visible"];
  /** Whether some tool is hidden from some ctx (a toolkit `visible`, or a tool's own). */
  #hides: boolean;
  /** How many tools are deferred: while some are, `search_tools` answers searches for them. */
  #deferred = 0;
  readonly #search = new DeferredToolSearch(
    () => this.tools().filter((tool) => tool.defer === true),
    (tool, ctx) => this.visibility(tool, ctx) === true,
  );
  #searchCallable: CallableTool | undefined;

  constructor(visible: CallOptions["visible"]) {
    this.#visible = visible;
    this.#hides = visible !== undefined;
  }

  /**
   * Adds tools, all or none: a name already taken, or a Tool written by hand that breaks a rule, throws before any is
   * added.
   */
  add(tools: readonly Tool[]): void {
    const incoming = new Map<string, Tool>();
    for (const tool of tools) {
      checkName(tool.name);
      checkDescription(tool.name, tool.description);
      // Made by defineTool or the scanner, these were checked there; a Tool written by hand is checked here.
      if (runAcceptedOf(tool) === undefined) {
        checkTimeout(`Tool "${tool.name}"`, tool.timeout);
        checkTask(`Tool "${tool.name}"`, tool.task);
        policyOf(`Tool "${tool.name}"`, tool);
      }
      const taken = this.#tools.get(tool.name)?.tool ?? incoming.get(tool.name);
      if (taken !== undefined) {
        throw new DuplicateToolError(
          `A tool named "${tool.name}" is already registered (${taken.source} tool); tool names must be unique in a ` +
            "toolkit. Rename one of them.",
        );
      }
      incoming.set(tool.name, tool);
    }
    for (const tool of incoming.values()) {
      this.#tools.set(tool.name, callableOf(tool));
      if (tool.visible !== undefined) this.#hides = true;
      if (tool.defer === true) this.#deferred++;
    }
    if (incoming.size > 0) this.#search.forget();
  }

  /** Compiles every tool's validator that is not compiled yet; what went wrong, one sentence per tool that failed. */
  warm(): string[] {
    const failures: string[] = [];
    for (const { tool } of this.#tools.values()) {
      try {
        warmOf(tool)?.();
      } catch (thrown) {
        const message = errorMessage(thrown).replace(/\.$/, "");
        failures.push(
          thrown instanceof ToolDefinitionError
            ? `${message}.`
            : `Tool "${tool.name}": inputSchema cannot be compiled for validation: ${message}.`,
        );
      }
    }
    return failures;
  }

  /** Every tool; given a ctx, only the tools visible to it. */
  tools(ctx?: ToolContext): Tool[] {
    const all = [...this.#tools.values()].map((callable) => callable.tool);
    return ctx === undefined || !this.#hides ? all : all.filter((tool) => this.visibility(tool, ctx) === true);
  }

  get hides(): boolean {
    return this.#hides;
  }

  get size(): number {
    return this.#tools.size;
  }

  /**
   * The tool of this name; `search_tools`, while some tools are deferred and none of the toolkit's
   * own takes the name, is the toolkit's search of them (what exports add where providers cannot search).
   */
  callable(name: string): CallableTool | undefined {
    const found = this.#tools.get(name);
    if (found !== undefined || name !== SEARCH_TOOL_NAME || this.#deferred === 0) return found;
    return (this.#searchCallable ??= callableOf(this.#search.tool));
  }

  visibleNames(ctx: ToolContext): string[] {
    return this.tools(ctx).map((tool) => tool.name);
  }

  /** A visibility check that throws hides the tool. */
  visibility(tool: Tool, ctx: ToolContext | undefined): Visibility {
    const shared = this.#visible;
    if (tool.visible === undefined && shared === undefined) return true;
    const seen = ctx ?? {};
    const own = visibilityOf(tool, seen);
    return own !== true || shared === undefined ? own : visibilityBy(() => shared(tool, seen));
  }
}

function callableOf(tool: Tool): CallableTool {
  const retry = retryPolicyOf(tool);
  return {
    tool,
    run: runAcceptedOf(tool) ?? foreignRunner(tool),
    check: checkArgumentsOf(tool),
    retry,
    controlled:
      tool.visible !== undefined ||
      tool.needsApproval !== undefined ||
      tool.authorize !== undefined ||
      retry !== undefined,
  };
}

/** A Tool written by hand: still held to the contract (limits, never rejects, a ToolResult). */
function foreignRunner(tool: Tool): RunAccepted {
  const body = (args: Record<string, unknown>, ctx: ToolContext) => tool.execute(args, ctx);
  return guarded(tool.name, (args, ctx, fallbackTimeout) =>
    invokeWithLimits(tool.name, body, args, ctx, tool.timeout ?? fallbackTimeout),
  );
}
