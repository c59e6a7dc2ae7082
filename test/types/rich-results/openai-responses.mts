/**
 * OpenAI Responses: `function_call_output` items whose output is a list of input_text,
 * input_image and input_file items go into `responses.create` as the SDK types them, with no
 * cast. Compiled, never run.
 */
import type OpenAI from "openai";
import { defineTool, file, image, Toolkit } from "toolnexus";
import type { OpenAIFunctionCallOutput } from "toolnexus/providers";

type OutputPart = Exclude<OpenAIFunctionCallOutput["output"], string>[number];

const toolkit = new Toolkit([
  defineTool({
    name: "chart",
    description: "Draws a chart",
    execute: () => [
      { type: "text", text: "the chart" },
      image(new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]), "image/png"),
      image(new URL("https://example.com/c.png")),
    ],
  }),
  defineTool({
    name: "report",
    description: "Writes a report",
    execute: () => [
      file(new Uint8Array([0x25, 0x50, 0x44, 0x46, 0x2d]), "application/pdf", "report.pdf"),
      file(new URL("https://example.com/r.pdf"), "application/pdf"),
    ],
  }),
]);

export async function richResponsesRequest(
  response: OpenAI.Responses.Response,
): Promise<OpenAI.Responses.ResponseCreateParams> {
  const input: OpenAI.Responses.ResponseInput = [{ role: "user", content: "chart and report?" }];
  const calls = response.output.filter((item) => item.type === "function_call");
  return {
    model: "gpt-4.1",
    tools: toolkit.toOpenAIResponses(),
    input: [...input, ...calls, ...(await toolkit.runOpenAIResponses(response))],
  };
}

export async function functionCallOutputs(
  response: OpenAI.Responses.Response,
): Promise<OpenAI.Responses.ResponseInputItem.FunctionCallOutput[]> {
  const reply = await toolkit.runOpenAIResponses(response.output);
  return reply.filter((item) => item.type === "function_call_output");
}

export async function customToolCallOutputs(
  response: OpenAI.Responses.Response,
): Promise<OpenAI.Responses.ResponseCustomToolCallOutput[]> {
  const reply = await toolkit.runOpenAIResponses(response.output);
  return reply.filter((item) => item.type === "custom_tool_call_output");
}

export async function firstOutput(
  response: OpenAI.Responses.Response,
): Promise<string | OpenAI.Responses.ResponseFunctionCallOutputItemList | undefined> {
  return (await toolkit.runOpenAIResponses(response))[0]?.output;
}

export function outputItem(part: OutputPart): OpenAI.Responses.ResponseFunctionCallOutputItem {
  return part;
}

export async function resumedResponses(
  response: OpenAI.Responses.Response,
): Promise<OpenAI.Responses.ResponseInputItem[]> {
  const reply = await toolkit.runOpenAIResponses(response);
  if (reply.pendingApprovals === undefined) return reply;
  return toolkit.resumeApprovals(reply.pendingApprovals, {});
}
