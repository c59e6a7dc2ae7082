/**
 * Whatever a caller hands `execute` (the name, the arguments, the ctx, the options), the call
 * resolves to a ToolResult: it never throws and never rejects, with or without the seams,
 * failure reporting or tracing. A name that is not a string names no tool.
 */
import { trace } from "@opentelemetry/api";
import { BasicTracerProvider, InMemorySpanExporter, SimpleSpanProcessor } from "@opentelemetry/sdk-trace-base";
import fc from "fast-check";
import { defineTool, Toolkit, type ToolContext, type ToolFailure, type ToolResult } from "../../src";
import { anyValue, hostileValues } from "./hostile-values";
import { pendingOf, PROVIDERS, type ModelCall } from "./support";

const exporter = new InMemorySpanExporter();
const provider = new BasicTracerProvider({ spanProcessors: [new SimpleSpanProcessor(exporter)] });
beforeAll(() => trace.setGlobalTracerProvider(provider));
afterAll(async () => {
  await provider.shutdown();
  trace.disable();
});

const failures: ToolFailure[] = [];
const tools = () => [
  defineTool({ name: "echo", description: "Echoes", execute: (args) => JSON.stringify(args) }),
  defineTool({
    name: "gated",
    description: "Needs approval",
    needsApproval: async () => true,
    authorize: async () => true,
    execute: () => "gated ran",
  }),
];
const toolkits: Array<[string, Toolkit]> = [
  ["a toolkit with no seams", new Toolkit(tools(), { tracing: false })],
  [
    "a toolkit with every seam",
    new Toolkit(tools(), {
      tracing: false,
      visible: () => true,
      authorize: async () => true,
      approve: async () => true,
    }).use(async (_call, next) => next()),
  ],
  [
    "a toolkit that reports failures",
    new Toolkit(tools(), { tracing: false, onError: (failure) => void failures.push(failure), errorText: "errorId" }),
  ],
  [
    "a traced toolkit",
    new Toolkit(tools(), { onError: (failure) => void failures.push(failure), approve: () => true }),
  ],
];

const RUNS = { numRuns: 150 };
const anyName = fc.oneof(anyValue, fc.constantFrom("echo", "gated"));

/** Runs `call` and gives its outcome: a synchronous throw or a rejection fails the test. */
async function settled(call: () => Promise<unknown>): Promise<unknown> {
  let pending: Promise<unknown>;
  try {
    pending = call();
  } catch (thrown) {
    throw new Error(`it threw: ${String(thrown)}`);
  }
  return pending.then(undefined, (thrown: unknown) => {
    throw new Error(`it rejected: ${String(thrown)}`);
  });
}

function expectResult(value: unknown): asserts value is ToolResult {
  expect(value).toEqual(expect.objectContaining({ output: expect.any(String), isError: expect.any(Boolean) }));
}

describe.each(toolkits)("%s", (_label, toolkit) => {
  beforeEach(() => (failures.length = 0));

  it.each(hostileValues())(
    "answers a call whose name is %s with an unknown_tool result saying a name is a string",
    async (_what, name) => {
      const result = await settled(() => toolkit.execute(name as string, {}));
      expectResult(result);
      expect(result).toMatchObject({ isError: true, metadata: { error: "unknown_tool", tool: "" } });
      expect(result.output).toMatch(
        /^A tool call has no usable name \(got [^)]+\); call one of the declared tools by its name\. Available tools: echo, gated\.$/,
      );
    },
  );

  it("answers any name that is not one of its tools' with an unknown_tool result", async () => {
    await fc.assert(
      fc.asyncProperty(anyValue, async (name) => {
        fc.pre(name !== "echo" && name !== "gated");
        const result = await settled(() => toolkit.execute(name as string, {}));
        expectResult(result);
        expect(result.metadata?.error).toBe("unknown_tool");
      }),
      RUNS,
    );
  });

  it("resolves to a result whatever the name, arguments, ctx and options are", async () => {
    await fc.assert(
      fc.asyncProperty(anyName, anyValue, anyValue, anyValue, async (name, args, ctx, options) => {
        expectResult(await settled(() => toolkit.execute(name as string, args, ctx as ToolContext, options as never)));
      }),
      RUNS,
    );
  });

  it.each(hostileValues())(
    "resolves to a result when %s is the arguments, the ctx or the options of a call to any tool",
    async (_what, value) => {
      for (const name of ["echo", "gated", "nope"]) {
        expectResult(await settled(() => toolkit.execute(name, value)));
        expectResult(await settled(() => toolkit.execute(name, {}, value as ToolContext)));
        expectResult(await settled(() => toolkit.execute(name, {}, {}, value as never)));
        expect(typeof (await settled(() => toolkit.needsApproval(name, value, value as ToolContext)))).toBe("boolean");
      }
    },
  );

  it("tells onError a string tool name, whatever the call's name was", async () => {
    await fc.assert(
      fc.asyncProperty(anyName, anyValue, async (name, ctx) => {
        await settled(() => toolkit.execute(name as string, "[not an object]", ctx as ToolContext));
      }),
      RUNS,
    );
    for (const failure of failures) expect(typeof failure.tool).toBe("string");
  });

  it("answers needsApproval with a boolean whatever the name, arguments and ctx are", async () => {
    await fc.assert(
      fc.asyncProperty(anyName, anyValue, anyValue, async (name, args, ctx) => {
        expect(typeof (await settled(() => toolkit.needsApproval(name as string, args, ctx as ToolContext)))).toBe(
          "boolean",
        );
      }),
      RUNS,
    );
  });

  it.each(PROVIDERS.map((each) => [each.id, each] as const))(
    "answers every %s call, whatever its name, and whatever the ctx is",
    async (_id, each) => {
      await fc.assert(
        fc.asyncProperty(fc.array(anyName, { minLength: 1, maxLength: 3 }), anyValue, async (names, ctx) => {
          const calls = names.map((name, index): ModelCall => ({ id: `c${index}`, name: name as string, args: {} }));
          const reply = await settled(() => each.run(toolkit, calls, ctx as ToolContext));
          const answered = reply === undefined ? 0 : each.answers(reply).length;
          expect(answered + (pendingOf(reply)?.approvals.length ?? 0)).toBe(calls.length);
        }),
        { numRuns: 40 },
      );
    },
  );
});
