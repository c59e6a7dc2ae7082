/**
 * What fromMcp takes from one MCP server is bounded: the tools of every page of tools/list
 * counted (the last page too), the pages, the cursors it remembers and echoes, and the free
 * text each tool brings (names refused past their limit, titles and descriptions cut, schemas
 * refused past theirs), so a broken or hostile server can neither fill the heap nor put
 * megabytes into every request sent to a model.
 */
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { InMemoryTransport } from "@modelcontextprotocol/sdk/inMemory.js";
import { Server } from "@modelcontextprotocol/sdk/server/index.js";
import { ListToolsRequestSchema, type ListToolsResult } from "@modelcontextprotocol/sdk/types.js";
import { Toolkit, ToolDefinitionError } from "toolnexus";
import { fromMcp, FROM_MCP_LIMITS } from "toolnexus/mcp";

type ListedTool = ListToolsResult["tools"][number];

const tool = (name: string, fields: Partial<ListedTool> = {}): ListedTool => ({
  name,
  description: `Tool ${name}`,
  inputSchema: { type: "object" },
  ...fields,
});
const tools = (count: number, from = 0) => Array.from({ length: count }, (_, index) => tool(`t${from + index}`));

/** A server named `name` whose `tools/list` answers `page(n)` to its n-th request (from 0); `asked` counts the requests. */
async function connected(
  page: (n: number) => ListToolsResult,
  name = "hand-made",
): Promise<{ client: Client; asked: () => number }> {
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

const HUGE = 10 * 1024 * 1024;

describe("fromMcp counts the tools of every page of tools/list, the last one included", () => {
  it("states its limits: 10,000 tools over at most 1,000 pages", () => {
    expect(FROM_MCP_LIMITS).toMatchObject({ tools: 10_000, pages: 1_000 });
    expect(Object.isFrozen(FROM_MCP_LIMITS)).toBe(true);
  });

  it("refuses a single page of more than 10,000 tools", async () => {
    const { client } = await listing(tools(10_001));
    const error = await refusal(fromMcp(client));
    expect(error.message).toBe(
      'fromMcp: the MCP server "hand-made" lists more than 10000 tools (10001 in 1 page of tools/list); toolnexus takes at most 10000 from one server.',
    );
    await client.close();
  });

  it("refuses a last page that takes the total past 10,000", async () => {
    const { client } = await connected((n) =>
      n === 0 ? { tools: tools(9_999), nextCursor: "next" } : { tools: tools(2, 9_999) },
    );
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
    const { client } = await connected((n) =>
      n === 0 ? { tools: tools(5_000), nextCursor: "next" } : { tools: tools(5_000, 5_000) },
    );
    expect(await fromMcp(client)).toHaveLength(10_000);
    await client.close();
  });

  it("a repeated cursor of any length is refused with the cursor cut in the message", async () => {
    const cursor = "c".repeat(1024 * 1024);
    const { client } = await connected(() => ({ tools: [], nextCursor: cursor }));
    const error = await refusal(fromMcp(client));
    expect(error.message).toMatch(
      /^fromMcp: the MCP server "hand-made" sent the tools\/list cursor "c+ \.\.\. \(\d+ more characters\)" twice; its pages never end\.$/,
    );
    expect(error.message.length).toBeLessThan(400);
    await client.close();
  });

  it("a cursor that comes back after others is refused as well", async () => {
    const { client, asked } = await connected((n) => ({
      tools: [tool(`t${n}`)],
      nextCursor: ["a", "b", "c", "a"][n % 4],
    }));
    await expect(fromMcp(client)).rejects.toThrow('sent the tools/list cursor "a" twice; its pages never end.');
    expect(asked()).toBe(4);
    await client.close();
  });

  it("a client whose listTools answers something that is not a page of tools is refused, naming the server", async () => {
    const { client } = await listing([tool("a")]);
    const odd = Object.assign(Object.create(client) as Client, { listTools: () => Promise.resolve({ tools: "none" }) });
    await expect(fromMcp(odd)).rejects.toThrow(
      'fromMcp: the MCP server "hand-made" answered tools/list with something that is not a list of tools.',
    );
    await client.close();
  });
});

describe("fromMcp bounds the text a server lists for each tool", () => {
  it("states its limits: names of 1,024 characters, titles of 1,024, descriptions of 16,384, schemas of 1,048,576 as JSON", () => {
    expect(FROM_MCP_LIMITS).toMatchObject({
      nameLength: 1_024,
      titleLength: 1_024,
      descriptionLength: 16_384,
      schemaLength: 1_048_576,
    });
  });

  it("cuts a description past the limit, saying how much was cut, in every export", async () => {
    const { client } = await listing([tool("big", { description: "d".repeat(HUGE) }), tool("small")]);
    const [big, small] = await fromMcp(client);
    expect(big!.description).toHaveLength(FROM_MCP_LIMITS.descriptionLength);
    expect(big!.description).toMatch(/^d+ \.\.\. \(\d+ more characters\)$/);
    expect(small!.description).toBe("Tool small");
    const toolkit = new Toolkit([big!, small!]);
    expect(toolkit.toOpenAI()[0]).toMatchObject({ type: "function", function: { description: big!.description } });
    expect(toolkit.toAnthropic()[0]).toMatchObject({ description: big!.description });
    expect(JSON.stringify(toolkit.toGemini()).length).toBeLessThan(2 * FROM_MCP_LIMITS.descriptionLength);
    await client.close();
  });

  it("keeps a description of exactly the limit as it is", async () => {
    const description = "d".repeat(FROM_MCP_LIMITS.descriptionLength);
    const { client } = await listing([tool("full", { description })]);
    expect((await fromMcp(client))[0]!.description).toBe(description);
    await client.close();
  });

  it("never splits a character where it cuts", async () => {
    const { client } = await listing([tool("emoji", { description: "😀".repeat(FROM_MCP_LIMITS.descriptionLength) })]);
    const [cut] = await fromMcp(client);
    expect(cut!.description).toMatch(/^(?:😀)+ \.\.\. \(\d+ more characters\)$/u);
    await client.close();
  });

  it("cuts a title past the limit, as listed or in the annotations, and in the description made for a tool without one", async () => {
    const title = "T".repeat(HUGE);
    const { client } = await listing([
      tool("titled", { title }),
      tool("hinted", { annotations: { title } }),
      tool("bare", { title, description: undefined }),
    ]);
    const [titled, hinted, bare] = await fromMcp(client);
    for (const each of [titled!, hinted!, bare!]) {
      expect(each.annotations?.title).toHaveLength(FROM_MCP_LIMITS.titleLength);
      expect(each.annotations?.title).toMatch(/^T+ \.\.\. \(\d+ more characters\)$/);
    }
    expect(bare!.description.length).toBeLessThan(FROM_MCP_LIMITS.titleLength + 200);
    expect(bare!.description).toMatch(
      / \(tool "bare"\) of the MCP server "hand-made", which gives no description of it\.$/,
    );
    await client.close();
  });

  it("refuses a tool name past the limit, naming it cut short, and says how to leave it out", async () => {
    const long = "n".repeat(HUGE);
    const { client } = await listing([tool("fine"), tool(long)]);
    for (const names of ["exact", "sanitize"] as const) {
      const error = await refusal(fromMcp(client, { names }));
      expect(error).toBeInstanceOf(ToolDefinitionError);
      expect(error.message).toMatch(
        /^fromMcp: the MCP server "hand-made" lists tool names longer than 1024 characters, which toolnexus does not take: "n+ \.\.\. \(\d+ more characters\)"\. Leave them out with \{ exclude: \(tool\) => tool\.name\.length > 1024 \}\.$/,
      );
      expect(error.message.length).toBeLessThan(400);
    }
    expect(
      (await fromMcp(client, { exclude: (listed) => listed.name.length > FROM_MCP_LIMITS.nameLength })).map(
        (kept) => kept.name,
      ),
    ).toEqual(["fine"]);
    await client.close();
  });

  it("takes a name of exactly the limit under names: sanitize", async () => {
    const { client } = await listing([tool("x".repeat(FROM_MCP_LIMITS.nameLength))]);
    const [kept] = await fromMcp(client, { names: "sanitize" });
    expect(kept!.name.length).toBeLessThanOrEqual(64);
    await client.close();
  });

  it("cuts every server tool name it quotes in an error, and lists at most 50", async () => {
    const { client } = await listing(Array.from({ length: 60 }, (_, index) => tool(`${"w".repeat(1_000)}${index}`)));
    const typo = await refusal(fromMcp(client, { include: ["nope"] }));
    expect(typo.message).toMatch(
      /^fromMcp: include names "nope", which the MCP server "hand-made" does not have\. Its tools: w+ \.\.\. \(\d+ more characters\), /,
    );
    expect(typo.message).toMatch(/ and 10 more\.$/);
    expect(typo.message.length).toBeLessThan(50 * 170);
    const unusable = await refusal(fromMcp(client));
    expect(unusable.message).toMatch(
      /^fromMcp: no provider accepts the tool names "w+ \.\.\. \(\d+ more characters\)", /,
    );
    expect(unusable.message).toMatch(/ and 10 more of the MCP server "hand-made"\. Pass \{ names: "sanitize" \}/);
    expect(unusable.message.length).toBeLessThan(50 * 170 + 300);
    await client.close();
  });

  it("cuts the name a server gives itself, which descriptions and error texts quote", async () => {
    const { client } = await listing([tool("bare", { description: undefined })], "s".repeat(HUGE));
    const [bare] = await fromMcp(client);
    expect(bare!.description.length).toBeLessThan(FROM_MCP_LIMITS.nameLength + 200);
    expect(bare!.description).toMatch(
      /^The tool "bare" of the MCP server "s+ \.\.\. \(\d+ more characters\)", which gives no description of it\.$/,
    );
    await client.close();
  });

  it("refuses an inputSchema or outputSchema past the limit as JSON (a huge parameter description), naming the tool", async () => {
    const inputSchema = {
      type: "object" as const,
      properties: { q: { type: "string", description: "p".repeat(HUGE) } },
    };
    const { client } = await listing([
      tool("fine"),
      tool("wordy", { inputSchema }),
      tool("verbose", { outputSchema: inputSchema }),
    ]);
    const input = await refusal(fromMcp(client, { include: ["fine", "wordy"] }));
    expect(input).toBeInstanceOf(ToolDefinitionError);
    expect(input.message).toBe(
      `fromMcp: the inputSchema the MCP server "hand-made" lists for its tool "wordy" is ${JSON.stringify(inputSchema).length} characters of JSON, more than the 1048576 toolnexus takes. Leave the tool out with { exclude: ["wordy"] }.`,
    );
    await expect(fromMcp(client, { include: ["verbose"] })).rejects.toThrow(
      'the outputSchema the MCP server "hand-made" lists for its tool "verbose" is ',
    );
    expect((await fromMcp(client, { include: ["fine"] })).map((kept) => kept.name)).toEqual(["fine"]);
    await client.close();
  });

  it("keeps a schema of exactly the limit", async () => {
    const frame = JSON.stringify({ type: "object", properties: { q: { type: "string", description: "" } } }).length;
    const inputSchema = {
      type: "object" as const,
      properties: { q: { type: "string", description: "p".repeat(FROM_MCP_LIMITS.schemaLength - frame) } },
    };
    const { client } = await listing([tool("full", { inputSchema })]);
    expect(JSON.stringify((await fromMcp(client))[0]!.inputSchema)).toContain("p".repeat(1_000));
    await client.close();
  });
});
