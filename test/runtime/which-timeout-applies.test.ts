import { defineTool, Toolkit } from "../../src";

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * Which deadline a call runs under: the call's own timeout, else the tool's, else the
 * toolkit's; and which values are deadlines at all (a tool's timeout beyond what a timer can
 * hold is refused when the tool is defined, a call's is no deadline, a call's that is not a
 * positive number keeps the call from running).
 */
describe("timeouts: the call's, then the tool's, then the toolkit's", () => {
  it("lets a tool's own longer timeout win over the toolkit's", async () => {
    const slow = defineTool({
      name: "slow",
      description: "d",
      timeout: 10_000,
      execute: async () => (await sleep(60), "done"),
    });
    const result = await new Toolkit([slow], { timeout: 20 }).execute("slow", {});
    expect(result).toEqual({ output: "done", isError: false });
  });

  it("lets a tool's own shorter timeout win over the toolkit's", async () => {
    const slow = defineTool({
      name: "slow",
      description: "d",
      timeout: 20,
      execute: async () => (await sleep(200), "done"),
    });
    const result = await new Toolkit([slow], { timeout: 10_000 }).execute("slow", {});
    expect(result.metadata?.error).toBe("timeout");
    expect(result.output).toBe('Tool "slow" timed out after 20 ms');
  });

  it("applies the toolkit's timeout to a tool without one", async () => {
    const slow = defineTool({ name: "slow", description: "d", execute: async () => (await sleep(200), "done") });
    const result = await new Toolkit([slow], { timeout: 20 }).execute("slow", {});
    expect(result.output).toBe('Tool "slow" timed out after 20 ms');
  });

  it("refuses a tool timeout beyond what a timer can hold", () => {
    expect(() => defineTool({ name: "t", description: "d", timeout: 3_000_000_000, execute: () => "x" })).toThrow(
      'Tool "t": timeout must be a positive number of milliseconds, at most 2147483647, or false for none (got 3000000000).',
    );
  });

  it("treats a call timeout beyond what a timer can hold as no deadline, and Infinity likewise", async () => {
    const fast = defineTool({ name: "fast", description: "d", execute: async () => (await sleep(20), "ok") });
    expect(await fast.execute({}, { timeout: 3_000_000_000 })).toEqual({ output: "ok", isError: false });
    expect(await fast.execute({}, { timeout: Number.POSITIVE_INFINITY })).toEqual({ output: "ok", isError: false });
  });

  it("does not run a call whose timeout is not a positive number, and says why", async () => {
    const body = jest.fn(() => "ran");
    const tool = defineTool({ name: "t", description: "d", execute: body });
    for (const timeout of [0, -1, Number.NaN]) {
      const result = await tool.execute({}, { timeout });
      expect(result.isError).toBe(true);
      expect(result.output).toBe(
        `Tool "t" was not run: the timeout must be a positive number of milliseconds or false (got ${String(timeout)}).`,
      );
    }
    expect(body).not.toHaveBeenCalled();
  });
});
