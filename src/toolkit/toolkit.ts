import { ToolDefinitionError } from "../core/errors";
import type { Tool, ToolContext, ToolResult } from "../core/types";
import type { ApprovalDecision, PendingApprovals, WithPendingApprovals } from "../control/approval";
import type { ToolMiddleware } from "../control/middleware";
import { resolveManifest, type ManifestOption, type ManifestSource } from "../manifest/load";
import { checkCallOptions, type CallOptions, type ExecuteOptions } from "../pipeline/call-options";
import { CallPipeline } from "../pipeline/call-pipeline";
import type { ExportOptions, ProviderAdapter } from "../providers/adapter";
import { described, type ExportDescription } from "../providers/described-export";
import {
  adapterFor,
  registeredProviders,
  type AnyExportOptions,
  type ExportFormat,
  type ProviderReplies,
  type ToolkitExporters,
  type ToolkitRunners,
} from "../providers/registry";
import { scanTools } from "../scanner/scan-tools";
import { ProviderExports } from "./provider-exports";
import { enterQueuedCalls } from "./queued-calls";
import { RoundTrips } from "./round-trips";
import { ToolRegistry } from "./tool-registry";
import { checkToolSources, primitivesOf, toolsOf, type ToolSource } from "./tool-sources";
import { PrimitiveRegistry, type CompletionReference, type ScopedKind } from "./primitive-registry";
import { withInputHooks, type CallHooks } from "../pipeline/input-hooks";
import type {
  Completion,
  Prompt,
  PromptResult,
  Resource,
  ResourceContents,
  ResourceTemplate,
} from "../core/primitives";

export interface ToolkitOptions extends CallOptions {
  /**
   * The manifest written by `toolnexus generate`, for the decorated instances: the object, a
   * path to it, or `false` for none. A relative path (here or in `$TOOLNEXUS_MANIFEST`) is
   * resolved from the working directory; pass an absolute path (e.g.
   * `join(__dirname, "toolnexus.manifest.json")`) to be independent of it. Left out:
   * `$TOOLNEXUS_MANIFEST` if set, else `toolnexus.manifest.json` found next to each `@Tool`
   * class's code: in the directory of the file defining it or one above, up to its package root
   * (that search never uses `process.cwd()`). Read when the first decorated instance is registered.
   */
  manifest?: ManifestOption;
  /**
   * A call, through a `run*` method, to a deferred tool that the provider's latest export did not
   * declare (no search found it yet): `"run"` (the default) runs it, as the real tool it is;
   * `"refuse"` answers it as an unknown tool, telling the model to search first. Providers that
   * search themselves (Anthropic, OpenAI Responses) enforce this on their side.
   */
  unfoundDeferredCalls?: "run" | "refuse";
}

/**
 * Every provider's methods, made from the provider registry: `toGemini(options)` and the rest,
 * each giving the declarations of the tools visible to `options.ctx` (each provider's dialect
 * applied; `describeExport` says what changed), and `runGemini(response, ctx)` … for the
 * providers whose calls toolnexus answers: every call in a model response run concurrently and
 * answered in order, never rejecting whatever they are handed. Each export is remembered per
 * provider: the run methods read the model's calls with it.
 */
// eslint-disable-next-line @typescript-eslint/no-unsafe-declaration-merging
export interface Toolkit extends ToolkitExporters, ToolkitRunners {}

/**
 * A set of uniquely named tools, their declarations for every provider, and the runtime for
 * their calls: a facade over the registry of tools, the call pipeline, the exports and the
 * providers' round trips.
 */
// The interface above, merged with this class, types the methods its static block installs.
// eslint-disable-next-line @typescript-eslint/no-unsafe-declaration-merging
export class Toolkit {
  readonly #registry: ToolRegistry;
  readonly #pipeline: CallPipeline;
  readonly #exports: ProviderExports;
  readonly #roundTrips: RoundTrips;
  readonly #manifestOption: ManifestOption;
  readonly #primitives = new PrimitiveRegistry();
  readonly #hooks: CallHooks;
  #manifest: { source: ManifestSource | undefined } | undefined;

  static {
    for (const provider of registeredProviders() as ReadonlyArray<
      ProviderAdapter & { name: string; answersCalls: boolean }
    >) {
      installMethod(this.prototype, `to${provider.name}`, function (this: Toolkit, options: ExportOptions = {}) {
        return this.#exports.export(provider, options).declarations;
      });
      if (provider.answersCalls) {
        installMethod(
          this.prototype,
          `run${provider.name}`,
          function (this: Toolkit, input: unknown, ctx?: ToolContext) {
            return this.#roundTrips.answerTurn(provider, input, ctx);
          },
        );
      }
    }
  }

  constructor(items: readonly ToolSource[] = [], options: ToolkitOptions = {}) {
    checkToolSources(items);
    // A copy, checked and then used: later changes to the caller's object cannot bypass what was checked.
    const kept = { ...options };
    checkCallOptions(kept);
    this.#registry = new ToolRegistry(kept.visible);
    this.#pipeline = new CallPipeline(this.#registry, kept);
    this.#exports = new ProviderExports(this.#registry);
    this.#roundTrips = new RoundTrips(
      this.#pipeline,
      this.#exports,
      unfoundDeferredCallsOf(kept.unfoundDeferredCalls) === "refuse"
        ? (name) => this.#registry.callable(name)?.tool.defer === true
        : undefined,
    );
    this.#manifestOption = kept.manifest;
    this.#hooks = kept;
    enterQueuedCalls(this, this.#pipeline);
    this.register(...items);
  }

  /**
   * Adds tools, resources, prompts and decorated instances. A name (or URI) already taken, or a
   * tool name accepted by no provider, throws and adds none of them.
   */
  register(...items: ToolSource[]): this {
    const scan = (instance: object) => scanTools(instance, { manifest: this.#resolvedManifest() ?? false });
    const tools = items.flatMap((item) => toolsOf(item, scan));
    const primitives = items.flatMap(primitivesOf);
    this.#primitives.check(primitives);
    this.#registry.add(tools);
    this.#primitives.add(primitives);
    if (tools.length > 0) this.#exports.forgetBindings();
    return this;
  }

  /**
   * Wraps every call from now on (see `ToolMiddleware`): the first `use`d is the outermost. A
   * middleware runs after visibility, authorization and approval, and before validation and the body.
   */
  use(middleware: ToolMiddleware): this {
    if (typeof middleware !== "function")
      throw new ToolDefinitionError(`Toolkit.use takes a function (call, next) => result (got ${typeof middleware}).`);
    this.#pipeline.use(middleware);
    return this;
  }

  /**
   * Every tool, in registration order; given a ctx, only the tools visible to it (what its exports declare and its
   * calls may run).
   */
  tools(ctx?: ToolContext): Tool[] {
    return this.#registry.tools(ctx);
  }

  get(name: string): Tool | undefined {
    return this.#registry.callable(name)?.tool;
  }

  has(name: string): boolean {
    return this.#registry.callable(name) !== undefined;
  }

  get size(): number {
    return this.#registry.size;
  }

  /** The resources at fixed URIs, in registration order; given a ctx, only those visible to it. */
  resources(ctx?: ToolContext): Resource[] {
    return this.#primitives.resources(ctx);
  }

  /** The resource templates, in registration order; given a ctx, only those visible to it. */
  resourceTemplates(ctx?: ToolContext): ResourceTemplate[] {
    return this.#primitives.resourceTemplates(ctx);
  }

  /** The prompts, in registration order; given a ctx, only those visible to it. */
  prompts(ctx?: ToolContext): Prompt[] {
    return this.#primitives.prompts(ctx);
  }

  /**
   * Reads the resource at `uri` (a fixed one, else the first template that makes it). Rejects
   * with a `PrimitiveError`: `not_found` for a URI nothing visible serves, `invalid_arguments`,
   * `forbidden`, `timeout`, `aborted` or `failed`, each saying why.
   */
  readResource(uri: string, ctx?: ToolContext): Promise<ResourceContents[]> {
    return this.#primitives.read(uri, withInputHooks(ctx, this.#hooks, uri));
  }

  /** A prompt's messages for these arguments. Rejects with a `PrimitiveError` as `readResource` does. */
  getPrompt(name: string, args: Record<string, unknown> = {}, ctx?: ToolContext): Promise<PromptResult> {
    return this.#primitives.getPrompt(name, args, withInputHooks(ctx, this.#hooks, name));
  }

  /**
   * Completions for what a user is typing into a prompt's argument or a template's variable:
   * at most 100, the best first; none where it has no `complete`. `context` holds the arguments already given.
   */
  complete(
    ref: CompletionReference,
    argument: { name: string; value: string },
    context?: Record<string, string>,
    ctx?: ToolContext,
  ): Promise<Completion> {
    return this.#primitives.complete(ref, argument, context, ctx);
  }

  /**
   * Says the resource at `uri` changed: MCP clients subscribed to it get
   * `notifications/resources/updated` (over stdio, and on 2026-07-28 `subscriptions/listen`
   * streams). Each instance tells its own clients: call it on every instance (your pub/sub).
   */
  resourceUpdated(uri: string): void {
    if (typeof uri !== "string" || uri.length === 0)
      throw new TypeError("resourceUpdated takes the URI of the resource that changed.");
    this.#primitives.updated(uri);
  }

  /** Listens for `resourceUpdated`; the returned function stops listening. */
  onResourceUpdated(listener: (uri: string) => void): () => void {
    return this.#primitives.onUpdated(listener);
  }

  /**
   * The OAuth scopes a caller needs for a resource (by URI, or a template by its URI template) or
   * a prompt (by name), among those visible to `ctx`; undefined for none. A tool's are `tool.scopes`.
   */
  scopesFor(kind: ScopedKind, key: string, ctx?: ToolContext): readonly string[] | undefined {
    return this.#primitives.scopesFor(kind, key, ctx);
  }

  /** Whether a resource or template visible to `ctx` serves `uri` (what `readResource` would read). */
  servesResource(uri: string, ctx?: ToolContext): boolean {
    return this.#primitives.resolve(uri, ctx) !== undefined;
  }

  /**
   * Pays up front what each tool's first call would: compiles every validator now (a host calls
   * it at startup when first calls must be as fast as the rest). Throws `ToolDefinitionError`
   * naming every tool whose schema cannot be compiled (their calls would fail with that error).
   */
  warm(): this {
    const failures = this.#registry.warm();
    if (failures.length > 0) {
      const listed = failures.slice(0, 5).join(" ");
      const more = failures.length > 5 ? ` And ${failures.length - 5} more.` : "";
      throw new ToolDefinitionError(
        `Toolkit.warm: ${failures.length} tool${failures.length > 1 ? "s" : ""} cannot validate their arguments. ` +
          `${listed}${more}`,
      );
    }
    return this;
  }

  /**
   * Whether `execute` would ask for approval before running this call: the tool's
   * `needsApproval` (a function that throws, or does not answer within the call's deadline,
   * counts as yes), or `approveDestructive` for a destructive tool. For hosts whose framework
   * runs its own approval flow, which then pass its outcome as `execute(..., { approved })`.
   * `args` as `execute` takes them (an object or JSON text). `false` for an unknown tool and
   * for arguments that are no object: `execute` refuses those before approval.
   */
  needsApproval(name: string, args: unknown, ctx: ToolContext = {}): Promise<boolean> {
    return this.#pipeline.needsApproval(name, args, ctx);
  }

  /**
   * Runs one call. `args` is an object or a JSON string of one. Never rejects: unknown tools,
   * bad arguments, throws, timeouts and aborts are all `ToolResult`s with `isError: true`.
   *
   * `options.approved` is for hosts whose own framework asked a person about this very call
   * (the AI SDK's and the Agents SDK's tool approvals): `true` runs it without the approval
   * step, `false` answers `denied` without running it, and any other value refuses it (see
   * `ExecuteOptions`). Visibility, authorization and the other seams apply as always.
   */
  execute(name: string, args: unknown, ctx?: ToolContext, options?: ExecuteOptions): Promise<ToolResult> {
    return this.#pipeline.execute(name, args, ctx, options);
  }

  /**
   * The declarations for `format`, every change its dialect made to the schemas, and what the
   * declarations cost in tokens (per tool, what the first request sends, what deferred tools save).
   */
  describeExport(format: ExportFormat, options: AnyExportOptions = {}): ExportDescription {
    const made = this.#exports.export(adapterFor(format), options);
    return described(format, this.#registry.tools(options.ctx ?? {}), made, options);
  }

  /**
   * Finishes a turn whose calls waited for approval: `decisions` (by each approval's `id`:
   * `true`, `false`, or `{ approved, reason }`) run the approved calls and answer the others
   * `denied`; the reply then holds every call of the turn, as the run* method would have given
   * it. Calls without a decision stay pending (`pendingApprovals` again). A resume runs each
   * waiting call at most once, however many times the stored approvals list it; each resume runs
   * the approved calls again: take the stored value out of its store before resuming it. Rejects
   * (`TypeError`, saying what is wrong) only when `pending` is not a value a run* method
   * returned; the calls never reject.
   */
  resumeApprovals<P extends keyof ProviderReplies>(
    pending: PendingApprovals<P>,
    decisions: Record<string, ApprovalDecision>,
    ctx?: ToolContext,
  ): Promise<WithPendingApprovals<ProviderReplies[P], P>>;
  /**
   * `pending` read back without its provider's type (e.g. `JSON.parse(text) as PendingApprovals`): the reply of
   * whichever provider it names.
   */
  resumeApprovals(
    pending: PendingApprovals,
    decisions: Record<string, ApprovalDecision>,
    ctx?: ToolContext,
  ): Promise<WithPendingApprovals<ProviderReplies[keyof ProviderReplies]>>;
  resumeApprovals(
    pending: PendingApprovals,
    decisions: Record<string, ApprovalDecision>,
    ctx?: ToolContext,
  ): Promise<unknown> {
    return this.#roundTrips.resume(pending, decisions, ctx);
  }

  /** The manifest, resolved once, when the first decorated instance needs it. */
  #resolvedManifest(): ManifestSource | undefined {
    this.#manifest ??= { source: resolveManifest(this.#manifestOption) };
    return this.#manifest.source;
  }
}

/** A provider's method on every toolkit, as a class method is: not enumerable, writable, configurable. */
function installMethod(prototype: object, name: string, method: (this: Toolkit, ...args: never[]) => unknown): void {
  Object.defineProperty(method, "name", { value: name });
  Object.defineProperty(prototype, name, { value: method, writable: true, configurable: true, enumerable: false });
}

function unfoundDeferredCallsOf(option: unknown): "run" | "refuse" {
  if (option === undefined || option === "run" || option === "refuse") return option ?? "run";
  throw new ToolDefinitionError(
    `Toolkit: unfoundDeferredCalls must be "run" or "refuse" (got ${JSON.stringify(option) ?? typeof option}).`,
  );
}
