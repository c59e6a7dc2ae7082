/**
 * Retries: `retry: n | { attempts, delayMs?, maxDelayMs? } | false`, or the `idempotent`
 * annotation (3 attempts). Only `execution_failed` is retried, within the call's one deadline;
 * the result says how many attempts it took (`metadata.attempts`).
 */
import "reflect-metadata";
import {
  defineTool,
  scanTools,
  Tool,
  ToolDefinitionError,
  Toolkit,
  type RetryOption,
  type ToolAnnotations,
  type ToolFailure,
} from "../../src";
import { scanErrorThrownBy } from "../support/scan-error";
import { connectMcp, mcpText, providerRows, sleep } from "./support";

/** A tool that throws on its first `failures` attempts, then answers. */
function flaky(
  failures: number,
  options: { retry?: RetryOption; annotations?: ToolAnnotations; timeout?: number } = {},
) {
  const attempts = { count: 0 };
  const tool = defineTool({
    name: "flaky",
    description: "Fails a few times",
    inputSchema: { type: "object", properties: { n: { type: "integer" } } },
    validate: true,
    ...options,
    execute: () => {
      attempts.count += 1;
      if (attempts.count <= failures) throw new Error(`attempt ${attempts.count} failed`);
      return `ok after ${attempts.count}`;
    },
  });
  return { tool, attempts };
}

describe("retries: execute", () => {
  it("retries execution_failed until it succeeds, and says how many attempts it took", async () => {
    const { tool, attempts } = flaky(2, { retry: { attempts: 3, delayMs: 1 } });
    expect(await new Toolkit([tool]).execute("flaky", {})).toEqual({
      output: "ok after 3",
      isError: false,
      metadata: { attempts: 3 },
    });
    expect(attempts.count).toBe(3);
  });

  it("gives the last failure, with its attempts, when every attempt fails", async () => {
    const { tool, attempts } = flaky(10, { retry: { attempts: 4, delayMs: 1 } });
    const result = await new Toolkit([tool]).execute("flaky", {});
    expect(result).toMatchObject({ isError: true, metadata: { error: "execution_failed", attempts: 4 } });
    expect(result.output).toContain("attempt 4 failed");
    expect(attempts.count).toBe(4);
  });

  it("states the deadline of a retry that runs out of time in whole milliseconds, as every timeout does", async () => {
    let attempt = 0;
    const slow = defineTool({
      name: "slow_retry",
      description: "Fails once, then takes too long",
      retry: { attempts: 2, delayMs: 5 },
      execute: async () => {
        attempt += 1;
        if (attempt === 1) throw new Error("first attempt failed");
        await sleep(1_000);
        return "late";
      },
    });
    const result = await new Toolkit([slow]).execute("slow_retry", {}, { timeout: 120.25 });
    expect(result.metadata).toMatchObject({ error: "timeout", attempts: 2 });
    expect(Number.isInteger(result.metadata?.timeoutMs)).toBe(true);
    expect(result.output).toMatch(/^Tool "slow_retry" timed out after \d+ ms/);
  });

  it("adds no attempts to a call that succeeds the first time", async () => {
    const { tool } = flaky(0, { retry: 3 });
    expect(await new Toolkit([tool]).execute("flaky", {})).toEqual({ output: "ok after 1", isError: false });
  });

  it("a number is the attempts in all; 1 and false never retry", async () => {
    for (const [retry, expected] of [
      [2, 2],
      [1, 1],
      [false, 1],
    ] as const) {
      const { tool, attempts } = flaky(10, { retry });
      // A number of attempts waits the default 100 ms between them: 2 attempts wait once.
      await new Toolkit([tool]).execute("flaky", {});
      expect([retry, attempts.count]).toEqual([retry, expected]);
    }
  });

  it("retries tools annotated idempotent 3 times unless they set retry", async () => {
    const idempotent = flaky(10, { annotations: { idempotent: true }, retry: { attempts: 3, delayMs: 1 } });
    expect((await new Toolkit([idempotent.tool]).execute("flaky", {})).metadata?.attempts).toBe(3);
    const byAnnotation = flaky(2, { annotations: { idempotent: true } });
    const result = await new Toolkit([byAnnotation.tool]).execute("flaky", {});
    expect(result).toEqual({ output: "ok after 3", isError: false, metadata: { attempts: 3 } });
    const optedOut = flaky(10, { annotations: { idempotent: true }, retry: false });
    await new Toolkit([optedOut.tool]).execute("flaky", {});
    expect(optedOut.attempts.count).toBe(1);
    const notIdempotent = flaky(10, { annotations: { idempotent: false } });
    await new Toolkit([notIdempotent.tool]).execute("flaky", {});
    expect(notIdempotent.attempts.count).toBe(1);
  });

  it("never retries invalid arguments", async () => {
    const { tool, attempts } = flaky(10, { retry: { attempts: 5, delayMs: 1 } });
    const result = await new Toolkit([tool]).execute("flaky", { n: "not a number" });
    expect(result.metadata?.error).toBe("invalid_arguments");
    expect(result.metadata?.attempts).toBeUndefined();
    expect(attempts.count).toBe(0);
  });

  it("never retries a timeout", async () => {
    let count = 0;
    const hangs = defineTool({
      name: "hangs",
      description: "Never answers",
      retry: { attempts: 5, delayMs: 1 },
      timeout: 20,
      execute: () => {
        count += 1;
        return new Promise(() => {});
      },
    });
    const result = await new Toolkit([hangs]).execute("hangs", {});
    expect(result.metadata?.error).toBe("timeout");
    expect(result.metadata?.attempts).toBeUndefined();
    expect(count).toBe(1);
  });

  it("never retries an aborted call", async () => {
    let count = 0;
    const controller = new AbortController();
    const aborts = defineTool({
      name: "aborts",
      description: "The caller gives up while it runs",
      retry: { attempts: 5, delayMs: 1 },
      execute: async () => {
        count += 1;
        // The caller aborts while the body is awaiting.
        setTimeout(() => controller.abort(), 1);
        await sleep(10);
        throw new Error("interrupted");
      },
    });
    const result = await new Toolkit([aborts]).execute("aborts", {}, { signal: controller.signal });
    expect(result.metadata?.error).toBe("aborted");
    expect(count).toBe(1);
  });

  it("never retries denied or forbidden calls (they never reach the tool)", async () => {
    const { tool: gated, attempts: gatedAttempts } = flaky(10, { retry: { attempts: 5, delayMs: 1 } });
    const denied = await new Toolkit([{ ...gated, needsApproval: true }], { approve: () => false }).execute(
      "flaky",
      {},
    );
    expect(denied.metadata).toMatchObject({ error: "denied" });
    expect(denied.metadata?.attempts).toBeUndefined();
    const forbidden = await new Toolkit([{ ...gated, authorize: () => false }]).execute("flaky", {});
    expect(forbidden.metadata).toMatchObject({ error: "forbidden" });
    expect(gatedAttempts.count).toBe(0);
  });

  it("does not retry a tool's own error result (only failures toolnexus classified execution_failed)", async () => {
    let count = 0;
    const reports = defineTool({
      name: "reports",
      description: "Returns an error result",
      retry: { attempts: 3, delayMs: 1 },
      execute: () => {
        count += 1;
        return { output: "no such city", isError: true };
      },
    });
    expect(await new Toolkit([reports]).execute("reports", {})).toEqual({ output: "no such city", isError: true });
    expect(count).toBe(1);
  });

  it("keeps every attempt within the call's one deadline: no retry starts once what is left would not cover the wait", async () => {
    // Each attempt fails at once; the waits (30, 60, ...) soon outgrow a 50 ms deadline.
    const { tool, attempts } = flaky(100, { retry: { attempts: 20, delayMs: 30 }, timeout: 50 });
    const result = await new Toolkit([tool]).execute("flaky", {});
    expect(result.metadata?.error).toBe("execution_failed");
    expect(attempts.count).toBeLessThan(20);
    expect(result.metadata?.attempts).toBe(attempts.count);
  });

  it("gives a later attempt only what is left of the deadline: a slow attempt ends as a timeout, not a fresh full one", async () => {
    // Every attempt takes 20 ms and fails; with a 50 ms deadline at most 3 attempts can start.
    let count = 0;
    const slow = defineTool({
      name: "slow",
      description: "Fails slowly",
      retry: { attempts: 10, delayMs: 1 },
      execute: async () => {
        count += 1;
        await sleep(20);
        throw new Error("slow failure");
      },
    });
    const result = await new Toolkit([slow]).execute("slow", {}, { timeout: 50 });
    expect(["execution_failed", "timeout"]).toContain(result.metadata?.error);
    expect(count).toBeLessThanOrEqual(3);
    expect(result.metadata?.attempts).toBe(count);
  });

  it("the toolkit's timeout is the deadline when neither the call nor the tool sets one", async () => {
    const { tool, attempts } = flaky(100, { retry: { attempts: 20, delayMs: 30 } });
    await new Toolkit([tool], { timeout: 50 }).execute("flaky", {});
    expect(attempts.count).toBeLessThan(20);
  });

  it("with no deadline at all, every attempt runs", async () => {
    const { tool, attempts } = flaky(100, { retry: { attempts: 4, delayMs: 1 } });
    expect((await new Toolkit([tool]).execute("flaky", {}, { timeout: false })).metadata?.attempts).toBe(4);
    expect(attempts.count).toBe(4);
  });

  it("stops waiting for the next attempt when the call is aborted", async () => {
    const controller = new AbortController();
    let count = 0;
    const failing = defineTool({
      name: "failing",
      description: "Fails",
      retry: { attempts: 5, delayMs: 40 },
      execute: () => {
        count += 1;
        setTimeout(() => controller.abort(), 5);
        throw new Error("failed");
      },
    });
    const result = await new Toolkit([failing]).execute("failing", {}, { signal: controller.signal });
    expect(result.isError).toBe(true);
    expect(count).toBe(1);
  });

  it("tells onError once per call, about the final result", async () => {
    const failures: ToolFailure[] = [];
    const { tool } = flaky(10, { retry: { attempts: 3, delayMs: 1 } });
    await new Toolkit([tool], { onError: (failure) => void failures.push(failure) }).execute("flaky", {});
    expect(failures).toHaveLength(1);
    expect(failures[0]!.result.metadata).toMatchObject({ error: "execution_failed", attempts: 3 });
    // What the last attempt threw, with its stack, for the log.
    expect(failures[0]!.error).toBeInstanceOf(Error);
  });

  it("works for @Tool({ retry }) methods", async () => {
    let count = 0;
    class Remote {
      @Tool({ description: "Calls a flaky service", retry: { attempts: 2, delayMs: 1 } })
      fetchQuote() {
        count += 1;
        if (count === 1) throw new Error("503");
        return "quote";
      }
    }
    const kit = new Toolkit([new Remote()]);
    expect(await kit.execute("fetchQuote", {})).toEqual({ output: "quote", isError: false, metadata: { attempts: 2 } });
    expect(kit.get("fetchQuote")!.retry).toEqual({ attempts: 2, delayMs: 1 });
  });
});

describe.each(providerRows)("retries through %s", (_id, provider) => {
  it("answers a flaky call with its eventual success", async () => {
    const { tool, attempts } = flaky(1, { retry: { attempts: 2, delayMs: 1 } });
    const answers = provider.answers(await provider.run(new Toolkit([tool]), [{ id: "r1", name: "flaky", args: {} }]));
    expect(answers).toEqual([{ id: "r1", isError: false, text: "ok after 2" }]);
    expect(attempts.count).toBe(2);
  });
});

describe("retries over MCP (official SDK client)", () => {
  it("answers a flaky call with its eventual success", async () => {
    const { tool, attempts } = flaky(2, { retry: { attempts: 3, delayMs: 1 } });
    const { client, close } = await connectMcp(new Toolkit([tool]));
    try {
      const result = await client.callTool({ name: "flaky", arguments: {} });
      expect(result.isError).toBe(false);
      expect(mcpText(result)).toBe("ok after 3");
      expect(attempts.count).toBe(3);
    } finally {
      await close();
    }
  });
});

describe("retry options are checked where they are written", () => {
  const bad: unknown[] = [
    0,
    -1,
    1.5,
    "3",
    null,
    { attempts: 0 },
    { attempts: 2, delayMs: -1 },
    { attempts: 2, maxDelayMs: Number.NaN },
    { attempts: 2, delayMs: "10" },
    {},
  ];

  it.each(bad.map((value) => [JSON.stringify(value) ?? String(value), value]))(
    "defineTool refuses retry %s with a ToolDefinitionError naming the tool",
    (_shown, value) => {
      const define = () =>
        defineTool({ name: "retrying", description: "Retries", retry: value as RetryOption, execute: () => "" });
      expect(define).toThrow(ToolDefinitionError);
      expect(define).toThrow(/"retrying".*retry/);
    },
  );

  it("@Tool refuses a bad retry with a ScanError naming the tool", () => {
    class Bad {
      @Tool({ description: "Retries", retry: { attempts: -2 } })
      retryingMethod() {
        return "";
      }
    }
    const error = scanErrorThrownBy(() => scanTools(new Bad()));
    expect(error.message).toMatch(/retryingMethod/);
    expect(error.message).toMatch(/retry/);
  });

  it("accepts the documented forms", () => {
    for (const retry of [1, 3, false, { attempts: 2 }, { attempts: 3, delayMs: 0, maxDelayMs: 10 }] as RetryOption[]) {
      expect(() => defineTool({ name: "retrying", description: "Retries", retry, execute: () => "" })).not.toThrow();
    }
  });
});
