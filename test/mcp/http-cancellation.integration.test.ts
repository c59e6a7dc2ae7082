/**
 * Over HTTP a cancellation arrives in a request of its own. It must reach only the calls of
 * the client that sent it: two clients on one machine with one bearer token are still two
 * clients, and one cannot cancel the other's call by guessing its request id.
 */
import type { Client } from "@modelcontextprotocol/sdk/client/index.js";
import type { RequestId } from "@modelcontextprotocol/sdk/types.js";
import { Toolkit } from "../../src";
import { serveMcp, type McpServerHandle } from "../../src/mcp";
import { SlowService } from "../fixtures/cli/services";
import { connectHttp, eventually, INITIALIZE, rawRequest, textOf } from "./support";

const TOKEN = "shared-token-0123456789";
const auth = { authorization: `Bearer ${TOKEN}` };

let server: McpServerHandle;
let alice: Client;
let bob: Client;
/** The JSON-RPC id of each `wait` call Alice sent, by label. */
const aliceIds = new Map<string, RequestId>();

/** Alice's fetch: notes the id of every `wait` call on its way out. */
const recordingFetch: typeof fetch = (input, init) => {
  if (typeof init?.body === "string") {
    for (const message of [JSON.parse(init.body) as unknown].flat() as Array<{
      id?: RequestId;
      method?: string;
      params?: { name?: string; arguments?: { label?: string } };
    }>) {
      if (message.method === "tools/call" && message.params?.name === "wait" && message.id !== undefined)
        aliceIds.set(message.params.arguments!.label!, message.id);
    }
  }
  return fetch(input, init);
};

beforeAll(async () => {
  server = await serveMcp(new Toolkit([new SlowService()]), { transport: "http", port: 0, token: TOKEN });
  alice = await connectHttp(server.url!, auth, recordingFetch);
  bob = await connectHttp(server.url!, auth);
});

afterAll(async () => {
  await alice?.close();
  await bob?.close();
  await server?.close();
});

async function events(): Promise<string[]> {
  return JSON.parse(textOf(await bob.callTool({ name: "waitEvents", arguments: {} }))) as string[];
}

async function started(label: string): Promise<void> {
  await eventually(`${label} to start`, async () => ((await events()).includes(`started ${label}`) ? true : undefined));
}

describe("cancellation over HTTP is per client", () => {
  it("gives every initialize a session id of its own", async () => {
    const ids = await Promise.all(
      [1, 2].map(
        async () => (await rawRequest(server.url!, { body: INITIALIZE, headers: auth })).headers["mcp-session-id"],
      ),
    );
    for (const id of ids) expect(id).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/);
    expect(ids[0]).not.toBe(ids[1]);
  });

  it("another client cancelling Alice's request id (same address, same token) leaves her call running", async () => {
    const call = alice.callTool({ name: "wait", arguments: { ms: 1_500, label: "alice-survives" } });
    await started("alice-survives");
    const id = aliceIds.get("alice-survives");
    expect(id).toBeDefined();

    await bob.notification({ method: "notifications/cancelled", params: { requestId: id!, reason: "Bob interferes" } });

    expect(await call).toEqual({
      content: [{ type: "text", text: "finished waiting for alice-survives" }],
      isError: false,
    });
    const seen = await events();
    expect(seen).toContain("finished alice-survives");
    expect(seen.some((event) => event.startsWith("aborted alice-survives"))).toBe(false);
  });

  it("Alice's own cancellation still aborts her call", async () => {
    const controller = new AbortController();
    const outcome = alice
      .callTool({ name: "wait", arguments: { ms: 60_000, label: "alice-cancels" } }, undefined, {
        signal: controller.signal,
      })
      .then(
        () => "resolved",
        () => "rejected",
      );
    await started("alice-cancels");
    controller.abort(new Error("Alice changed her mind"));
    expect(await outcome).toBe("rejected");
    const seen = await eventually("the tool to see the abort", async () => {
      const all = await events();
      return all.some((event) => event.startsWith("aborted alice-cancels")) ? all : undefined;
    });
    expect(seen.find((event) => event.startsWith("aborted alice-cancels"))).toContain("Alice changed her mind");
  });
});
