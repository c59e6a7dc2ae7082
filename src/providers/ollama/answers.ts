import { field, listOf, quietly } from "../adapter";

/**
 * The `content` of every `tool` message in an `/api/chat` message list (or `{ messages }`) that answers a call of
 * `toolName`, oldest first. A tool message names the tool it answers (`tool_name`, as toolnexus writes it); one that
 * does not is matched to the calls of the assistant message before it by `tool_call_id`, else by order. Anything that
 * cannot be read is passed over: never throws.
 */
export function ollamaAnswersIn(conversation: unknown, toolName: string): unknown[] {
  const answers: unknown[] = [];
  const messages = listOf(
    quietly(() => (Array.isArray(conversation) ? conversation : field(conversation, "messages"))),
  );
  // The calls of the latest assistant turn that no tool message has answered yet, in order.
  let unanswered: Array<{ name: unknown; id: unknown }> = [];
  for (const message of messages) {
    const role = quietly(() => field(message, "role"));
    if (role === "assistant") {
      unanswered = listOf(quietly(() => field(message, "tool_calls"))).map((call) => ({
        name: quietly(() => field(field(call, "function"), "name")),
        id: quietly(() => field(call, "id")),
      }));
      continue;
    }
    if (role !== "tool") continue;
    const named = quietly(() => field(message, "tool_name"));
    const id = quietly(() => field(message, "tool_call_id"));
    const index =
      typeof named === "string"
        ? unanswered.findIndex((call) => call.name === named)
        : typeof id === "string"
          ? unanswered.findIndex((call) => call.id === id)
          : 0;
    const answered = index === -1 ? undefined : unanswered.splice(index, 1)[0];
    if ((typeof named === "string" ? named : answered?.name) === toolName)
      answers.push(quietly(() => field(message, "content")));
  }
  return answers;
}
