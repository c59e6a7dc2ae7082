import { checkIcons, checkScopes, policyOf } from "../core/checks";
import { ScanError } from "../core/errors";
import type { Prompt, Resource, ResourceTemplate } from "../core/primitives";
import type { Tool } from "../core/types";
import { primitiveMethodsOf, type PrimitiveMethodRecord } from "../decorators/primitive-metadata";
import type { MethodInvoker } from "../runtime/decorated";
import { keepingReturn, promptOf, resourceOf, resourceTemplateOf } from "../runtime/primitive-runner";
import { buildTool } from "./scan-tools";

/** A resource, resource template or prompt. */
export type Primitive = Resource | ResourceTemplate | Prompt;

export function isResource(value: unknown): value is Resource {
  return typeof (value as Resource)?.uri === "string" && typeof (value as Resource).read === "function";
}

export function isResourceTemplate(value: unknown): value is ResourceTemplate {
  return (
    typeof (value as ResourceTemplate)?.uriTemplate === "string" &&
    typeof (value as ResourceTemplate).match === "function"
  );
}

export function isPrompt(value: unknown): value is Prompt {
  return (
    typeof (value as Prompt)?.name === "string" &&
    typeof (value as Prompt).get === "function" &&
    Array.isArray((value as Prompt).arguments)
  );
}

export function isPrimitive(value: unknown): value is Primitive {
  return isResource(value) || isResourceTemplate(value) || isPrompt(value);
}

const DECORATOR_OF = { resource: "@Resource", resourceTemplate: "@ResourceTemplate", prompt: "@Prompt" } as const;

/**
 * The `@Resource`, `@ResourceTemplate` and `@Prompt` methods of a class (given by its prototype),
 * bound to the instance or run by `invoke`, as scanTools binds `@Tool` methods. Throws a
 * `ScanError` naming the class and method when one cannot be built.
 */
export function scanPrimitives(
  prototype: object,
  receiver: { instance?: object; invoke?: MethodInvoker },
): Primitive[] {
  const className = (prototype as { constructor?: Function }).constructor?.name || "(anonymous class)";
  const instance = receiver.instance;
  const invoke: MethodInvoker = keepingReturn(
    receiver.invoke ?? ((call) => call.method.apply(instance, call.positional)),
  );
  return primitiveMethodsOf(prototype).map(({ prototype: declaring, record }) => {
    const where = `${className}.${record.propertyKey}`;
    try {
      return primitiveOf(record, hiddenTool(where, className, declaring, record, receiver, invoke));
    } catch (error) {
      throw new ScanError(`${DECORATOR_OF[record.kind]} on ${where}: ${ownWords(error, where, record)}`);
    }
  });
}

/**
 * What went wrong, said of the primitive: the scanner of the tool it runs on speaks of `@Tool`
 * and of a tool, which the user never wrote.
 */
function ownWords(error: unknown, where: string, record: PrimitiveMethodRecord): string {
  const decorator = DECORATOR_OF[record.kind];
  return (error as Error).message
    .replace(`${where}: `, "")
    .replace(/^Tool "[^"]*": /, "")
    .replace(/@Tool\(/g, `${decorator}(`)
    .replace(/\bthe tool's\b/g, "its")
    .replace(/\bthe tool\b/g, "the method");
}

/** The tool a primitive method runs on: its parameters, validation and deadline; never declared. */
function hiddenTool(
  where: string,
  className: string,
  declaring: object,
  { propertyKey, options, mode, kind }: PrimitiveMethodRecord,
  receiver: { instance?: object },
  invoke: MethodInvoker,
): Tool {
  const input = "input" in options ? options.input : undefined;
  return buildTool(
    { instance: receiver.instance, invoke, lookup: receiver.instance ?? declaring },
    className,
    declaring,
    {
      propertyKey,
      options: {
        name: propertyKey.replace(/[^A-Za-z0-9_-]/g, "_"),
        description: options.description ?? `${DECORATOR_OF[kind]} ${where}`,
        ...(input !== undefined ? { input } : {}),
        ...(options.timeout !== undefined ? { timeout: options.timeout } : {}),
      },
      mode,
    },
    undefined,
    "",
  );
}

function primitiveOf(record: PrimitiveMethodRecord, tool: Tool): Primitive {
  const { options, propertyKey } = record;
  const subject = `${DECORATOR_OF[record.kind]}`;
  const policy = policyOf(subject, { visible: options.visible, authorize: options.authorize });
  const fields = {
    name: options.name ?? propertyKey,
    title: options.title,
    description: options.description,
    icons: options.icons === undefined ? undefined : checkIcons(subject, options.icons),
    scopes: options.scopes === undefined ? undefined : checkScopes(subject, options.scopes),
    ...policy,
  };
  switch (record.kind) {
    case "resource":
      return resourceOf(tool, {
        ...fields,
        uri: record.uri,
        mimeType: record.options.mimeType,
        annotations: record.options.annotations,
        size: record.options.size,
      });
    case "resourceTemplate":
      return resourceTemplateOf(tool, {
        ...fields,
        uriTemplate: record.uriTemplate,
        mimeType: record.options.mimeType,
        annotations: record.options.annotations,
        complete: record.options.complete,
      });
    case "prompt":
      return promptOf(tool, { ...fields, complete: record.options.complete });
  }
}
