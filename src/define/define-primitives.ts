import { checkIcons, checkScopes, policyOf } from "../core/checks";
import { ToolDefinitionError } from "../core/errors";
import type { Completer, Prompt, PromptArgument, Resource, ResourceTemplate } from "../core/primitives";
import {
  isObject,
  type ContentAnnotations,
  type JSONSchemaObject,
  type StandardSchemaV1,
  type Tool,
  type ToolCallContext,
} from "../core/types";
import type { PrimitiveOptions } from "../decorators/primitive-metadata";
import { keepingReturn, promptOf, readingUri, resourceOf, resourceTemplateOf } from "../runtime/primitive-runner";
import { parseUriTemplate } from "../runtime/uri-template";
import { defineTool } from "./define-tool";

export interface DefineResourceOptions extends PrimitiveOptions {
  uri: string;
  name: string;
  /** The media type of what it reads: `text/plain` for strings, `application/octet-stream` for bytes by default. */
  mimeType?: string;
  size?: number;
  annotations?: ContentAnnotations;
  /** Reads it: a string, bytes, a JSON value, or `{ text }` / `{ blob }` contents (or a list of them). */
  read: (ctx: ToolCallContext) => unknown;
}

export interface DefineResourceTemplateOptions<Variables = Record<string, string>> extends PrimitiveOptions {
  /** An RFC 6570 URI template: `users://{id}/profile`, `logs://{date}{?level}`. */
  uriTemplate: string;
  name: string;
  mimeType?: string;
  annotations?: ContentAnnotations;
  /**
   * The variables' schema: a Standard Schema or a JSON Schema of an object, its properties the
   * template's variables. Default: each a string, required unless it is a query variable.
   */
  variables?: StandardSchemaV1<unknown, Variables> | JSONSchemaObject;
  complete?: Record<string, Completer>;
  /** Reads the resource at `uri`, given its variables (validated). */
  read: (variables: Variables, ctx: ToolCallContext, uri: string) => unknown;
}

export interface DefinePromptOptions<Args = Record<string, string>> extends PrimitiveOptions {
  name: string;
  /**
   * Its arguments: a list of `{ name, description?, required? }` (strings, as MCP sends them), or
   * a Standard Schema or JSON Schema of an object. Default: none.
   */
  arguments?:
    ReadonlyArray<Omit<PromptArgument, "required"> & { required?: boolean }> | StandardSchemaV1 | JSONSchemaObject;
  complete?: Record<string, Completer>;
  /** Its messages: a string, a list of `{ role, content }`, or `{ description?, messages }`. */
  get: (args: Args, ctx: ToolCallContext) => unknown;
}

/** A resource at one URI from a plain function. Throws `ToolDefinitionError` for a definition that cannot work. */
export function defineResource(options: DefineResourceOptions): Resource {
  const { uri, read } = checked("defineResource", options, "read");
  if (typeof uri !== "string" || uri.length === 0)
    throw new ToolDefinitionError(`defineResource "${options.name}": uri must be the resource's URI.`);
  return resourceOf(
    hiddenTool(options, undefined, (_args, ctx) => read(ctx)),
    {
      ...common(`Resource ${uri}`, options),
      uri,
      mimeType: options.mimeType,
      annotations: options.annotations,
      size: options.size,
    },
  );
}

/** Resources whose URIs follow a template, from a plain function. */
export function defineResourceTemplate<Variables = Record<string, string>>(
  options: DefineResourceTemplateOptions<Variables>,
): ResourceTemplate {
  const { uriTemplate, read } = checked("defineResourceTemplate", options, "read");
  let variables: readonly string[];
  try {
    variables = parseUriTemplate(uriTemplate).variables;
  } catch (error) {
    throw new ToolDefinitionError(`defineResourceTemplate "${options.name}": ${(error as Error).message}`);
  }
  const query = new Set([...uriTemplate.matchAll(/\{[?&]([^}]*)\}/g)].flatMap((found) => found[1]!.split(",")));
  const schema = options.variables ?? stringsSchema(variables.map((name) => ({ name, required: !query.has(name) })));
  return resourceTemplateOf(
    hiddenTool(options, schema, (args, ctx) => read(args as Variables, ctx, readingUri())),
    {
      ...common(`Resource template ${uriTemplate}`, options),
      uriTemplate,
      mimeType: options.mimeType,
      annotations: options.annotations,
      complete: options.complete,
    },
  );
}

/** A prompt from a plain function. */
export function definePrompt<Args = Record<string, string>>(options: DefinePromptOptions<Args>): Prompt {
  const { get } = checked("definePrompt", options, "get");
  const given = options.arguments;
  const schema = Array.isArray(given)
    ? stringsSchema(given as ReadonlyArray<PromptArgument>)
    : ((given as StandardSchemaV1 | JSONSchemaObject | undefined) ?? { type: "object", properties: {} });
  return promptOf(
    hiddenTool(options, schema, (args, ctx) => get(args as Args, ctx)),
    {
      ...common(`Prompt "${options.name}"`, options),
      complete: options.complete,
    },
  );
}

function checked<O extends PrimitiveOptions & { name: string }>(maker: string, options: O, body: keyof O): O {
  if (!isObject(options)) throw new ToolDefinitionError(`${maker} takes an options object.`);
  if (typeof options.name !== "string" || options.name.length === 0)
    throw new ToolDefinitionError(`${maker}: name must be a non-empty string.`);
  if (typeof options[body] !== "function")
    throw new ToolDefinitionError(`${maker} "${options.name}": ${String(body)} must be a function.`);
  return options;
}

function common(subject: string, options: PrimitiveOptions & { name: string }) {
  return {
    name: options.name,
    title: options.title,
    description: options.description,
    icons: options.icons === undefined ? undefined : checkIcons(subject, options.icons),
    scopes: options.scopes === undefined ? undefined : checkScopes(subject, options.scopes),
    ...policyOf(subject, { visible: options.visible, authorize: options.authorize }),
  };
}

/** The tool a defined primitive runs on: validation and deadline as a tool's; never declared. */
function hiddenTool(
  options: PrimitiveOptions & { name: string },
  schema: StandardSchemaV1 | JSONSchemaObject | undefined,
  body: (args: Record<string, unknown>, ctx: ToolCallContext) => unknown,
): Tool {
  try {
    return defineTool({
      name: options.name.replace(/[^A-Za-z0-9_-]/g, "_").slice(0, 64) || "primitive",
      description: options.description ?? options.name,
      inputSchema: (schema ?? { type: "object", properties: {} }) as JSONSchemaObject,
      validate: true,
      ...(options.timeout !== undefined ? { timeout: options.timeout } : {}),
      execute: keepingReturn(body),
    });
  } catch (error) {
    throw new ToolDefinitionError(`"${options.name}": ${(error as Error).message}`);
  }
}

function stringsSchema(names: ReadonlyArray<Pick<PromptArgument, "name" | "description"> & { required?: boolean }>) {
  return {
    type: "object",
    properties: Object.fromEntries(
      names.map(({ name, description }) => [name, { type: "string", ...(description ? { description } : {}) }]),
    ),
    required: names.filter((argument) => argument.required !== false).map((argument) => argument.name),
  } as JSONSchemaObject;
}
