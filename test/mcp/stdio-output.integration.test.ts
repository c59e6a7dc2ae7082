/**
 * Over stdio, stdout carries the protocol and nothing else: whatever a tool writes (every
 * console method, process.stdout.write) goes to stderr, for `toolnexus serve --stdio` and for
 * serveMcp from toolnexus/mcp alike; serveMcp undoes the diversion when it stops.
 */
import { spawn } from "node:child_process";
import { join } from "node:path";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { assertBuilt, bin, eventually, exited, INITIALIZE, jsonRpc, root } from "./support";
import { patience } from "../support/time";

const fixtures = join(__dirname, "fixtures");

beforeAll(assertBuilt);

/** What every call of the `noisy` tool with `tag` writes, as it must appear on stderr. */
function expectNoiseOnStderr(stderr: string, tag: string): void {
  expect(stderr).toContain(`{ dir: '${tag}' }`);
  expect(stderr).toMatch(new RegExp(`│\\s+table\\s+│[\\s\\S]*'${tag}'`));
  for (const line of [`log ${tag}`, `info ${tag}`, `group ${tag}`, `count ${tag}: 1`, `write ${tag}`])
    expect(stderr).toContain(line);
}

async function driveWithSdkClient(args: string[]): Promise<{ stderr: string; errors: Error[]; results: unknown[] }> {
  const transport = new StdioClientTransport({ command: process.execPath, args, cwd: root, stderr: "pipe" });
  let stderr = "";
  transport.stderr?.on("data", (chunk: Buffer) => (stderr += chunk.toString("utf8")));
  const client = new Client({ name: "stdio-output-test", version: "1.0.0" });
  const errors: Error[] = [];
  client.onerror = (error) => errors.push(error);
  try {
    await client.connect(transport);
    // A short timeout: a response glued to a tool's stray output never parses, and would hang.
    const results = [
      await client.callTool({ name: "noisy", arguments: { tag: "first" } }, undefined, { timeout: patience(5_000) }),
      await client.callTool({ name: "noisy", arguments: { tag: "second" } }, undefined, { timeout: patience(5_000) }),
    ];
    expect((await client.listTools({}, { timeout: patience(5_000) })).tools.map((tool) => tool.name)).toEqual([
      "noisy",
    ]);
    await eventually(
      "the tools' output on stderr",
      async () => (stderr.includes("write second") ? true : undefined),
      patience(5_000),
    );
    // Taken before close(): once stopped, the serveMcp fixture writes to stdout on purpose.
    return { stderr, errors: [...errors], results };
  } finally {
    await client.close();
  }
}

describe("toolnexus serve --stdio", () => {
  it("sends everything the tools (and the module, while loading) write to stderr; the SDK client sees only the protocol", async () => {
    const { stderr, errors, results } = await driveWithSdkClient([
      bin,
      "serve",
      join(fixtures, "noisy-at-load.js"),
      "--stdio",
    ]);
    expect(results).toEqual([
      { content: [{ type: "text", text: "quiet first" }], isError: false },
      { content: [{ type: "text", text: "quiet second" }], isError: false },
    ]);
    expect(errors).toEqual([]);
    expect(stderr).toContain("loading the noisy tools");
    expectNoiseOnStderr(stderr, "first");
    expectNoiseOnStderr(stderr, "second");
  });
});

describe("serveMcp over stdio", () => {
  it("sends everything the tools write to stderr; the SDK client sees only the protocol", async () => {
    const { stderr, errors, results } = await driveWithSdkClient([join(fixtures, "serve-noisy.js")]);
    expect(results).toEqual([
      { content: [{ type: "text", text: "quiet first" }], isError: false },
      { content: [{ type: "text", text: "quiet second" }], isError: false },
    ]);
    expect(errors).toEqual([]);
    expectNoiseOnStderr(stderr, "first");
    expectNoiseOnStderr(stderr, "second");
  });

  it("gives stdout back once the server has stopped", async () => {
    const child = spawn(process.execPath, [join(fixtures, "serve-noisy.js")], { cwd: root });
    let stdout = "";
    let stderr = "";
    child.stdout.setEncoding("utf8").on("data", (chunk: string) => (stdout += chunk));
    child.stderr.setEncoding("utf8").on("data", (chunk: string) => (stderr += chunk));
    child.stdin.write(`${INITIALIZE}\n`);
    child.stdin.write(`${jsonRpc(2, "tools/call", { name: "noisy", arguments: { tag: "raw" } })}\n`);
    await eventually("the answer", async () => (stdout.includes('"id":2') ? true : undefined), patience(5_000));
    child.stdin.end();
    expect(await exited(child)).toBe(0);

    const lines = stdout.trimEnd().split("\n");
    expect(lines.slice(-2)).toEqual(["console.log after close", "stdout.write after close"]);
    const protocol = lines.slice(0, -2).map((line) => JSON.parse(line) as { id?: number; result?: unknown });
    expect(protocol.map((message) => message.id)).toEqual([1, 2]);
    expect(protocol[1]!.result).toEqual({ content: [{ type: "text", text: "quiet raw" }], isError: false });
    expectNoiseOnStderr(stderr, "raw");
  });
});
