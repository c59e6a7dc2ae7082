/**
 * What fromMcp takes from one MCP server is bounded: the tools of every page of tools/list
 * counted (the last page too), the pages, and the cursors it remembers and echoes, so a broken
 * or hostile server can neither fill the heap nor keep the listing going.
 */
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { InMemoryTransport } from "@modelcontextprotocol/sdk/inMemory.js";
import { Server } from "@modelcontextprotocol/sdk/server/index.js";
import { ListToolsRequestSchema, type ListToolsResult } from "@modelcontextprotocol/sdk/types.js";
import { fromMcp, FROM_MCP_LIMITS } from "toolnexus/mcp";

type ListedTool = ListToolsResult["tools"][number];

const tool = (name: string, fields: Partial<ListedTool> = {}): ListedTool => ({ name, description: `Tool ${name}`, inputSchema: { type: "object" }, ...fields });
const tools = (count: number, from = 0) => Array.from({ length: count }, (_, index) => tool(`t${from + index}`));

/** A server named `name` whose `tools/list` answers `page(n)` to its n-th request (from 0); `asked` counts the requests. */
async function connected(page: (n: number) => ListToolsResult, name = "hand-made"): Promise<{ client: Client; asked: () => number }> {
  const server = new Server({ name, version: "1.0.0" }, { capabilities: { tools: {} } });
  let requests = 0;
  server.setRequestHandler(ListToolsRequestSchema, () => page(requests++));
  const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
  await server.connect(serverSide);
  const client = new Client({ name: "limits-test", version: "1.0.0" });
  await client.connect(clientSide);
  return { client, asked: () => requests };
}

/** A server listing `listed` on one page. */
const listing = (listed: ListedTool[], name?: string) => connected(() => ({ tools: listed }), name);

/** What `fromMcp(client, options)` rejected with. */
async function refusal(promise: Promise<unknown>): Promise<Error> {
  const outcome = await promise.then(
    () => undefined,
    (error: unknown) => error,
  );
  if (!(outcome instanceof Error)) throw new Error("fromMcp was expected to reject");
  return outcome;
}

describe("fromMcp counts the tools of every page of tools/list, the last one included", () => {
  it("states its limits: 10,000 tools over at most 1,000 pages", () => {
    expect(FROM_MCP_LIMITS).toMatchObject({ tools: 10_000, pages: 1_000 });
    expect(Object.isFrozen(FROM_MCP_LIMITS)).toBe(true);
  });

  it("refuses a single page of more than 10,000 tools", async () => {
    const { client } = await listing(tools(10_001));
    const error = await refusal(fromMcp(client));
    expect(error.message).toBe('fromMcp: the MCP server "hand-made" lists more than 10000 tools (10001 in 1 page of tools/list); toolnexus takes at most 10000 from one server.');
    await client.close();
  });

  it("refuses a last page that takes the total past 10,000", async () => {
    const { client } = await connected((n) => (n === 0 ? { tools: tools(9_999), nextCursor: "next" } : { tools: tools(2, 9_999) }));
    await expect(fromMcp(client)).rejects.toThrow("lists more than 10000 tools (10001 in 2 pages of tools/list)");
    await client.close();
  });

  it("stops asking as soon as the total passes the limit", async () => {
    const { client, asked } = await connected((n) => ({ tools: tools(6_000, n * 6_000), nextCursor: String(n + 1) }));
    await expect(fromMcp(client)).rejects.toThrow("lists more than 10000 tools (12000 in 2 pages of tools/list)");
    expect(asked()).toBe(2);
    await client.close();
  });

  it("takes exactly 10,000 tools", async () => {
    const { client } = await connected((n) => (n === 0 ? { tools: tools(5_000), nextCursor: "next" } : { tools: tools(5_000, 5_000) }));
    expect(await fromMcp(client)).toHaveLength(10_000);
    await client.close();
  });

  it("a repeated cursor of any length is refused with the cursor cut in the message", async () => {
    const cursor = "c".repeat(1024 * 1024);
    const { client } = await connected(() => ({ tools: [], nextCursor: cursor }));
    const error = await refusal(fromMcp(client));
    expect(error.message).toMatch(/^fromMcp: the MCP server "hand-made" sent the tools\/list cursor "c+ \.\.\. \(\d+ more characters\)" twice; its pages never end\.$/);
    expect(error.message.length).toBeLessThan(400);
    await client.close();
  });

  it("a cursor that comes back after others is refused as well", async () => {
    const { client, asked } = await connected((n) => ({ tools: [tool(`t${n}`)], nextCursor: ["a", "b", "c", "a"][n % 4] }));
    await expect(fromMcp(client)).rejects.toThrow('sent the tools/list cursor "a" twice; its pages never end.');
    expect(asked()).toBe(4);
    await client.close();
  });

  it("a client whose listTools answers something that is not a page of tools is refused, naming the server", async () => {
    const { client } = await listing([tool("a")]);
    const odd = Object.assign(Object.create(client) as Client, { listTools: () => Promise.resolve({ tools: "none" }) });
    await expect(fromMcp(odd)).rejects.toThrow('fromMcp: the MCP server "hand-made" answered tools/list with something that is not a list of tools.');
    await client.close();
  });
});
