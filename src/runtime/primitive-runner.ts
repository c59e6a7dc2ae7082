import { AsyncLocalStorage } from "node:async_hooks";
import { PrimitiveError, type PrimitiveErrorKind } from "../core/errors";
import type {
  Completer,
  PrimitivePolicy,
  Prompt,
  PromptArgument,
  Resource,
  ResourceTemplate,
} from "../core/primitives";
import type { Icon, JSONSchemaObject, Tool, ToolContext } from "../core/types";
import type { ContentAnnotations } from "../core/types";
import { isThenable } from "./invoke";
import { promptResultOf, resourceContentsOf } from "./primitive-results";
import { thrownBy } from "./result";
import { parseUriTemplate } from "./uri-template";

/**
 * Resources and prompts run on a tool built for them (a hidden one: never declared, never in a
 * toolkit's tools), so their arguments are typed, coerced and validated, their deadlines and
 * aborts kept, exactly as a tool's. What the body returns is kept here for the call, beside the
 * tool's text result, to become resource contents or prompt messages.
 */
const returned = new AsyncLocalStorage<{ value?: unknown; uri?: string }>();

/** The URI being read, inside a resource's body (a template's body learns which of its resources). */
export function readingUri(): string {
  return returned.getStore()?.uri ?? "";
}

/** A body whose return value is kept for the primitive call that runs it. */
export function keepingReturn<A extends unknown[]>(body: (...args: A) => unknown): (...args: A) => unknown {
  return (...args) => {
    const kept = returned.getStore();
    const value = body(...args);
    if (!isThenable(value)) {
      if (kept !== undefined) kept.value = value;
      return undefined;
    }
    return Promise.resolve(value).then((settled) => {
      if (kept !== undefined) kept.value = settled;
      return undefined;
    });
  };
}

const ERROR_KINDS: Record<string, PrimitiveErrorKind> = {
  invalid_arguments: "invalid_arguments",
  forbidden: "forbidden",
  denied: "forbidden",
  timeout: "timeout",
  aborted: "aborted",
};

/** Runs the hidden tool and gives what its body returned; a failure rejects with a PrimitiveError saying why. */
async function run(
  tool: Tool,
  label: string,
  args: Record<string, unknown>,
  ctx: ToolContext | undefined,
  uri?: string,
) {
  const kept: { value?: unknown; uri?: string } = uri === undefined ? {} : { uri };
  const result = await returned.run(kept, () => tool.execute(args, ctx));
  if (result.isError) {
    const kind = ERROR_KINDS[String(result.metadata?.error)] ?? "failed";
    const failure = thrownBy(result);
    throw new PrimitiveError(
      result.output.replace(/^Tool "[^"]*"/, label),
      kind,
      failure !== undefined ? { cause: failure.thrown } : undefined,
    );
  }
  return kept.value;
}

/** Refuses a read or get that `authorize` does not allow, as a tool's call would be. */
async function authorized(policy: PrimitivePolicy, label: string, ctx: ToolContext, args: Record<string, unknown>) {
  if (policy.authorize === undefined) return;
  let allowed: unknown;
  try {
    allowed = await policy.authorize(ctx, args);
  } catch {
    allowed = false;
  }
  if (allowed !== true) throw new PrimitiveError(`${label} is not allowed for this caller.`, "forbidden");
}

/** What resources, templates and prompts are described by, beside their own fields. */
export interface PrimitiveFields extends PrimitivePolicy {
  name: string;
  title?: string;
  description?: string;
  icons?: readonly Icon[];
}

interface ResourceFields extends PrimitiveFields {
  mimeType?: string;
  annotations?: ContentAnnotations;
}

function described<F extends PrimitiveFields>(fields: F): F {
  return Object.fromEntries(Object.entries(fields).filter(([, value]) => value !== undefined)) as F;
}

export function resourceOf(tool: Tool, fields: ResourceFields & { uri: string; size?: number }): Resource {
  const label = `Resource ${fields.uri}`;
  const parameters = Object.keys((tool.inputSchema.properties ?? {}) as object);
  if (parameters.length > 0)
    throw new TypeError(
      `${label} takes no arguments (it has ${parameters.join(", ")}); a resource whose URI has variables is a ` +
        "resource template.",
    );
  return Object.freeze({
    ...described(fields),
    async read(ctx: ToolContext = {}) {
      await authorized(fields, label, ctx, {});
      return resourceContentsOf(await run(tool, label, {}, ctx, fields.uri), fields.uri, fields.mimeType);
    },
  });
}

export function resourceTemplateOf(
  tool: Tool,
  fields: ResourceFields & { uriTemplate: string; complete?: Record<string, Completer> },
): ResourceTemplate {
  const template = parseUriTemplate(fields.uriTemplate);
  const variablesSchema = tool.inputSchema;
  const parameters = Object.keys((variablesSchema.properties ?? {}) as object);
  const unmatched =
    template.variables.find((name) => !parameters.includes(name)) ??
    parameters.find((name) => !template.variables.includes(name));
  if (unmatched !== undefined)
    throw new TypeError(
      `Resource template ${fields.uriTemplate}: its variables (${template.variables.join(", ")}) and its ` +
        `parameters (${parameters.join(", ") || "none"}) must be the same names; "${unmatched}" is only in one.`,
    );
  checkCompleted(`Resource template ${fields.uriTemplate}`, fields.complete, variablesSchema, template.variables);
  return Object.freeze({
    ...described(fields),
    variablesSchema,
    match: (uri: string) => template.match(uri),
    async read(uri: string, variables: Record<string, string>, ctx: ToolContext = {}) {
      const label = `Resource ${uri}`;
      await authorized(fields, label, ctx, variables);
      return resourceContentsOf(await run(tool, label, variables, ctx, uri), uri, fields.mimeType);
    },
  });
}

export function promptOf(tool: Tool, fields: PrimitiveFields & { complete?: Record<string, Completer> }): Prompt {
  const label = `Prompt "${fields.name}"`;
  const argumentsSchema = tool.inputSchema;
  checkCompleted(label, fields.complete, argumentsSchema);
  return Object.freeze({
    ...described(fields),
    arguments: promptArguments(argumentsSchema),
    argumentsSchema,
    async get(args: Record<string, unknown> = {}, ctx: ToolContext = {}) {
      await authorized(fields, label, ctx, args);
      return promptResultOf(await run(tool, label, args, ctx), fields.name);
    },
  });
}

/** A prompt's arguments as MCP lists them, from its object schema. */
function promptArguments(schema: JSONSchemaObject): PromptArgument[] {
  const properties = (schema.properties ?? {}) as Record<string, JSONSchemaObject>;
  const required = new Set((schema.required ?? []) as string[]);
  return Object.entries(properties).map(([name, property]) => ({
    name,
    ...(typeof property.title === "string" ? { title: property.title } : {}),
    ...(typeof property.description === "string" ? { description: property.description } : {}),
    required: required.has(name),
  }));
}

/** `complete` names only arguments there are, and gives each a list of strings or a function. */
function checkCompleted(
  label: string,
  complete: Record<string, Completer> | undefined,
  schema: JSONSchemaObject,
  variables?: readonly string[],
): void {
  if (complete === undefined) return;
  const known = variables ?? Object.keys((schema.properties ?? {}) as object);
  for (const [name, completer] of Object.entries(complete)) {
    if (!known.includes(name))
      throw new TypeError(
        `${label}: complete names "${name}", which is not one of its arguments (${known.join(", ") || "none"}).`,
      );
    if (
      typeof completer !== "function" &&
      !(Array.isArray(completer) && completer.every((value) => typeof value === "string"))
    )
      throw new TypeError(
        `${label}: complete.${name} must be a list of strings or a function (value, context) => strings.`,
      );
  }
}
