/**
 * `tools/call` arguments as the client sent them: what is not a JSON object is an
 * invalid-params error of one line (never an internal error with a validator's dump), and a
 * prototype-reaching key at the top level is refused as toolnexus refuses it everywhere, even
 * though schema parsing would drop `__proto__` without a word.
 */
import { InMemoryTransport } from "@modelcontextprotocol/sdk/inMemory.js";
import { ErrorCode, type JSONRPCMessage } from "@modelcontextprotocol/sdk/types.js";
import { defineTool, Toolkit } from "../../src";
import { createMcpServer, serveMcp, type McpServerHandle } from "../../src/mcp";
import { eventually, INITIALIZE, rawRequest } from "./support";

const echo = defineTool({
  name: "echo",
  description: "Answers with the arguments it received",
  inputSchema: { type: "object", properties: { text: { type: "string" } } },
  execute: (args) => JSON.stringify(args),
});
const toolkit = new Toolkit([echo]);

/** A JSON-RPC message as parsed, read loosely by the assertions. */
type Message = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any

/** The raw text of a tools/call request whose `arguments` is `argumentsJson`, verbatim. */
const callWith = (id: number, argumentsJson: string) =>
  `{"jsonrpc":"2.0","id":${id},"method":"tools/call","params":{"name":"echo","arguments":${argumentsJson}}}`;

const NOT_OBJECTS: Array<[string, string]> = [
  ['"text=hi"', 'string "text=hi"'],
  ["42", "number 42"],
  ["true", "boolean true"],
  ['["hi"]', "an array of 1"],
];
const FORBIDDEN = [
  '{"__proto__":{"isAdmin":true},"text":"hi"}',
  '{"constructor":{"prototype":{}},"text":"hi"}',
  '{"prototype":{},"text":"hi"}',
];

function expectOneLineInvalidParams(message: Message | undefined, described: string): void {
  expect(message?.error?.code).toBe(ErrorCode.InvalidParams);
  const text = String(message!.error.message);
  expect(text).not.toContain("\n");
  expect(text).toContain('"arguments" must be a JSON object');
  expect(text).toContain(described);
  expect(text).not.toMatch(/invalid_type|expected record/);
}

function expectRefusedKey(message: Message | undefined, key: string): void {
  expect(message?.result?.isError).toBe(true);
  expect(message!.result.content[0].text).toBe(
    `Invalid arguments for tool "echo": argument key "${key}" at the top level is not allowed`,
  );
}

describe("tools/call arguments over HTTP", () => {
  let server: McpServerHandle;
  beforeAll(async () => {
    server = await serveMcp(toolkit, { transport: "http", port: 0 });
  });
  afterAll(async () => {
    await server?.close();
  });
  const send = async (body: string) => (await rawRequest(server.url!, { body })).messages[0];

  it.each(NOT_OBJECTS)("arguments %s: a one-line invalid-params error", async (json, described) => {
    expectOneLineInvalidParams(await send(callWith(2, json)), described);
  });

  it("arguments null: no arguments, as toolnexus takes null everywhere", async () => {
    expect(await send(callWith(3, "null"))).toMatchObject({
      id: 3,
      result: { content: [{ type: "text", text: "{}" }], isError: false },
    });
  });

  it.each(FORBIDDEN.map((json) => [JSON.stringify(Object.keys(JSON.parse(json) as object)[0]), json]))(
    "a top-level %s key: an invalid-arguments result",
    async (key, json) => {
      expectRefusedKey(await send(callWith(4, json)), JSON.parse(key) as string);
    },
  );

  it("answers well-formed calls around them", async () => {
    expect(await send(callWith(5, '{"text":"hi"}'))).toMatchObject({
      id: 5,
      result: { content: [{ type: "text", text: '{"text":"hi"}' }], isError: false },
    });
  });
});

describe("tools/call arguments on any transport (createMcpServer)", () => {
  it("refuses them the same way", async () => {
    const server = createMcpServer(toolkit);
    const [client, serverSide] = InMemoryTransport.createLinkedPair();
    const received: Message[] = [];
    client.onmessage = (message) => received.push(message as Message);
    await server.connect(serverSide);
    await client.start();
    await client.send(JSON.parse(INITIALIZE) as JSONRPCMessage);
    await client.send(JSON.parse(callWith(2, '"text=hi"')) as JSONRPCMessage);
    await client.send(JSON.parse(callWith(3, FORBIDDEN[0]!)) as JSONRPCMessage);
    await client.send(JSON.parse(callWith(4, '{"text":"hi"}')) as JSONRPCMessage);
    await eventually("four answers", async () => (received.length >= 4 ? true : undefined));
    const byId = (id: number) => received.find((message) => message.id === id);
    expectOneLineInvalidParams(byId(2), 'string "text=hi"');
    expectRefusedKey(byId(3), "__proto__");
    expect(byId(4)).toMatchObject({ result: { content: [{ text: '{"text":"hi"}' }], isError: false } });
    await server.close();
  });
});
