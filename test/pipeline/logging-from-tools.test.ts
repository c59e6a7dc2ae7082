/**
 * Outside MCP, `ctx.log(level, message, data?)` inside a tool goes to the toolkit's `log` hook
 * as `{ level, message, data?, source }`, the source being the tool's name. Without a hook the
 * log goes nowhere; a hook that throws changes nothing for the call. Resources and prompts read
 * through the toolkit log the same way, their URI or name as the source.
 */
import "reflect-metadata";
import {
  Ctx,
  Param,
  Resource,
  Tool,
  ToolDefinitionError,
  Toolkit,
  defineResource,
  defineResourceTemplate,
  definePrompt,
  defineTool,
  type LogEntry,
  type ToolCallContext,
  type ToolContext,
} from "toolnexus";

const charge = defineTool({
  name: "charge_card",
  description: "Charges a card",
  inputSchema: { type: "object", properties: { cents: { type: "number" } }, required: ["cents"] },
  execute: ({ cents }, ctx) => {
    ctx.log("info", "charging", { cents });
    ctx.log("warning", "card expires soon");
    return `charged ${String(cents)}`;
  },
});

/** A toolkit whose `log` hook keeps each entry with the user of the ctx it was given. */
function loggingToolkit(items: ConstructorParameters<typeof Toolkit>[0]) {
  const entries: LogEntry[] = [];
  const users: unknown[] = [];
  const toolkit = new Toolkit(items, {
    log: (entry, ctx) => {
      entries.push(entry);
      users.push(ctx.state?.user);
    },
  });
  return { toolkit, entries, users };
}

describe("ctx.log inside a tool, with the toolkit's log hook", () => {
  it("hands the hook each entry in order, with the tool's name as its source", async () => {
    const { toolkit, entries } = loggingToolkit([charge]);
    await toolkit.execute("charge_card", { cents: 250 });
    expect(entries).toEqual([
      { level: "info", message: "charging", data: { cents: 250 }, source: "charge_card" },
      { level: "warning", message: "card expires soon", source: "charge_card" },
    ]);
  });

  it("leaves data out of an entry logged without it", async () => {
    const { toolkit, entries } = loggingToolkit([charge]);
    await toolkit.execute("charge_card", { cents: 1 });
    expect(Object.keys(entries[1]!)).toEqual(["level", "message", "source"]);
  });

  it("hands the hook the caller's ctx", async () => {
    const { toolkit, users } = loggingToolkit([charge]);
    await toolkit.execute("charge_card", { cents: 1 }, { state: { user: "ada" } });
    expect(users).toEqual(["ada", "ada"]);
  });

  it("leaves the call's result as it is", async () => {
    const { toolkit } = loggingToolkit([charge]);
    await expect(toolkit.execute("charge_card", { cents: 5 })).resolves.toEqual({
      output: "charged 5",
      isError: false,
    });
  });

  it("names a decorated tool by its tool name, not its method", async () => {
    class Billing {
      @Tool({ name: "refund_payment", description: "Refunds" })
      refund(@Param("id") id: string, @Ctx() ctx: ToolCallContext) {
        ctx.log("notice", `refunding ${id}`);
        return "refunded";
      }
    }
    const { toolkit, entries } = loggingToolkit([new Billing()]);
    await toolkit.execute("refund_payment", { id: "p1" });
    expect(entries).toEqual([{ level: "notice", message: "refunding p1", source: "refund_payment" }]);
  });

  it("gives way to a log the caller's ctx brings (as an MCP client's does)", async () => {
    const { toolkit, entries } = loggingToolkit([charge]);
    const callers: Array<[string, string]> = [];
    const ctx: ToolContext = { log: (level, message) => callers.push([level, message]) };
    await toolkit.execute("charge_card", { cents: 1 }, ctx);
    expect(callers).toEqual([
      ["info", "charging"],
      ["warning", "card expires soon"],
    ]);
    expect(entries).toEqual([]);
  });
});

describe("ctx.log inside a tool, without a log hook", () => {
  it("is a function that does nothing, and the call succeeds", async () => {
    let logType = "";
    const probe = defineTool({
      name: "probe",
      description: "Logs",
      inputSchema: { type: "object", properties: {} },
      execute: (_args, ctx) => {
        logType = typeof ctx.log;
        ctx.log("error", "nobody hears this", { detail: 1 });
        return "ok";
      },
    });
    await expect(new Toolkit([probe]).execute("probe", {})).resolves.toEqual({ output: "ok", isError: false });
    expect(logType).toBe("function");
  });

  it("does nothing when the tool runs alone, outside a toolkit", async () => {
    await expect(charge.execute({ cents: 3 })).resolves.toEqual({ output: "charged 3", isError: false });
  });
});

describe("a log hook that throws", () => {
  it("does not fail the call", async () => {
    const toolkit = new Toolkit([charge], {
      log: () => {
        throw new Error("log sink down");
      },
    });
    await expect(toolkit.execute("charge_card", { cents: 7 })).resolves.toEqual({
      output: "charged 7",
      isError: false,
    });
  });

  it("is still handed the logs after the one it threw on", async () => {
    const levels: string[] = [];
    const toolkit = new Toolkit([charge], {
      log: (entry) => {
        levels.push(entry.level);
        throw new Error("log sink down");
      },
    });
    await toolkit.execute("charge_card", { cents: 7 });
    expect(levels).toEqual(["info", "warning"]);
  });

  it("leaves no unhandled rejection when it is async and rejects", async () => {
    const unhandled: unknown[] = [];
    const onUnhandled = (reason: unknown) => unhandled.push(reason);
    process.on("unhandledRejection", onUnhandled);
    try {
      const toolkit = new Toolkit([charge], {
        log: async () => {
          await Promise.resolve();
          throw new Error("log sink down");
        },
      });
      await expect(toolkit.execute("charge_card", { cents: 7 })).resolves.toEqual({
        output: "charged 7",
        isError: false,
      });
      await new Promise((resolve) => setTimeout(resolve, 20));
      expect(unhandled).toEqual([]);
    } finally {
      process.off("unhandledRejection", onUnhandled);
    }
  });

  it("does not fail a resource's read", async () => {
    const memo = defineResource({
      uri: "memo://today",
      name: "today",
      read: (ctx) => {
        ctx.log("info", "reading");
        return "sunny";
      },
    });
    const toolkit = new Toolkit([memo], {
      log: () => {
        throw new Error("log sink down");
      },
    });
    await expect(toolkit.readResource("memo://today")).resolves.toEqual([
      { uri: "memo://today", mimeType: "text/plain", text: "sunny" },
    ]);
  });
});

describe("a level that is not one of MCP's", () => {
  const warn = defineTool({
    name: "warn",
    description: "Logs at a level MCP does not have",
    execute: (_args: Record<string, never>, ctx) => {
      ctx.log("warn" as never, "careful");
      return "logged";
    },
  });

  it.each([
    ["with a log hook", () => loggingToolkit([warn])],
    ["without one", () => ({ toolkit: new Toolkit([warn]), entries: [] as LogEntry[] })],
  ])("fails the call saying which levels there are, %s, as it would over MCP", async (_, make) => {
    const { toolkit, entries } = make();
    const result = await toolkit.execute("warn", {});
    expect(result.isError).toBe(true);
    expect(result.output).toContain(
      "ctx.log: level must be one of debug, info, notice, warning, error, critical, alert, emergency (got warn).",
    );
    expect(entries).toEqual([]);
  });
});

describe("the log option", () => {
  it("must be a function, and the toolkit says so", () => {
    expect(() => new Toolkit([], { log: "console" as unknown as () => void })).toThrow(
      new ToolDefinitionError("Toolkit: log must be a function (got string)."),
    );
  });
});

describe("ctx.log inside resources and prompts read through the toolkit", () => {
  const memo = defineResource({
    uri: "memo://today",
    name: "today",
    read: (ctx) => {
      ctx.log("debug", "reading memo", { cached: false });
      return "sunny";
    },
  });
  const weather = defineResourceTemplate({
    uriTemplate: "weather://{city}",
    name: "weather",
    read: ({ city }, ctx) => {
      ctx.log("info", `forecast for ${city}`);
      return "rain";
    },
  });
  const greet = definePrompt({
    name: "greet",
    arguments: [{ name: "who" }],
    get: ({ who }, ctx) => {
      ctx.log("info", `greeting ${who}`);
      return `Say hello to ${who}`;
    },
  });

  it("hands a resource's logs to the hook with its URI as the source", async () => {
    const { toolkit, entries } = loggingToolkit([memo]);
    await toolkit.readResource("memo://today");
    expect(entries).toEqual([
      { level: "debug", message: "reading memo", data: { cached: false }, source: "memo://today" },
    ]);
  });

  it("hands a template's logs to the hook with the URI read as the source", async () => {
    const { toolkit, entries } = loggingToolkit([weather]);
    await toolkit.readResource("weather://Oslo");
    expect(entries).toEqual([{ level: "info", message: "forecast for Oslo", source: "weather://Oslo" }]);
  });

  it("hands a prompt's logs to the hook with its name as the source", async () => {
    const { toolkit, entries } = loggingToolkit([greet]);
    await toolkit.getPrompt("greet", { who: "Ada" });
    expect(entries).toEqual([{ level: "info", message: "greeting Ada", source: "greet" }]);
  });

  it("hands the hook the ctx the read was given", async () => {
    const { toolkit, users } = loggingToolkit([memo, greet]);
    await toolkit.readResource("memo://today", { state: { user: "ada" } });
    await toolkit.getPrompt("greet", { who: "Bo" }, { state: { user: "bo" } });
    expect(users).toEqual(["ada", "bo"]);
  });

  it("hands a decorated resource's logs to the hook through its @Ctx parameter", async () => {
    class Status {
      @Tool("Unused tool beside the resource")
      ping() {
        return "pong";
      }

      @Resource("status://now")
      now(@Ctx() ctx: ToolCallContext) {
        ctx.log("info", "status read");
        return "up";
      }
    }
    const { toolkit, entries } = loggingToolkit([new Status()]);
    await expect(toolkit.readResource("status://now")).resolves.toMatchObject([{ text: "up" }]);
    expect(entries).toEqual([{ level: "info", message: "status read", source: "status://now" }]);
  });

  it("does nothing without a hook, and the read and get succeed", async () => {
    const toolkit = new Toolkit([memo, weather, greet]);
    await expect(toolkit.readResource("memo://today")).resolves.toMatchObject([{ text: "sunny" }]);
    await expect(toolkit.readResource("weather://Oslo")).resolves.toMatchObject([{ text: "rain" }]);
    await expect(toolkit.getPrompt("greet", { who: "Ada" })).resolves.toMatchObject({
      messages: [{ content: { text: "Say hello to Ada" } }],
    });
  });
});
