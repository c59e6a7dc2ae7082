import type { ToolResult } from "../../core/types";
import { callFrom, field, readEntries, type ParsedCall } from "../adapter";
import { freeTextCall } from "../openai";
import { outputOf } from "./results";
import type { OpenAIResponsesReplyItem } from "./wire";

/**
 * The `function_call` and `custom_tool_call` items of a response (or of its `output`), in order.
 * Tool search items are OpenAI's own (it runs the search and writes its output), and are passed
 * over like messages and reasoning. A call made inside a namespace carries the namespace apart
 * from its name; a name qualified with it (`crm.get_customer`) is read as the bare name.
 */
export function readResponsesCalls(input: unknown): ParsedCall[] {
  const items = Array.isArray(input) ? input : field(input, "output");
  return readEntries(items, (item): ParsedCall | undefined => {
    switch (field(item, "type")) {
      case "function_call":
        return inNamespace(item, callFrom(item, { name: "name", args: "arguments", id: "call_id" }));
      case "custom_tool_call":
        return inNamespace(item, {
          ...freeTextCall(item, { name: "name", input: "input", id: "call_id" }),
          kind: "custom",
        });
      default:
        return undefined;
    }
  });
}

function inNamespace(item: unknown, call: ParsedCall): ParsedCall {
  const namespace = field(item, "namespace");
  if (typeof namespace === "string" && call.name.startsWith(`${namespace}.`))
    call.name = call.name.slice(namespace.length + 1);
  return call;
}

/** One output item per call, in call order: a custom tool's call answered as one, every other as a function's. */
export function responsesReply(
  calls: readonly ParsedCall[],
  results: readonly ToolResult[],
): OpenAIResponsesReplyItem[] {
  return calls.map((call, i) => {
    const call_id = call.id ?? "";
    const output = outputOf(results[i]!);
    return call.kind === "custom"
      ? { type: "custom_tool_call_output", call_id, output }
      : { type: "function_call_output", call_id, output };
  });
}
