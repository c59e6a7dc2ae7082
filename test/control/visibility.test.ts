/**
 * Per-ctx visibility: a tool's `visible(ctx)` and the toolkit's `visible(tool, ctx)` decide
 * which tools exist for a ctx. Hidden tools are not listed, not exported, not run, and their
 * names never leak: a call to one gets what a call to a name that does not exist gets.
 */
import "reflect-metadata";
import { ErrorCode, McpError } from "@modelcontextprotocol/sdk/types.js";
import { defineTool, scanTools, Tool, ToolDefinitionError, Toolkit, toOpenAI, type ToolContext } from "../../src";
import { scanErrorThrownBy } from "../support/scan-error";
import { connectMcp, mcpText, providerRows } from "./support";

const admin: ToolContext = { state: { role: "admin" } };
const user: ToolContext = { state: { role: "user" } };

function tools() {
  const ran: string[] = [];
  const deleteUser = defineTool({
    name: "delete_user",
    description: "Deletes a user",
    inputSchema: { type: "object", properties: { id: { type: "string" } } },
    visible: (ctx) => ctx.state?.role === "admin",
    execute: () => {
      ran.push("delete_user");
      return "deleted";
    },
  });
  const listUsers = defineTool({
    name: "list_users",
    description: "Lists users",
    execute: () => {
      ran.push("list_users");
      return "ann, bob";
    },
  });
  return { list: [listUsers, deleteUser], ran };
}

describe("visibility: tools(ctx) and exports", () => {
  it("tools(ctx) lists the tools visible to the ctx; tools() is the whole registry", () => {
    const kit = new Toolkit(tools().list);
    expect(kit.tools(user).map((tool) => tool.name)).toEqual(["list_users"]);
    expect(kit.tools(admin).map((tool) => tool.name)).toEqual(["list_users", "delete_user"]);
    expect(kit.tools({}).map((tool) => tool.name)).toEqual(["list_users"]);
    expect(kit.tools().map((tool) => tool.name)).toEqual(["list_users", "delete_user"]);
    expect(kit.has("delete_user")).toBe(true);
  });

  it("every export declares only the tools visible to { ctx }; without a ctx, what an empty ctx sees", () => {
    const kit = new Toolkit(tools().list);
    const names = {
      gemini: (ctx?: ToolContext) => kit.toGemini(ctx && { ctx })[0]!.functionDeclarations.map((d) => d.name),
      openai: (ctx?: ToolContext) =>
        kit.toOpenAI(ctx && { ctx }).map((t) => (t.type === "function" ? t.function.name : t.type)),
      responses: (ctx?: ToolContext) =>
        kit.toOpenAIResponses(ctx && { ctx }).map((t) => (t.type === "function" ? t.name : t.type)),
      anthropic: (ctx?: ToolContext) => kit.toAnthropic(ctx && { ctx }).map((t) => t.name),
      bedrock: (ctx?: ToolContext) => kit.toBedrock(ctx && { ctx }).tools.map((t) => t.toolSpec.name),
      mcp: (ctx?: ToolContext) => kit.toMcp(ctx && { ctx }).map((t) => t.name),
      described: (ctx?: ToolContext) =>
        (kit.describeExport("openai", ctx && { ctx }).declarations as Array<{ function: { name: string } }>).map(
          (t) => t.function.name,
        ),
    };
    for (const [format, namesFor] of Object.entries(names)) {
      expect([format, namesFor(admin)]).toEqual([format, ["list_users", "delete_user"]]);
      expect([format, namesFor(user)]).toEqual([format, ["list_users"]]);
      expect([format, namesFor()]).toEqual([format, ["list_users"]]);
    }
  });

  it("the free export functions apply each tool's own visible for { ctx }", () => {
    const { list } = tools();
    expect(toOpenAI(list, { ctx: user }).map((t) => (t.type === "function" ? t.function.name : t.type))).toEqual([
      "list_users",
    ]);
    expect(toOpenAI(list, { ctx: admin }).map((t) => (t.type === "function" ? t.function.name : t.type))).toEqual([
      "list_users",
      "delete_user",
    ]);
  });

  it("the toolkit's visible(tool, ctx) hides beside each tool's own; both must agree", () => {
    const seen: string[] = [];
    const kit = new Toolkit(tools().list, {
      visible: (tool, ctx) => {
        seen.push(tool.name);
        return ctx.state?.tenant !== "readonly" || tool.name === "list_users";
      },
    });
    expect(kit.tools({ state: { role: "admin", tenant: "readonly" } }).map((t) => t.name)).toEqual(["list_users"]);
    expect(kit.tools({ state: { role: "user", tenant: "full" } }).map((t) => t.name)).toEqual(["list_users"]);
    expect(kit.tools({ state: { role: "admin", tenant: "full" } }).map((t) => t.name)).toEqual([
      "list_users",
      "delete_user",
    ]);
    expect(seen).toContain("delete_user");
  });

  it("a visibility check that throws hides the tool (fails closed)", async () => {
    const flaky = defineTool({
      name: "flaky_visible",
      description: "Visible when the check works",
      visible: () => {
        throw new Error("directory unreachable");
      },
      execute: () => "ran",
    });
    const kit = new Toolkit([flaky], { visible: () => true });
    expect(kit.tools({})).toEqual([]);
    expect((await kit.execute("flaky_visible", {})).metadata?.error).toBe("unknown_tool");
    const sharedThrows = new Toolkit(tools().list, {
      visible: () => {
        throw new Error("no");
      },
    });
    expect(sharedThrows.tools(admin)).toEqual([]);
  });
});

describe("visibility: calls", () => {
  it("a call to a hidden tool gets the unknown_tool result a nonexistent name gets, listing only visible names", async () => {
    const { list, ran } = tools();
    const kit = new Toolkit(list);
    const hidden = await kit.execute("delete_user", { id: "u1" }, user);
    const missing = await kit.execute("delete_usr", { id: "u1" }, user);
    expect(hidden).toMatchObject({ isError: true, metadata: { error: "unknown_tool", suggestions: [] } });
    expect(missing).toMatchObject({ isError: true, metadata: { error: "unknown_tool", suggestions: [] } });
    expect(hidden.output).toBe(missing.output.replace("delete_usr", "delete_user"));
    expect(hidden.output).toContain("Available tools: list_users.");
    // The hidden name is never suggested, however close the call's name.
    expect(missing.output).not.toContain('"delete_user"');
    expect(ran).toEqual([]);
    // The same call runs for a ctx that sees the tool.
    expect(await kit.execute("delete_user", { id: "u1" }, admin)).toEqual({ output: "deleted", isError: false });
    // And a close name suggests it there.
    expect((await kit.execute("delete_usr", {}, admin)).output).toContain('Did you mean "delete_user"?');
  });

  it("checks visibility before authorization and approval: neither is asked about a hidden tool", async () => {
    const authorize = jest.fn(() => true);
    const approve = jest.fn(() => true);
    const secret = defineTool({
      name: "secret",
      description: "Hidden",
      visible: () => false,
      authorize,
      needsApproval: true,
      execute: () => "ran",
    });
    const kit = new Toolkit([secret], { approve });
    expect((await kit.execute("secret", {})).metadata?.error).toBe("unknown_tool");
    expect(authorize).not.toHaveBeenCalled();
    expect(approve).not.toHaveBeenCalled();
  });

  it("works for @Tool({ visible }) methods", async () => {
    class Ops {
      @Tool({ description: "Restarts the server", visible: (ctx) => ctx.state?.role === "admin" })
      restart() {
        return "restarting";
      }

      @Tool("Server status")
      status() {
        return "up";
      }
    }
    const kit = new Toolkit([new Ops()]);
    expect(kit.tools(user).map((t) => t.name)).toEqual(["status"]);
    expect(kit.toAnthropic({ ctx: admin }).map((t) => t.name)).toEqual(["restart", "status"]);
    expect((await kit.execute("restart", {}, user)).metadata?.error).toBe("unknown_tool");
    expect(await kit.execute("restart", {}, admin)).toEqual({ output: "restarting", isError: false });
  });
});

describe.each(providerRows)("visibility through %s", (_id, provider) => {
  it("answers a call to a hidden tool as unknown, naming only visible tools, and runs the visible ones", async () => {
    const { list, ran } = tools();
    const kit = new Toolkit(list);
    // An export for one ctx does not make its tools callable for another.
    kit.toOpenAI({ ctx: admin });
    kit.toGemini({ ctx: admin });
    const calls = [
      { id: "v1", name: "list_users", args: {} },
      { id: "v2", name: "delete_user", args: { id: "u1" } },
    ];
    const answers = provider.answers(await provider.run(kit, calls, user));
    expect(answers.map((answer) => [answer.id, answer.isError])).toEqual([
      ["v1", false],
      ["v2", true],
    ]);
    expect(answers[1]!.text).toMatch(/^Unknown tool "delete_user"\. Available tools: list_users\.$/);
    expect(ran).toEqual(["list_users"]);

    const asAdmin = provider.answers(await provider.run(kit, calls, admin));
    expect(asAdmin.map((answer) => answer.text)).toEqual(["ann, bob", "deleted"]);
  });
});

describe("visibility over MCP (official SDK client)", () => {
  it("tools/list declares only the tools visible to the server's state", async () => {
    const { list } = tools();
    const kit = new Toolkit(list);
    const asUser = await connectMcp(kit, { state: { role: "user" } });
    const asAdmin = await connectMcp(kit, { state: { role: "admin" } });
    const anonymous = await connectMcp(kit);
    try {
      expect((await asUser.client.listTools()).tools.map((t) => t.name)).toEqual(["list_users"]);
      expect((await asAdmin.client.listTools()).tools.map((t) => t.name)).toEqual(["list_users", "delete_user"]);
      expect((await anonymous.client.listTools()).tools.map((t) => t.name)).toEqual(["list_users"]);
    } finally {
      await asUser.close();
      await asAdmin.close();
      await anonymous.close();
    }
  });

  it("a call to a hidden tool is the invalid-params error a nonexistent tool gets, with no hidden name listed", async () => {
    const { list, ran } = tools();
    const kit = new Toolkit(list);
    const { client, close } = await connectMcp(kit, { state: { role: "user" } });
    try {
      const error = await client.callTool({ name: "delete_user", arguments: { id: "u1" } }).then(
        () => undefined,
        (thrown: unknown) => thrown,
      );
      expect(error).toBeInstanceOf(McpError);
      expect((error as McpError).code).toBe(ErrorCode.InvalidParams);
      expect((error as McpError).message).toContain('Unknown tool "delete_user". Available tools: list_users.');
      const missing = await client.callTool({ name: "drop_user", arguments: {} }).then(
        () => undefined,
        (thrown: unknown) => thrown as McpError,
      );
      expect(missing!.message).not.toContain("delete_user");
      expect(ran).toEqual([]);
      expect(mcpText(await client.callTool({ name: "list_users", arguments: {} }))).toBe("ann, bob");
    } finally {
      await close();
    }
  });

  it("an admin's server runs the tool", async () => {
    const { list } = tools();
    const { client, close } = await connectMcp(new Toolkit(list), { state: { role: "admin" } });
    try {
      expect(mcpText(await client.callTool({ name: "delete_user", arguments: { id: "u1" } }))).toBe("deleted");
    } finally {
      await close();
    }
  });
});

describe("visibility options are checked where they are written", () => {
  it("defineTool refuses a visible that is not a function, naming the tool", () => {
    expect(() =>
      defineTool({ name: "shy", description: "Shy", visible: true as unknown as () => boolean, execute: () => "" }),
    ).toThrow(ToolDefinitionError);
    expect(() =>
      defineTool({ name: "shy", description: "Shy", visible: true as unknown as () => boolean, execute: () => "" }),
    ).toThrow(/"shy".*visible must be a function/);
  });

  it("@Tool refuses it with a ScanError naming the tool", () => {
    class Bad {
      @Tool({ description: "Shy", visible: "admins" as unknown as () => boolean })
      shyMethod() {
        return "";
      }
    }
    const error = scanErrorThrownBy(() => scanTools(new Bad()));
    expect(error.message).toMatch(/shyMethod/);
    expect(error.message).toMatch(/visible must be a function/);
  });

  it("the toolkit refuses a visible option that is not a function", () => {
    expect(() => new Toolkit([], { visible: false as unknown as () => boolean })).toThrow(/visible must be a function/);
  });
});
