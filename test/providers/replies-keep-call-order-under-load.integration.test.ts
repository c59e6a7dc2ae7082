/**
 * A turn's reply pairs every call with its own result, in call order, while two CPU-bound
 * processes compete with this one for the machine: replies are placed by the call's position,
 * never by when its result came. One message of 1,000 calls mixes tools that answer at once,
 * wait on timers, keep the process busy, throw, reject, hang past a small deadline and overrun
 * one, with arguments that are not JSON or of the wrong type, names no tool has, and ids that
 * repeat; each result names its call (the tools echo their argument), so a result given to
 * another call is seen. Nothing here is timed: only which text answers which call.
 */
import { spawn, type ChildProcess } from "node:child_process";
import { once } from "node:events";
import fc from "fast-check";
import { Ctx, Param, Tool, Toolkit, defineTool, type JSONSchemaObject, type ToolContext } from "../../src";

const CALLS = 1_000;
const BATCHES = 3;
const HANG_DEADLINE_MS = 5;
const OVERRUN_DEADLINE_MS = 1;

/** Keeps this process busy for `ms` without yielding, as a CPU-bound tool does. */
function busy(ms: number): void {
  const until = performance.now() + ms;
  while (performance.now() < until) {
    // spinning on purpose
  }
}

const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));
type Tagged = { tag: string; delay?: number };
const tagged: JSONSchemaObject = {
  type: "object",
  properties: { tag: { type: "string" }, delay: { type: "number" } },
  required: ["tag"],
  additionalProperties: false,
};

class Recall {
  @Tool("Answers with its tag and the id of the call it answers, after a while")
  async recall(@Param("tag") tag: string, @Ctx() ctx: ToolContext) {
    await sleep(tag.length % 7);
    return `${tag} for ${ctx.callId}`;
  }
}

const toolkit = new Toolkit([
  new Recall(),
  defineTool<Tagged>({
    name: "echo",
    description: "Echoes its tag",
    inputSchema: tagged,
    validate: true,
    execute: ({ tag }) => `echo ${tag}`,
  }),
  defineTool<Tagged>({
    name: "wait",
    description: "Echoes its tag after a delay",
    inputSchema: tagged,
    validate: true,
    execute: async ({ tag, delay }) => (await sleep(delay ?? 0), `waited ${tag}`),
  }),
  defineTool<Tagged>({
    name: "crunch",
    description: "Echoes its tag after a millisecond of work",
    inputSchema: tagged,
    validate: true,
    execute: ({ tag }) => (busy(1), `crunched ${tag}`),
  }),
  defineTool<Tagged>({
    name: "fail",
    description: "Throws with its tag",
    inputSchema: tagged,
    validate: true,
    execute: ({ tag }) => {
      throw new Error(`failed ${tag}`);
    },
  }),
  defineTool<Tagged>({
    name: "reject",
    description: "Rejects with its tag after a delay",
    inputSchema: tagged,
    validate: true,
    execute: async ({ tag, delay }) => {
      await sleep(delay ?? 0);
      throw new Error(`rejected ${tag}`);
    },
  }),
  defineTool<Tagged>({
    name: "hang",
    description: "Never answers",
    timeout: HANG_DEADLINE_MS,
    inputSchema: tagged,
    validate: true,
    execute: () => new Promise<never>(() => undefined),
  }),
  defineTool<Tagged>({
    name: "overrun",
    description: "Works past its deadline",
    timeout: OVERRUN_DEADLINE_MS,
    inputSchema: tagged,
    validate: true,
    execute: () => (busy(4), "too late"),
  }),
]);

type Kind =
  | "echo"
  | "wait"
  | "crunch"
  | "recall"
  | "fail"
  | "reject"
  | "hang"
  | "overrun"
  | "unparsable"
  | "mistyped"
  | "unknown";
const KINDS: Kind[] = [
  "echo",
  "wait",
  "crunch",
  "recall",
  "fail",
  "reject",
  "hang",
  "overrun",
  "unparsable",
  "mistyped",
  "unknown",
];

interface PlannedCall {
  id: string;
  name: string;
  arguments: string;
  /** The whole reply text this call must get, or a pattern of it. */
  expected: string | RegExp;
}

/** What `JSON.parse` says about `text`, as the reply words it. */
function notJson(text: string): string {
  try {
    JSON.parse(text);
  } catch (error) {
    return `Error: Invalid arguments for tool "echo": arguments are not valid JSON (${(error as Error).message}); send one JSON object`;
  }
  throw new Error(`${text} is JSON`);
}

/** The calls of one turn (seeded). Every tenth call repeats the id of the call before it, as a model may. */
function plan(seed: number): PlannedCall[] {
  const [draws] = fc.sample(
    fc.array(fc.record({ kind: fc.constantFrom(...KINDS), delay: fc.integer({ min: 0, max: 20 }) }), {
      minLength: CALLS,
      maxLength: CALLS,
    }),
    {
      seed,
      numRuns: 1,
    },
  );
  const calls: PlannedCall[] = [];
  draws!.forEach(({ kind, delay }, i) => {
    const tag = `b${seed}-c${i}`;
    const id = i % 10 === 9 ? calls[i - 1]!.id : `call_${seed}_${i}`;
    const args = JSON.stringify({ tag, delay });
    switch (kind) {
      case "unparsable": {
        // The position JSON.parse reports moves with the padding: the text tells calls apart.
        const text = `{"tag": "${tag}",${" ".repeat(i % 13)}}`;
        calls.push({ id, name: "echo", arguments: text, expected: notJson(text) });
        return;
      }
      case "mistyped":
        calls.push({
          id,
          name: "echo",
          arguments: JSON.stringify({ tag: i }),
          expected: `Error: Invalid arguments for tool "echo": "tag" must be string, got number ${i}`,
        });
        return;
      case "unknown":
        calls.push({
          id,
          name: `missing_${i}`,
          arguments: args,
          expected: new RegExp(`^Error: Unknown tool "missing_${i}"\\. `),
        });
        return;
      case "echo":
        calls.push({ id, name: kind, arguments: args, expected: `echo ${tag}` });
        return;
      case "wait":
        calls.push({ id, name: kind, arguments: args, expected: `waited ${tag}` });
        return;
      case "crunch":
        calls.push({ id, name: kind, arguments: JSON.stringify({ tag }), expected: `crunched ${tag}` });
        return;
      case "recall":
        calls.push({ id, name: kind, arguments: JSON.stringify({ tag }), expected: `${tag} for ${id}` });
        return;
      case "fail":
        calls.push({ id, name: kind, arguments: JSON.stringify({ tag }), expected: `Error: failed ${tag}` });
        return;
      case "reject":
        calls.push({ id, name: kind, arguments: args, expected: `Error: rejected ${tag}` });
        return;
      case "hang":
        calls.push({
          id,
          name: kind,
          arguments: args,
          expected: `Error: Tool "hang" timed out after ${HANG_DEADLINE_MS} ms`,
        });
        return;
      case "overrun":
        calls.push({
          id,
          name: kind,
          arguments: args,
          expected: new RegExp(
            `^Error: Tool "overrun" timed out after ${OVERRUN_DEADLINE_MS} ms \\(it took \\d+ ms and kept the process busy, so it could not be stopped sooner\\)$`,
          ),
        });
    }
  });
  return calls;
}

/** Each reply's call id and text beside what its call must get, for the calls whose reply is wrong. */
function mismatches(calls: PlannedCall[], replies: Array<{ tool_call_id?: string; content?: unknown }>): string[] {
  return calls.flatMap((call, i) => {
    const reply = replies[i];
    const text = typeof reply?.content === "string" ? reply.content : undefined;
    const matches =
      text !== undefined && (typeof call.expected === "string" ? text === call.expected : call.expected.test(text));
    return reply?.tool_call_id === call.id && matches
      ? []
      : [
          `#${i} ${call.id} (${call.name}): got ${reply?.tool_call_id} ${JSON.stringify(text)}, expected ${String(call.expected)}`,
        ];
  });
}

/**
 * Two processes that keep a core each busy. Each also ends by itself after a few minutes, so
 * that none outlives a test run that is killed before `afterAll` can end it.
 */
const HOG = "for (const end = Date.now() + 300000; Date.now() < end; );";
const hogs: ChildProcess[] = [];

beforeAll(async () => {
  for (let i = 0; i < 2; i++) hogs.push(spawn(process.execPath, ["-e", HOG], { stdio: "ignore" }));
  await Promise.all(hogs.map((hog) => once(hog, "spawn")));
});

afterAll(() => {
  for (const hog of hogs) hog.kill("SIGKILL");
});

describe("runOpenAI with two CPU-bound processes beside it", () => {
  it(
    "answers each of 1,000 mixed calls with its own result, in call order, batch after batch",
    async () => {
      expect(hogs.map((hog) => hog.exitCode)).toEqual([null, null]);
      const controller = new AbortController();
      for (let seed = 1; seed <= BATCHES; seed++) {
        const calls = plan(seed);
        const message = {
          role: "assistant" as const,
          tool_calls: calls.map((call) => ({
            id: call.id,
            type: "function",
            function: { name: call.name, arguments: call.arguments },
          })),
        };
        // A signal shared by the whole batch: every call waits on it through one listener.
        const replies = await toolkit.runOpenAI(message, { signal: controller.signal });
        expect(replies).toHaveLength(CALLS);
        expect(mismatches(calls, replies)).toEqual([]);
      }
    },
    // Three batches on a machine this test itself keeps busy; the test asserts no time.
    180_000,
  );

  it("gives a repeated id to each call that carries it, each with the call's own result", async () => {
    const calls = plan(BATCHES + 1).filter((_, i) => i % 10 === 8 || i % 10 === 9);
    const message = {
      role: "assistant" as const,
      tool_calls: calls.map((call) => ({
        id: call.id,
        type: "function",
        function: { name: call.name, arguments: call.arguments },
      })),
    };
    const replies = await toolkit.runOpenAI(message);
    expect(replies.map((reply) => (reply as { tool_call_id: string }).tool_call_id)).toEqual(
      calls.map((call) => call.id),
    );
    expect(new Set(calls.map((call) => call.id)).size).toBe(calls.length / 2);
    expect(mismatches(calls, replies)).toEqual([]);
  });
});
