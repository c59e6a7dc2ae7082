/**
 * POST /api/chat: one Gemini conversation with every discovered tool. The authenticated user
 * and the request go to the tools through `ToolContext.state` (never to the model).
 */
import { Body, Controller, Inject, Post, Req } from "@nestjs/common";
import type { Content, GoogleGenAI } from "@google/genai" with { "resolution-mode": "import" };
import { Toolkit } from "toolnexus";
import type { AuthenticatedRequest } from "./auth.guard";

/** Injection token of the Gemini client (see app.module.ts). */
export const GEMINI = Symbol("GEMINI");

/** A guard against a model that never stops calling tools. */
const MAX_TURNS = 6;

export interface ChatReply {
  answer: string;
  /** Every tool call of the conversation, in order. */
  calls: Array<{ name: string; args: unknown; isError: boolean }>;
  turns: number;
}

// Behind the global BearerAuthGuard (app.module.ts).
@Controller("chat")
export class ChatController {
  constructor(
    private readonly toolkit: Toolkit,
    @Inject(GEMINI) private readonly gemini: GoogleGenAI,
  ) {}

  @Post()
  async chat(@Body() body: { message: string }, @Req() request: AuthenticatedRequest): Promise<ChatReply> {
    const contents: Content[] = [{ role: "user", parts: [{ text: body.message }] }];
    const config = {
      tools: this.toolkit.toGemini(),
      systemInstruction: "You sell tea. Use the tools; never invent SKUs or prices.",
    };
    const calls: ChatReply["calls"] = [];
    for (let turn = 1; turn <= MAX_TURNS; turn++) {
      const response = await this.gemini.models.generateContent({ model: "gemini-2.5-flash", contents, config });
      if (!response.functionCalls?.length) return { answer: response.text ?? "", calls, turns: turn };
      contents.push(response.candidates![0]!.content!);
      // Host data for the tools: the user the guard authenticated, and the request itself
      // (request-scoped providers resolve their instance from it; tool guards read it).
      // `response.functionCalls` is non-empty here, so there is a reply to append.
      const reply = (await this.toolkit.runGemini(response, { state: { user: request.user, request } }))!;
      reply.parts.forEach(({ functionResponse }, index) =>
        calls.push({
          name: functionResponse.name,
          args: response.functionCalls![index]!.args,
          isError: "error" in functionResponse.response,
        }),
      );
      contents.push(reply);
    }
    throw new Error(`The model was still calling tools after ${MAX_TURNS} turns.`);
  }
}
