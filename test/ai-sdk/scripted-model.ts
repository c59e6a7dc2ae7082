/**
 * A language model whose turns are written out: the AI SDK's own `MockLanguageModelV3`, given
 * one turn per step. A turn may be a function of the prompt the AI SDK sent (to answer what
 * the tools returned), and streamed for `streamText`. Not a test file: the AI SDK tests import it.
 */
import { convertArrayToReadableStream, MockLanguageModelV3 } from "ai/test";

export type CallOptions = Parameters<MockLanguageModelV3["doGenerate"]>[0];
export type GenerateResult = Awaited<ReturnType<MockLanguageModelV3["doGenerate"]>>;
type Content = GenerateResult["content"][number];
type StreamPart =
  Awaited<ReturnType<MockLanguageModelV3["doStream"]>>["stream"] extends ReadableStream<infer Part> ? Part : never;
export type PromptMessage = CallOptions["prompt"][number];
export type Turn = Content[] | ((prompt: CallOptions["prompt"]) => Content[]);

const USAGE: GenerateResult["usage"] = {
  inputTokens: { total: 10, noCache: 10, cacheRead: undefined, cacheWrite: undefined },
  outputTokens: { total: 5, text: 5, reasoning: undefined },
};

/** A tool call as a model sends it: its arguments as JSON text. */
export function toolCall(toolName: string, input: unknown, toolCallId = `call_${toolName}`): Content {
  return { type: "tool-call", toolCallId, toolName, input: JSON.stringify(input) };
}

export function text(value: string): Content {
  return { type: "text", text: value };
}

/** A model that answers each step with the next turn, then fails (a test that asks once too often should say so). */
export function scriptedModel(...turns: Turn[]): MockLanguageModelV3 {
  let step = 0;
  return new MockLanguageModelV3({
    doGenerate: async ({ prompt }) => {
      const turn = turns[step++];
      if (turn === undefined)
        throw new Error(`the scripted model has ${turns.length} turns; step ${step} was asked for`);
      const content = typeof turn === "function" ? turn(prompt) : turn;
      const calls = content.some((part) => part.type === "tool-call");
      return {
        content,
        finishReason: { unified: calls ? "tool-calls" : "stop", raw: undefined },
        usage: USAGE,
        warnings: [],
      };
    },
  });
}

/** The tool results of the last tool message in a prompt: what the model read about its calls. */
export function toolResultsIn(
  prompt: CallOptions["prompt"],
): Array<{ toolCallId: string; toolName: string; output: unknown }> {
  const last = [...prompt].reverse().find((message) => message.role === "tool");
  if (last === undefined || last.role !== "tool") return [];
  return last.content.flatMap((part) =>
    part.type === "tool-result" ? [{ toolCallId: part.toolCallId, toolName: part.toolName, output: part.output }] : [],
  );
}

/** The same turns streamed (`streamText`): each turn's parts as the stream parts a provider emits. */
export function scriptedStreamModel(...turns: Turn[]): MockLanguageModelV3 {
  let step = 0;
  return new MockLanguageModelV3({
    doStream: async ({ prompt }) => {
      const turn = turns[step++];
      if (turn === undefined)
        throw new Error(`the scripted model has ${turns.length} turns; step ${step} was asked for`);
      const content = typeof turn === "function" ? turn(prompt) : turn;
      const calls = content.some((part) => part.type === "tool-call");
      const parts: StreamPart[] = [{ type: "stream-start", warnings: [] }];
      content.forEach((part, index) => {
        if (part.type === "text")
          parts.push(
            { type: "text-start", id: `t${index}` },
            { type: "text-delta", id: `t${index}`, delta: part.text },
            { type: "text-end", id: `t${index}` },
          );
        else if (part.type === "tool-call") parts.push(part);
      });
      parts.push({
        type: "finish",
        finishReason: { unified: calls ? "tool-calls" : "stop", raw: undefined },
        usage: USAGE,
      });
      return { stream: convertArrayToReadableStream(parts) };
    },
  });
}
