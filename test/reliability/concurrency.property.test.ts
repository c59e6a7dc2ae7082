/**
 * Concurrency: 1,000 concurrent calls with random delays and random failures
 * (sync throws, rejections, invalid arguments, timeouts, hand-made error results). Every
 * result matches its call id and sits in call order; none is lost or duplicated; every body
 * that should run ran exactly once. Real timers with short delays; a seeded plan, so every
 * run schedules the same calls.
 */
import fc from "fast-check";
import { Ctx, Param, Tool, Toolkit, type ToolContext, type ToolResult } from "../../src";

const CALLS = 1_000;

type Fate = "ok" | "throw" | "reject" | "error-result" | "invalid" | "timeout";
interface PlannedCall {
  id: string;
  delay: number;
  fate: Fate;
}

/** How many times each call id entered the tool body. */
const entered = new Map<string, number>();

/** Waits `ms`, or less when `signal` aborts (a well-behaved tool stops at its deadline). */
function sleep(ms: number, signal: AbortSignal | undefined): Promise<void> {
  return new Promise((resolve) => {
    const timer = setTimeout(resolve, ms);
    signal?.addEventListener(
      "abort",
      () => {
        clearTimeout(timer);
        resolve();
      },
      { once: true },
    );
  });
}

class Worker {
  @Tool("Does a unit of work after a delay, or fails the way it is told to")
  async work(
    @Param("id") id: string,
    @Param("delay", { minimum: 0 }) delay: number,
    @Param("fate") fate: string,
    @Ctx() ctx: ToolContext,
  ) {
    entered.set(id, (entered.get(id) ?? 0) + 1);
    if (fate === "throw") throw new Error(`thrown by ${id}`);
    await sleep(fate === "timeout" ? 60_000 : delay, ctx.signal);
    if (ctx.signal?.aborted) return `late ${id}`; // never seen: the call already ended
    if (fate === "reject") return Promise.reject(new Error(`rejected by ${id}`));
    if (fate === "error-result") return { output: `declined by ${id}`, isError: true } satisfies ToolResult;
    return `done ${id} for ${ctx.callId}`;
  }
}

const fateArb = fc.constantFrom<Fate>("ok", "ok", "ok", "ok", "throw", "reject", "error-result", "invalid", "timeout");

/** The same 1,000 calls every run (seeded). Ids are unique; call order differs from completion order. */
function plan(seed: number): PlannedCall[] {
  const [calls] = fc.sample(
    fc.array(fc.record({ delay: fc.integer({ min: 0, max: 25 }), fate: fateArb }), {
      minLength: CALLS,
      maxLength: CALLS,
    }),
    { seed, numRuns: 1 },
  );
  return calls!.map((call, i) => ({ id: `call_${seed}_${i}`, ...call }));
}

function argumentsOf(call: PlannedCall): Record<string, unknown> {
  return call.fate === "invalid"
    ? { id: call.id, delay: "soon", fate: "ok" }
    : { id: call.id, delay: call.delay, fate: call.fate };
}

/** What the result text of `call` must be (OpenAI adds "Error: " to failures). */
function expectedOutput(call: PlannedCall): RegExp {
  switch (call.fate) {
    case "ok":
      return new RegExp(`^done ${call.id} for ${call.id}$`);
    case "throw":
      return new RegExp(`^thrown by ${call.id}$`);
    case "reject":
      return new RegExp(`^rejected by ${call.id}$`);
    case "error-result":
      return new RegExp(`^declined by ${call.id}$`);
    case "invalid":
      return /^Invalid arguments for tool "work": "delay" must be number, got string "soon"$/;
    case "timeout":
      return new RegExp(`^Tool "work" timed out after ${DEADLINE_MS} ms$`);
  }
}

const toolkit = new Toolkit([new Worker()]);
/**
 * Far above the longest delay (25 ms). Not a performance bound: when 1,000 calls start in one
 * synchronous stretch on a busy machine, Node may run an expired deadline before an expired
 * body timer of another duration, so a short deadline could end calls that were on time.
 */
const DEADLINE_MS = 5_000;
const CALL_TIMEOUT = { timeout: DEADLINE_MS };

beforeEach(() => entered.clear());

function expectEachBodyRanOnce(calls: PlannedCall[]): void {
  const shouldRun = calls.filter((c) => c.fate !== "invalid").map((c) => c.id);
  expect([...entered.keys()].sort()).toEqual(shouldRun.sort());
  expect([...entered.values()].every((n) => n === 1)).toBe(true);
}

describe("concurrency: 1,000 concurrent calls, random delays and failures", () => {
  it("Toolkit.execute: each result belongs to its call", async () => {
    const calls = plan(1);
    const results = await Promise.all(
      calls.map((call) => toolkit.execute("work", argumentsOf(call), { ...CALL_TIMEOUT, callId: call.id })),
    );
    expect(results).toHaveLength(CALLS);
    results.forEach((result, i) => {
      const call = calls[i]!;
      expect(result.output).toMatch(expectedOutput(call));
      expect(result.isError).toBe(call.fate !== "ok");
    });
    expectEachBodyRanOnce(calls);
  });

  it("runOpenAI: one message of 1,000 calls answers each tool_call_id once, in call order", async () => {
    const calls = plan(2);
    const message = {
      role: "assistant" as const,
      tool_calls: calls.map((call) => ({
        id: call.id,
        type: "function",
        function: { name: "work", arguments: JSON.stringify(argumentsOf(call)) },
      })),
    };
    const answers = (await toolkit.runOpenAI(message, CALL_TIMEOUT)).filter((answer) => answer.role === "tool");
    expect(answers.map((a) => a.tool_call_id)).toEqual(calls.map((c) => c.id));
    answers.forEach((answer, i) => {
      const call = calls[i]!;
      const text = call.fate === "ok" ? answer.content : answer.content.replace(/^Error: /, "");
      expect(text).toMatch(expectedOutput(call));
      expect(answer.content.startsWith("Error: ")).toBe(call.fate !== "ok");
    });
    expectEachBodyRanOnce(calls);
  });

  it("runAnthropic, runGemini, runBedrock and runOpenAIResponses: same guarantees, all four at once", async () => {
    const calls = plan(3);
    const args = calls.map(argumentsOf);
    const [anthropic, gemini, bedrock, responses] = await Promise.all([
      toolkit.runAnthropic(
        calls.map((c, i) => ({
          type: "tool_use",
          id: `a_${c.id}`,
          name: "work",
          input: { ...args[i], id: `a_${c.id}` },
        })),
        CALL_TIMEOUT,
      ),
      toolkit.runGemini(
        calls.map((c, i) => ({
          functionCall: { id: `g_${c.id}`, name: "work", args: { ...args[i], id: `g_${c.id}` } },
        })),
        CALL_TIMEOUT,
      ),
      toolkit.runBedrock(
        calls.map((c, i) => ({
          toolUse: { toolUseId: `b_${c.id}`, name: "work", input: { ...args[i], id: `b_${c.id}` } },
        })),
        CALL_TIMEOUT,
      ),
      toolkit.runOpenAIResponses(
        calls.map((c, i) => ({
          type: "function_call",
          call_id: `r_${c.id}`,
          name: "work",
          arguments: JSON.stringify({ ...args[i], id: `r_${c.id}` }),
        })),
        CALL_TIMEOUT,
      ),
    ]);
    const withPrefix = (prefix: string, call: PlannedCall): PlannedCall => ({ ...call, id: `${prefix}_${call.id}` });
    if (anthropic === undefined || gemini === undefined || bedrock === undefined)
      throw new Error("a batch of calls got no reply to append");

    expect(anthropic.content.map((b) => b.tool_use_id)).toEqual(calls.map((c) => `a_${c.id}`));
    anthropic.content.forEach((block, i) => {
      expect(block.content).toMatch(expectedOutput(withPrefix("a", calls[i]!)));
      expect(block.is_error === true).toBe(calls[i]!.fate !== "ok");
    });
    expect(gemini.parts.map((p) => p.functionResponse.id)).toEqual(calls.map((c) => `g_${c.id}`));
    gemini.parts.forEach(({ functionResponse }, i) => {
      const text =
        "output" in functionResponse.response ? functionResponse.response.output : functionResponse.response.error;
      expect(text).toMatch(expectedOutput(withPrefix("g", calls[i]!)));
      expect("error" in functionResponse.response).toBe(calls[i]!.fate !== "ok");
    });
    expect(bedrock.content.map((b) => b.toolResult.toolUseId)).toEqual(calls.map((c) => `b_${c.id}`));
    bedrock.content.forEach(({ toolResult }, i) => {
      expect(toolResult.content[0]!.text).toMatch(expectedOutput(withPrefix("b", calls[i]!)));
      expect(toolResult.status).toBe(calls[i]!.fate === "ok" ? "success" : "error");
    });
    expect(responses.map((r) => r.call_id)).toEqual(calls.map((c) => `r_${c.id}`));
    responses.forEach((item, i) => {
      const call = withPrefix("r", calls[i]!);
      const output = String(item.output);
      expect(call.fate === "ok" ? output : output.replace(/^Error: /, "")).toMatch(expectedOutput(call));
    });

    const all = ["a", "g", "b", "r"].flatMap((prefix) => calls.map((c) => withPrefix(prefix, c)));
    expectEachBodyRanOnce(all);
  });
});
