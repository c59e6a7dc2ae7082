/**
 * fromMcp over the SDK's InMemoryTransport, with a server whose listed schemas would grow past
 * MAX_SCHEMA_SIZE once made self-contained: the listing is refused, naming the tool, where the
 * copy passed the limit and the limit, without making the copy first.
 */
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { InMemoryTransport } from "@modelcontextprotocol/sdk/inMemory.js";
import { Server } from "@modelcontextprotocol/sdk/server/index.js";
import { ListToolsRequestSchema, type Tool as ListedTool } from "@modelcontextprotocol/sdk/types.js";
import { ToolDefinitionError } from "toolnexus";
import { fromMcp } from "toolnexus/mcp";
import { DOUBLING_LEVELS, doublingSchema, refusalOfTheTree } from "../support/doubling-schema";

/** A client connected in memory to a server named "forest" that lists `tools`. */
async function clientListing(tools: ListedTool[]): Promise<Client> {
  const server = new Server({ name: "forest", version: "1.0.0" }, { capabilities: { tools: {} } });
  server.setRequestHandler(ListToolsRequestSchema, () => ({ tools }));
  const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
  await server.connect(serverSide);
  const client = new Client({ name: "from-mcp-schema-size-test", version: "1.0.0" });
  await client.connect(clientSide);
  return client;
}

const tree = (schemas: Partial<Pick<ListedTool, "inputSchema" | "outputSchema">>): ListedTool => ({
  name: "tree",
  description: "Walks a tree",
  inputSchema: { type: "object" },
  ...schemas,
});
const EXCLUDE = '. Leave the tool out with { exclude: ["tree"] }.';

describe("fromMcp and listed schemas too large to be made self-contained", () => {
  it(`refuses an inputSchema whose $defs double at each of ${DOUBLING_LEVELS} levels, naming the tool, where its copy passed the limit, and the limit`, async () => {
    const client = await clientListing([tree({ inputSchema: doublingSchema() as ListedTool["inputSchema"] })]);
    const refused = await fromMcp(client).catch((error: unknown) => error);
    expect(refused).toBeInstanceOf(ToolDefinitionError);
    expect((refused as Error).message).toMatch(
      refusalOfTheTree(
        'fromMcp: the inputSchema the MCP server "forest" lists for its tool "tree" cannot be used: ',
        EXCLUDE,
      ),
    );
    await client.close();
  });

  it("refuses such an outputSchema the same way", async () => {
    const client = await clientListing([tree({ outputSchema: doublingSchema() as ListedTool["outputSchema"] })]);
    await expect(fromMcp(client)).rejects.toThrow(
      refusalOfTheTree(
        'fromMcp: the outputSchema the MCP server "forest" lists for its tool "tree" cannot be used: ',
        EXCLUDE,
      ),
    );
    await client.close();
  });

  it("takes the other tools when that one is left out, as the message says", async () => {
    const client = await clientListing([
      tree({ inputSchema: doublingSchema() as ListedTool["inputSchema"] }),
      { name: "leaf", description: "A leaf", inputSchema: { type: "object" } },
    ]);
    expect((await fromMcp(client, { exclude: ["tree"] })).map((tool) => tool.name)).toEqual(["leaf"]);
    await client.close();
  });
});
