/**
 * `ctx.reportProgress` over the real transports: progress notifications reach the official
 * SDK client that asked for them (a progress token, which `onprogress` sends), over
 * streamable HTTP in process and over stdio from the built bin.
 */
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import type { Progress } from "@modelcontextprotocol/sdk/types.js";
import { Toolkit } from "../../src";
import { serveMcp } from "../../src/mcp";
import { countdown } from "../fixtures/cli/progress";
import { assertBuilt, bin, connectHttp, fixture, root, textOf } from "./support";

const expected: Progress[] = [
  { progress: 1, total: 3, message: "first" },
  { progress: 2, total: 3 },
  { progress: 3, total: 3, message: "done" },
];

async function callWithProgress(client: Client): Promise<{ text: string; seen: Progress[] }> {
  const seen: Progress[] = [];
  const result = await client.callTool({ name: "countdown", arguments: {} }, undefined, {
    onprogress: (progress) => void seen.push(progress),
  });
  return { text: textOf(result), seen };
}

describe("MCP progress notifications", () => {
  it("reach an HTTP client, only increasing values", async () => {
    const server = await serveMcp(new Toolkit([countdown]), { transport: "http", port: 0 });
    const client = await connectHttp(server.url!);
    try {
      expect(await callWithProgress(client)).toEqual({ text: "counted", seen: expected });
    } finally {
      await client.close();
      await server.close();
    }
  });

  it("reach a stdio client of `toolnexus serve --stdio`", async () => {
    assertBuilt();
    const transport = new StdioClientTransport({
      command: process.execPath,
      args: [bin, "serve", fixture("progress.ts"), "--stdio"],
      cwd: root,
      stderr: "pipe",
    });
    const client = new Client({ name: "toolnexus-progress-test", version: "1.0.0" });
    await client.connect(transport);
    try {
      expect(await callWithProgress(client)).toEqual({ text: "counted", seen: expected });
    } finally {
      await client.close();
    }
  });
});
