/** `toolnexus serve --http`, spawned from the built bin, with the SDK client and raw requests. */
import { createServer } from "node:net";
import type { AddressInfo } from "node:net";
import type { ChildProcessWithoutNullStreams } from "node:child_process";
import { ErrorCode, McpError } from "@modelcontextprotocol/sdk/types.js";
import {
  connectHttp,
  eventually,
  exited,
  INITIALIZE,
  jsonRpc,
  rawRequest,
  startCliHttpServer,
  textOf,
} from "../mcp/support";
import { assertBuilt, expectOneLineError, rel, runCli } from "./run-cli";

beforeAll(assertBuilt);

describe("serve --http with a token", () => {
  let child: ChildProcessWithoutNullStreams;
  let url: string;
  let stderr: () => string;

  beforeAll(async () => {
    ({ child, url, stderr } = await startCliHttpServer([
      rel("services.ts"),
      "--http",
      "127.0.0.1:0",
      "--token",
      "cli-secret",
    ]));
  });
  afterAll(async () => {
    if (child.exitCode === null) {
      child.kill("SIGKILL");
      await exited(child);
    }
  });

  it("prints where it listens: 127.0.0.1, the chosen port, /mcp", () => {
    expect(url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/mcp$/);
    expect(stderr()).toContain("serving 5 tools over MCP at");
    expect(stderr()).toContain("stateless");
  });

  it("lists, calls, fails and refuses unknown tools for the SDK client", async () => {
    const client = await connectHttp(url, { authorization: "Bearer cli-secret" });
    try {
      expect((await client.listTools()).tools.map((tool) => tool.name)).toEqual([
        "getWeather",
        "add",
        "charge",
        "wait",
        "waitEvents",
      ]);
      expect(await client.callTool({ name: "add", arguments: { a: 40, b: 2 } })).toEqual({
        content: [{ type: "text", text: "42" }],
        isError: false,
      });
      expect((await client.callTool({ name: "charge", arguments: { amount: 3 } })).isError).toBe(true);
      const unknown = await client.callTool({ name: "ad", arguments: {} }).catch((e: unknown) => e);
      expect(unknown).toBeInstanceOf(McpError);
      expect((unknown as McpError).code).toBe(ErrorCode.InvalidParams);
    } finally {
      await client.close();
    }
  });

  it("refuses a missing token and a foreign Host", async () => {
    expect((await rawRequest(url, { body: INITIALIZE })).status).toBe(401);
    expect(
      (
        await rawRequest(url, {
          body: INITIALIZE,
          headers: { authorization: "Bearer cli-secret", host: "attacker.example" },
        })
      ).status,
    ).toBe(403);
  });

  it("on SIGTERM finishes the call in flight, then exits 0", async () => {
    const client = await connectHttp(url, { authorization: "Bearer cli-secret" });
    const call = client.callTool({ name: "wait", arguments: { ms: 300, label: "cli-sigterm" } });
    await eventually("the call to start", async () => {
      const events = JSON.parse(textOf(await client.callTool({ name: "waitEvents", arguments: {} }))) as string[];
      return events.includes("started cli-sigterm") ? true : undefined;
    });
    child.kill("SIGTERM");
    expect(textOf(await call)).toBe("finished waiting for cli-sigterm");
    expect(await exited(child)).toBe(0);
    expect(stderr()).toContain("stopping: finishing the calls in flight");
    await client.close();
  });
});

describe("serve --http options", () => {
  it("takes the token from TOOLNEXUS_TOKEN, extra hosts from --allowed-host, and answers JSON with --json-response", async () => {
    const { child, url } = await startCliHttpServer(
      [rel("tools.js"), "--http", "0", "--allowed-host", "tools.internal", "--json-response"],
      { TOOLNEXUS_TOKEN: "from-env" },
    );
    try {
      expect((await rawRequest(url, { body: INITIALIZE })).status).toBe(401);
      const port = new URL(url).port;
      const answer = await rawRequest(url, {
        body: jsonRpc(2, "tools/call", { name: "echo", arguments: { text: "hi" } }),
        headers: { authorization: "Bearer from-env", host: `tools.internal:${port}` },
      });
      expect(answer.status).toBe(200);
      expect(answer.headers["content-type"]).toMatch(/^application\/json/);
      expect(answer.messages[0]).toMatchObject({
        id: 2,
        result: { content: [{ type: "text", text: "hi" }], isError: false },
      });
      expect(
        (
          await rawRequest(url, {
            body: INITIALIZE,
            headers: { authorization: "Bearer from-env", host: `other.internal:${port}` },
          })
        ).status,
      ).toBe(403);
    } finally {
      child.kill("SIGTERM");
      expect(await exited(child)).toBe(0);
    }
  });

  it("usage errors are one line, exit code 2", async () => {
    expectOneLineError(
      await runCli(["serve", rel("tools.js"), "--stdio", "--http", "0"]),
      2,
      "--stdio and --http exclude each other",
    );
    expectOneLineError(
      await runCli(["serve", rel("tools.js"), "--token", "x"]),
      2,
      "--token applies to HTTP only",
      "--http",
    );
    expectOneLineError(
      await runCli(["serve", rel("tools.js"), "--http", "localhost:http"]),
      2,
      "--http takes [host:]port",
    );
    expectOneLineError(await runCli(["serve", rel("tools.js"), "--http", "0", "--max-body", "-1"]), 2, "--max-body");
  });

  it("a port in use is one line with the fix", async () => {
    const blocker = createServer();
    await new Promise<void>((resolve) => blocker.listen(0, "127.0.0.1", resolve));
    const { port } = blocker.address() as AddressInfo;
    try {
      expectOneLineError(
        await runCli(["serve", rel("tools.js"), "--http", `127.0.0.1:${port}`]),
        2,
        `cannot listen on 127.0.0.1:${port}: the port is in use`,
        "Pick another port",
      );
    } finally {
      await new Promise((resolve) => blocker.close(resolve));
    }
  });
});
