import { PrimitiveError, ToolDefinitionError } from "../core/errors";
import type { Completion, Prompt, Resource, ResourceContents, ResourceTemplate } from "../core/primitives";
import type { ToolContext } from "../core/types";
import { complete } from "../runtime/completions";
import { isThenable } from "../runtime/invoke";
import { isPrompt, isResource, type Primitive } from "../scanner/scan-primitives";

/** What a completion is asked for: a prompt's argument, or a resource template's variable. */
export type CompletionReference = { type: "ref/prompt"; name: string } | { type: "ref/resource"; uri: string };

/** What besides tools a caller's OAuth scopes are checked for. */
export type ScopedKind = "resource" | "prompt";

/**
 * The resources, resource templates and prompts of a toolkit: unique names (and URIs), listed in
 * the order they were registered, each visible only where its `visible` says so; reads, gets and
 * completions refuse what the caller cannot see as missing.
 */
export class PrimitiveRegistry {
  readonly #resources = new Map<string, Resource>();
  readonly #templates: ResourceTemplate[] = [];
  readonly #prompts = new Map<string, Prompt>();
  readonly #updateListeners = new Set<(uri: string) => void>();

  /** Tells every listener (MCP servers, for their subscribed clients) that the resource at `uri` changed. */
  updated(uri: string): void {
    for (const listener of this.#updateListeners) {
      // One listener's failure, thrown or rejected, is not the others'.
      try {
        const heard: unknown = listener(uri);
        if (isThenable(heard)) heard.then(undefined, () => {});
      } catch {
        // as above
      }
    }
  }

  /** Listens for `updated`; the returned function stops listening. */
  onUpdated(listener: (uri: string) => void): () => void {
    if (typeof listener !== "function")
      throw new TypeError(`onResourceUpdated takes a function (uri) => void (got ${typeof listener}).`);
    this.#updateListeners.add(listener);
    return () => this.#updateListeners.delete(listener);
  }

  /** Adds them all, or none when a URI or name is taken (by them or by what is here). */
  add(primitives: readonly Primitive[]): void {
    this.check(primitives);
    for (const primitive of primitives) {
      if (isPrompt(primitive)) this.#prompts.set(primitive.name, primitive);
      else if (isResource(primitive)) this.#resources.set(primitive.uri, primitive);
      else this.#templates.push(primitive);
    }
  }

  /** Throws when adding these would take a URI or name twice. */
  check(primitives: readonly Primitive[]): void {
    const names = new Set([...this.#resources.values(), ...this.#templates].map((resource) => resource.name));
    const uris = new Set(this.#resources.keys());
    const templates = new Set(this.#templates.map((template) => template.uriTemplate));
    const prompts = new Set(this.#prompts.keys());
    const taken = (set: Set<string>, key: string, what: string) => {
      if (set.has(key)) throw new ToolDefinitionError(`Two ${what} "${key}": give one of them another.`);
      set.add(key);
    };
    for (const primitive of primitives) {
      if (isPrompt(primitive)) taken(prompts, primitive.name, "prompts are named");
      else {
        taken(names, primitive.name, "resources are named");
        if (isResource(primitive)) taken(uris, primitive.uri, "resources have the URI");
        else taken(templates, primitive.uriTemplate, "resource templates are");
      }
    }
  }

  get size(): number {
    return this.#resources.size + this.#templates.length + this.#prompts.size;
  }

  /** Every resource; given a ctx, those visible to it. */
  resources(ctx?: ToolContext): Resource[] {
    return [...this.#resources.values()].filter((resource) => ctx === undefined || visibleTo(resource, ctx));
  }

  resourceTemplates(ctx?: ToolContext): ResourceTemplate[] {
    return this.#templates.filter((template) => ctx === undefined || visibleTo(template, ctx));
  }

  prompts(ctx?: ToolContext): Prompt[] {
    return [...this.#prompts.values()].filter((prompt) => ctx === undefined || visibleTo(prompt, ctx));
  }

  /** The resource or template that serves `uri` for this caller, with the variables a template read it with. */
  resolve(
    uri: string,
    ctx: ToolContext = {},
  ): { resource: Resource } | { template: ResourceTemplate; variables: Record<string, string> } | undefined {
    // One resource, one spelling: `config://%73ecrets` is `config://secrets`, not a template's other resource.
    const normal = normalizedUri(uri);
    const resource = this.#resources.get(normal);
    if (resource !== undefined) return visibleTo(resource, ctx) ? { resource } : undefined;
    for (const template of this.#templates) {
      if (!visibleTo(template, ctx)) continue;
      const variables = template.match(normal);
      if (variables !== undefined) return { template, variables };
    }
    return undefined;
  }

  prompt(name: string, ctx: ToolContext = {}): Prompt | undefined {
    const prompt = this.#prompts.get(name);
    return prompt !== undefined && visibleTo(prompt, ctx) ? prompt : undefined;
  }

  async read(uri: string, ctx: ToolContext = {}): Promise<ResourceContents[]> {
    const found = this.resolve(uri, ctx);
    if (found === undefined)
      throw new PrimitiveError(
        `Resource not found: ${uri}. resources/list and resources/templates/list name the resources there are.`,
        "not_found",
      );
    return "resource" in found ? found.resource.read(ctx) : found.template.read(uri, found.variables, ctx);
  }

  async getPrompt(name: string, args: Record<string, unknown>, ctx: ToolContext = {}) {
    const prompt = this.prompt(name, ctx);
    if (prompt === undefined)
      throw new PrimitiveError(`Prompt not found: "${name}". prompts/list names the prompts there are.`, "not_found");
    return prompt.get(args, ctx);
  }

  /** Completions for one argument of a prompt or variable of a template; none where it has no `complete`. */
  async complete(
    ref: CompletionReference,
    argument: { name: string; value: string },
    context: Record<string, string> = {},
    ctx: ToolContext = {},
  ): Promise<Completion> {
    const target =
      ref.type === "ref/prompt"
        ? this.prompt(ref.name, ctx)
        : this.resourceTemplates(ctx).find((template) => template.uriTemplate === ref.uri);
    if (target !== undefined && target.authorize !== undefined) {
      let allowed: unknown;
      try {
        allowed = await target.authorize(ctx, context);
      } catch {
        allowed = false;
      }
      if (allowed !== true) throw new PrimitiveError("Completing is not allowed for this caller.", "forbidden");
    }
    if (target === undefined)
      throw new PrimitiveError(
        ref.type === "ref/prompt" ? `Prompt not found: "${ref.name}".` : `Resource template not found: ${ref.uri}.`,
        "not_found",
      );
    const completer = target.complete?.[argument.name];
    if (completer === undefined) return { values: [], total: 0, hasMore: false };
    return complete(completer, argument.value, { arguments: context, ctx });
  }

  /**
   * The scopes a caller needs for a resource (by URI, or a template by its URI template) or a
   * prompt (by name) it can see; undefined for none.
   */
  scopesFor(kind: ScopedKind, key: string, ctx: ToolContext = {}): readonly string[] | undefined {
    if (kind === "prompt") return this.prompt(key, ctx)?.scopes;
    const template = this.resourceTemplates(ctx).find((candidate) => candidate.uriTemplate === key);
    if (template !== undefined) return template.scopes;
    const found = this.resolve(key, ctx);
    return found === undefined ? undefined : "resource" in found ? found.resource.scopes : found.template.scopes;
  }
}

/**
 * A URI in its one spelling (RFC 3986 §6.2.2): percent-encoded unreserved characters decoded,
 * the other escapes' hex digits in upper case.
 */
export function normalizedUri(uri: string): string {
  return uri.replace(/%([0-9A-Fa-f]{2})/g, (escape, hex: string) => {
    const char = String.fromCharCode(parseInt(hex, 16));
    return /[A-Za-z0-9\-._~]/.test(char) ? char : `%${hex.toUpperCase()}`;
  });
}

/** Only `true` shows it; anything else, a throw included, hides it (as a tool's `visible`). */
function visibleTo(primitive: { visible?: (ctx: ToolContext) => boolean }, ctx: ToolContext): boolean {
  if (primitive.visible === undefined) return true;
  try {
    return primitive.visible(ctx) === true;
  } catch {
    return false;
  }
}
