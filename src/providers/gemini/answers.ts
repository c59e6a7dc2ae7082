import { field, listOf, quietly } from "../adapter";

/**
 * The `response` of every `functionResponse` part named `toolName` in a conversation (the request's `contents`, or
 * the request itself, `{ contents }`), oldest first. Anything that cannot be read is passed over: never throws.
 */
export function geminiAnswersIn(conversation: unknown, toolName: string): unknown[] {
  const answers: unknown[] = [];
  const contents = quietly(() => (Array.isArray(conversation) ? conversation : field(conversation, "contents")));
  // The SDK also takes one Content, or a list of parts, as `contents`.
  for (const turn of listOrOne(contents)) {
    const parts = quietly(() => field(turn, "parts"));
    for (const part of parts === undefined ? [turn] : listOrOne(parts)) {
      const answer = quietly(() => {
        const response = field(part, "functionResponse");
        return field(response, "name") === toolName ? { response: field(response, "response") } : undefined;
      });
      if (answer !== undefined) answers.push(answer.response);
    }
  }
  return answers;
}

/** A list's items (a copy), a single value as a list of one, or none when the list cannot be read. */
function listOrOne(value: unknown): unknown[] {
  if (value === undefined) return [];
  return Array.isArray(value) ? listOf(value) : [value];
}
