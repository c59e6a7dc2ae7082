/**
 * The MCP endpoint is a Nest route like any other: a body Nest's body parser refuses
 * (malformed JSON, too large) is answered by Nest's exception layer, through the
 * application's global exception filters, and never reaches a tool. A body the parser read is
 * checked by the endpoint (Host, token) before anything else.
 */
import "reflect-metadata";
import type { AddressInfo } from "node:net";
import { Catch, HttpException, type ArgumentsHost, type ExceptionFilter, type INestApplication } from "@nestjs/common";
import { APP_FILTER } from "@nestjs/core";
import { Test } from "@nestjs/testing";
import { ToolnexusModule } from "toolnexus/nestjs";
import { connectHttp, INITIALIZE, jsonRpc, rawRequest, textOf } from "../mcp/support";
import { CatalogModule, RecordingLogger } from "./fixtures";

const TOKEN = "nest-token-0123456789";
const auth = { authorization: `Bearer ${TOKEN}` };
const MALFORMED = '{"jsonrpc": "2.0", "id": 1, "method": "tools/li';
/** Past the 100 kB limit of Nest's JSON body parser. */
const OVERSIZE = JSON.stringify({
  jsonrpc: "2.0",
  id: 2,
  method: "tools/call",
  params: { name: "catalog_findProduct", arguments: { sku: "x".repeat(200 * 1024) } },
});

/** The application's own error format, which the MCP route's parser errors get too. */
@Catch(HttpException)
class AppErrorFilter implements ExceptionFilter {
  catch(exception: HttpException, host: ArgumentsHost) {
    const response = host.switchToHttp().getResponse<{ status(code: number): { json(body: unknown): void } }>();
    response.status(exception.getStatus()).json({ appError: exception.message, status: exception.getStatus() });
  }
}

describe("the MCP endpoint on Nest, with bodies the body parser refused", () => {
  let app: INestApplication;
  let url: string;

  beforeAll(async () => {
    const moduleRef = await Test.createTestingModule({
      imports: [ToolnexusModule.forRoot({ prefix: true, mcp: { path: "/mcp", token: TOKEN } }), CatalogModule],
      providers: [{ provide: APP_FILTER, useClass: AppErrorFilter }],
    })
      .setLogger(new RecordingLogger())
      .compile();
    app = moduleRef.createNestApplication();
    await app.listen(0, "127.0.0.1");
    url = `http://127.0.0.1:${(app.getHttpServer().address() as AddressInfo).port}/mcp`;
  });
  afterAll(async () => {
    await app?.close();
  });

  it("answers malformed JSON with 400 through the application's exception filters", async () => {
    const answer = await rawRequest(url, { body: MALFORMED, headers: auth });
    expect(answer.status).toBe(400);
    expect(answer.messages).toEqual([{ appError: expect.any(String), status: 400 }]);
  });

  it("answers an oversize body with 413 (the body parser's error is no HttpException: Nest's own answer)", async () => {
    for (const chunked of [false, true]) {
      const answer = await rawRequest(url, { body: OVERSIZE, headers: auth, chunked });
      expect(answer.status).toBe(413);
      expect(answer.messages).toEqual([{ statusCode: 413, message: expect.stringMatching(/too large/i) }]);
    }
  });

  it("checks Host and the token on every body the parser read", async () => {
    const body = jsonRpc(3, "tools/list");
    const foreign = await rawRequest(url, { body, headers: { ...auth, host: "evil.example.com" } });
    expect([foreign.status, foreign.messages[0]?.error?.message]).toEqual([
      403,
      expect.stringContaining("is not allowed (DNS rebinding protection)"),
    ]);
    const anonymous = await rawRequest(url, { body });
    expect([anonymous.status, anonymous.messages[0]?.error?.message]).toEqual([
      401,
      expect.stringContaining("Unauthorized"),
    ]);
  });

  it("keeps serving MCP clients after refused bodies", async () => {
    const client = await connectHttp(url, auth);
    try {
      expect(textOf(await client.callTool({ name: "catalog_findProduct", arguments: { sku: "TEA-01" } }))).toContain(
        "TEA-01",
      );
    } finally {
      await client.close();
    }
    expect((await rawRequest(url, { body: INITIALIZE, headers: auth })).status).toBe(200);
  });
});
