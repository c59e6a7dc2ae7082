import { ExportError } from "../../core/errors";
import { sanitizedName } from "../../core/names";
import type { DeclaredTool } from "../adapter";
import { OPENAI_NAMES, responsesTextFormat } from "../openai";
import type {
  OpenAIResponsesCustomTool,
  OpenAIResponsesExportOptions,
  OpenAIResponsesFunctionTool,
  OpenAIResponsesNamespaceTool,
  OpenAIResponsesTool,
} from "./wire";

/**
 * The Responses API's tools: each tool flat, or, when it has a `namespace`, in that namespace's
 * tool (one per namespace, where its first tool stands); deferred tools marked `defer_loading`,
 * and OpenAI's `tool_search` last when any tool is deferred.
 */
export function declareResponsesTools(
  tools: readonly DeclaredTool[],
  options: OpenAIResponsesExportOptions,
): OpenAIResponsesTool[] {
  const descriptions = namespaceDescriptions(options);
  const declarations: OpenAIResponsesTool[] = [];
  const namespaces = new Map<string, { given: string; declaration: OpenAIResponsesNamespaceTool }>();
  for (const declared of tools) {
    const member = memberOf(declared);
    const given = declared.tool.namespace;
    if (given === undefined) {
      declarations.push(member);
      continue;
    }
    const name = namespaceName(given, options);
    let namespace = namespaces.get(name);
    if (namespace !== undefined && namespace.given !== given)
      throw new ExportError(
        `The namespaces "${namespace.given}" and "${given}" both become "${name}" for openai-responses; rename one ` +
          "of them.",
      );
    if (namespace === undefined) {
      namespace = { given, declaration: { type: "namespace", name, description: "", tools: [] } };
      namespaces.set(name, namespace);
      declarations.push(namespace.declaration);
    }
    namespace.declaration.tools.push(member);
  }
  for (const { given, declaration } of namespaces.values())
    declaration.description =
      descriptions.get(given) ?? `Tools of ${given}: ${declaration.tools.map((tool) => tool.name).join(", ")}.`;
  if (tools.some(({ tool }) => tool.defer === true)) declarations.push({ type: "tool_search" });
  return declarations;
}

/** A tool as a function, or as a custom tool when its input is free text. */
function memberOf({
  tool,
  name,
  description,
  lowering,
}: DeclaredTool): OpenAIResponsesFunctionTool | OpenAIResponsesCustomTool {
  const deferred = tool.defer === true ? { defer_loading: true as const } : {};
  if (tool.freeText !== undefined)
    return { type: "custom", name, description, format: responsesTextFormat(tool.freeText), ...deferred };
  return {
    type: "function",
    name,
    description,
    parameters: lowering.schema,
    strict: lowering.strict === true,
    ...deferred,
  };
}

/** A namespace's name as OpenAI takes it: the function name rule, mapped to it with `names: "sanitize"`. */
function namespaceName(given: string, options: OpenAIResponsesExportOptions): string {
  if (OPENAI_NAMES.pattern.test(given)) return given;
  if (options.names === "sanitize") return sanitizedName(given, OPENAI_NAMES);
  throw new ExportError(
    `openai-responses rejects the namespace name "${given}" (openai-responses names: ${OPENAI_NAMES.text}). ` +
      'Rename the namespace, or export with { names: "sanitize" } to map it.',
  );
}

/** The `namespaces` option read and checked: each description a non-empty string. */
function namespaceDescriptions(options: OpenAIResponsesExportOptions): Map<string, string> {
  const given: unknown = options.namespaces;
  if (given === undefined) return new Map();
  if (typeof given !== "object" || given === null || Array.isArray(given))
    throw new ExportError(
      `The namespaces option takes an object of descriptions by namespace name ({ billing: "Refunds and invoices" }), ` +
        `not ${Array.isArray(given) ? "an array" : JSON.stringify(given)}.`,
    );
  const descriptions = new Map<string, string>();
  for (const [name, description] of Object.entries(given)) {
    if (typeof description !== "string" || description.trim() === "")
      throw new ExportError(
        `The namespaces option gives namespace "${name}" no description (${JSON.stringify(description)}); write ` +
          "one sentence on what its tools do, or leave the namespace out to have its tools listed.",
      );
    descriptions.set(name, description);
  }
  return descriptions;
}
