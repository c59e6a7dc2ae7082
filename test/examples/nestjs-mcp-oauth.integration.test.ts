import { main } from "../../examples/nestjs-mcp-oauth";
import { onFreePort, startAuthorizationServer, type AuthorizationServer } from "../mcp/auth/support";

const agent = {
  client_id: "handbook-agent",
  client_secret: "handbook-agent-secret-0123456789abcdef",
  scope: "handbook:read",
};
const saved = { ...process.env };

describe("examples/nestjs-mcp-oauth.ts", () => {
  let as: AuthorizationServer;
  beforeAll(async () => {
    as = await startAuthorizationServer({
      clients: [agent],
      resources: { "/mcp": { scope: "handbook:read handbook:explain" } },
    });
    Object.assign(process.env, {
      AUTH_ISSUER: as.issuer,
      CLIENT_ID: agent.client_id,
      CLIENT_SECRET: agent.client_secret,
    });
  });
  afterAll(async () => {
    process.env = saved;
    await as?.close();
  });

  it("serves the provider's tool, resource template and prompt to the SDK client that signed in", async () => {
    const result = await onFreePort((port) => main(port));
    expect(result.tools).toEqual(["search"]);
    expect(result.search).toEqual([{ type: "text", text: '2 pages mention "taxi" (asked by handbook-agent)' }]);
    expect(result.page).toEqual([
      { uri: "handbook://pages/travel", mimeType: "text/markdown", text: "# travel\nThe travel policy." },
    ]);
    // The prompt needs handbook:explain, which this client's grant does not ask for.
    expect(result.explain).toMatch(/403/);
  });
});
