/**
 * The MCP endpoint on a Nest app answers a body Nest's body parser could not take (malformed
 * JSON, too large) the way MCP clients expect: as a JSON-RPC error, and only once the Host
 * and token checks have passed, so a request failing those gets their refusal.
 */
import "reflect-metadata";
import type { AddressInfo } from "node:net";
import { Body, Controller, Post, type INestApplication } from "@nestjs/common";
import { Test } from "@nestjs/testing";
import { ErrorCode } from "@modelcontextprotocol/sdk/types.js";
import { ToolnexusModule } from "toolnexus/nestjs";
import { connectHttp, INITIALIZE, rawRequest, textOf } from "../mcp/support";
import { CatalogModule, RecordingLogger } from "./fixtures";

const TOKEN = "nest-token-0123456789";
const auth = { authorization: `Bearer ${TOKEN}` };
const MALFORMED = '{"jsonrpc": "2.0", "id": 1, "method": "tools/li';
/** Past the 100 kB limit of Nest's JSON body parser. */
const OVERSIZE = JSON.stringify({ jsonrpc: "2.0", id: 2, method: "tools/call", params: { name: "catalog_findProduct", arguments: { sku: "x".repeat(200 * 1024) } } });

@Controller("echo")
class EchoController {
  @Post()
  echo(@Body() body: unknown) {
    return body;
  }
}

describe("the MCP endpoint on Nest, with bodies the body parser refused", () => {
  let app: INestApplication;
  let url: string;

  beforeAll(async () => {
    const moduleRef = await Test.createTestingModule({
      imports: [ToolnexusModule.forRoot({ prefix: true, mcp: { path: "/mcp", token: TOKEN } }), CatalogModule],
      controllers: [EchoController],
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

  it("answers malformed JSON with a JSON-RPC parse error", async () => {
    const answer = await rawRequest(url, { body: MALFORMED, headers: auth });
    expect(answer.status).toBe(400);
    expect(answer.headers["content-type"]).toMatch(/^application\/json/);
    expect(answer.messages).toEqual([{ jsonrpc: "2.0", id: null, error: { code: ErrorCode.ParseError, message: expect.stringMatching(/^Parse error: /) } }]);
  });

  it("answers an oversize body with 413 and a JSON-RPC error", async () => {
    for (const chunked of [false, true]) {
      const answer = await rawRequest(url, { body: OVERSIZE, headers: auth, chunked });
      expect(answer.status).toBe(413);
      expect(answer.messages).toEqual([{ jsonrpc: "2.0", id: null, error: { code: ErrorCode.ConnectionClosed, message: expect.stringContaining("Request body too large") } }]);
    }
  });

  it("checks Host and the token first: a request failing them gets their refusal, whatever its body", async () => {
    for (const body of [MALFORMED, OVERSIZE]) {
      const foreign = await rawRequest(url, { body, headers: { ...auth, host: "evil.example.com" } });
      expect([foreign.status, foreign.messages[0]?.error?.message]).toEqual([403, expect.stringContaining("is not allowed (DNS rebinding protection)")]);
      const anonymous = await rawRequest(url, { body });
      expect([anonymous.status, anonymous.messages[0]?.error?.message]).toEqual([401, expect.stringContaining("Unauthorized")]);
    }
  });

  it("keeps serving MCP clients, and leaves the app's own routes to Nest", async () => {
    const client = await connectHttp(url, auth);
    try {
      expect(textOf(await client.callTool({ name: "catalog_findProduct", arguments: { sku: "TEA-01" } }))).toContain("TEA-01");
    } finally {
      await client.close();
    }
    expect((await rawRequest(url, { body: INITIALIZE, headers: auth })).status).toBe(200);
    // Another route's malformed JSON is Nest's business, answered as Nest answers it.
    const other = await rawRequest(url.replace("/mcp", "/echo"), { body: MALFORMED });
    expect(other.status).toBe(400);
    expect(other.messages[0]).toMatchObject({ statusCode: 400 });
    expect(other.messages[0]).not.toHaveProperty("jsonrpc");
  });
});
