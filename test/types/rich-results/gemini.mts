/**
 * Gemini: a reply whose function responses carry images and documents (`functionResponse.parts`)
 * and structured results goes into `generateContent` as @google/genai types it (`Content`,
 * `FunctionResponse`, `FunctionResponsePart`), with no cast. Compiled, never run.
 */
import type {
  Content,
  FunctionResponse,
  FunctionResponsePart,
  GenerateContentParameters,
  GenerateContentResponse,
} from "@google/genai";
import { defineTool, file, image, Toolkit } from "toolnexus";

const toolkit = new Toolkit([
  defineTool({
    name: "chart",
    description: "Draws a chart",
    execute: () => [
      { type: "text", text: "the chart" },
      image(new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]), "image/png"),
      image(new URL("https://example.com/chart.png")),
    ],
  }),
  defineTool({
    name: "report",
    description: "Writes a report",
    execute: () => file(new Uint8Array([0x25, 0x50, 0x44, 0x46, 0x2d]), "application/pdf", "report.pdf"),
  }),
  defineTool({
    name: "totals",
    description: "Sums the cart",
    outputSchema: { type: "object", properties: { total: { type: "number" } }, required: ["total"] },
    execute: () => ({ total: 3 }),
  }),
]);

export async function richGeminiRequest(response: GenerateContentResponse): Promise<GenerateContentParameters> {
  const contents: Content[] = [{ role: "user", parts: [{ text: "chart, report and totals?" }] }];
  const modelTurn = response.candidates![0]!.content!;
  const reply = await toolkit.runGemini(response);
  return {
    model: "gemini-3-flash-preview",
    contents: [...contents, modelTurn, ...(reply ? [reply] : [])],
    config: { tools: toolkit.toGemini() },
  };
}

/** For models before Gemini 3: the option goes where the declarations go. */
export function textOnlyGeminiRequest(contents: Content[]): GenerateContentParameters {
  return { model: "gemini-2.5-flash", contents, config: { tools: toolkit.toGemini({ multimodalResults: false }) } };
}

export async function functionResponses(response: GenerateContentResponse): Promise<FunctionResponse[]> {
  return (await toolkit.runGemini(response))?.parts.map((part) => part.functionResponse) ?? [];
}

export async function functionResponseParts(response: GenerateContentResponse): Promise<FunctionResponsePart[]> {
  return (await toolkit.runGemini(response))?.parts[0]?.functionResponse.parts ?? [];
}

export async function resumedGeminiReply(response: GenerateContentResponse): Promise<Content[]> {
  const reply = await toolkit.runGemini(response);
  if (reply?.pendingApprovals === undefined) return reply ? [reply] : [];
  const resumed = await toolkit.resumeApprovals(reply.pendingApprovals, {});
  return resumed ? [resumed] : [];
}
