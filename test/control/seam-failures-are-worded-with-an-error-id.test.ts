/**
 * When one of the host's own steps fails (its `approve`, an `authorize`, a middleware, the
 * executor, a `visible`), the model is told a fixed sentence with the failure's `errorId`,
 * never what was thrown (it may hold anything the host knows); `onError` gets the thrown value
 * with the same id. Spans follow the toolkit's `errorText`: with `"errorId"`, no thrown text
 * reaches one.
 */
import * as otel from "@opentelemetry/api";
import { trace } from "@opentelemetry/api";
import {
  BasicTracerProvider,
  InMemorySpanExporter,
  SimpleSpanProcessor,
  type ReadableSpan,
} from "@opentelemetry/sdk-trace-base";
import {
  defineTool,
  Toolkit,
  type ToolExecutor,
  type ToolFailure,
  type ToolkitOptions,
  type ToolResult,
} from "../../src";
import { callTracer } from "../../src/control/tracing";

const SECRET = "db password hunter2";
const thrown = new Error(`connection refused: ${SECRET}`);
const throwing = () => {
  throw thrown;
};
const rejecting = () => Promise.reject(thrown);
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

const refund = () => defineTool({ name: "refund", description: "Refunds a payment", execute: () => "refunded" });
const gated = () =>
  defineTool({ name: "refund", description: "Refunds a payment", needsApproval: true, execute: () => "refunded" });

interface SeamCase {
  seam: string;
  kind: ToolResult["metadata"] extends infer M ? (M extends { error?: infer K } ? K : string) : string;
  text: (errorId: string) => string;
  toolkit: (options: ToolkitOptions) => Toolkit;
}

const seams: SeamCase[] = [
  ...[throwing, rejecting].map((fails): SeamCase => ({
    seam: `approve (${fails === throwing ? "throws" : "rejects"})`,
    kind: "denied",
    text: (id) =>
      `The call to tool "refund" did not run: its approval step failed (error id ${id}). Tell the user it needs their approval.`,
    toolkit: (options) => new Toolkit([gated()], { ...options, approve: fails }),
  })),
  {
    seam: "the toolkit's authorize",
    kind: "forbidden",
    text: (id) =>
      `The call to tool "refund" is not allowed for this user: the permission check failed (error id ${id}). Do not retry it; tell the user.`,
    toolkit: (options) => new Toolkit([refund()], { ...options, authorize: rejecting }),
  },
  {
    seam: "the tool's authorize",
    kind: "forbidden",
    text: (id) =>
      `The call to tool "refund" is not allowed for this user: the permission check failed (error id ${id}). Do not retry it; tell the user.`,
    toolkit: (options) => new Toolkit([{ ...refund(), authorize: throwing }], options),
  },
  ...[throwing, rejecting].map((fails): SeamCase => ({
    seam: `a middleware (${fails === throwing ? "throws" : "rejects"})`,
    kind: "execution_failed",
    text: (id) =>
      `Tool "refund" failed in a middleware (error id ${id}). Try another approach, or tell the user the tool is failing.`,
    toolkit: (options) => new Toolkit([refund()], options).use(fails),
  })),
  {
    seam: "a middleware (after next)",
    kind: "execution_failed",
    text: (id) =>
      `Tool "refund" failed in a middleware (error id ${id}). Try another approach, or tell the user the tool is failing.`,
    toolkit: (options) =>
      new Toolkit([refund()], options).use(async (_call, next) => {
        await next();
        throw thrown;
      }),
  },
  ...[throwing, rejecting].map((fails): SeamCase => ({
    seam: `the executor (${fails === throwing ? "throws" : "rejects"})`,
    kind: "execution_failed",
    text: (id) =>
      `Tool "refund" could not run: the toolkit's executor failed (error id ${id}). Try again later, or tell the user the tool is failing.`,
    toolkit: (options) => new Toolkit([refund()], { ...options, executor: { run: fails } as ToolExecutor }),
  })),
];

describe.each(seams)("a failure of $seam", ({ kind, text, toolkit }) => {
  it("tells the model a fixed sentence with the failure's errorId, never what was thrown, with no onError or errorText set", async () => {
    const result = await toolkit({}).execute("refund", {});
    expect(result).toMatchObject({
      isError: true,
      metadata: { error: kind, tool: "refund", errorId: expect.stringMatching(UUID) },
    });
    expect(result.output).toBe(text(result.metadata!.errorId as string));
    expect(result.output).not.toContain(SECRET);
  });

  it("tells onError what was thrown, under the errorId the model was told", async () => {
    const failures: ToolFailure[] = [];
    const result = await toolkit({ onError: (failure) => void failures.push(failure) }).execute("refund", {});
    expect(failures).toHaveLength(1);
    expect(failures[0]).toMatchObject({ tool: "refund", kind, error: thrown, errorId: result.metadata?.errorId });
    expect(result.output).toContain(`(error id ${String(result.metadata?.errorId)})`);
    expect(result.output).not.toContain(SECRET);
  });
});

describe("an executor that gives no ToolResult", () => {
  it("is a fixed sentence with an errorId, and onError is told what it gave", async () => {
    const failures: ToolFailure[] = [];
    const kit = new Toolkit([refund()], {
      executor: { run: async () => SECRET as never },
      onError: (failure) => void failures.push(failure),
    });
    const result = await kit.execute("refund", {});
    expect(result.output).toBe(
      `Tool "refund" could not run: the toolkit's executor gave no ToolResult (error id ${String(result.metadata?.errorId)}). Tell the user the tool is failing.`,
    );
    expect(failures[0]!.error).toEqual(new TypeError("The toolkit's executor gave no ToolResult (got a string)."));
    expect(failures[0]!.errorId).toBe(result.metadata?.errorId);
  });
});

describe("an approve that answers no decision", () => {
  it("says so with an errorId, and onError is told", async () => {
    const failures: ToolFailure[] = [];
    const kit = new Toolkit([gated()], {
      approve: () => SECRET as never,
      onError: (failure) => void failures.push(failure),
    });
    const result = await kit.execute("refund", {});
    expect(result.output).toBe(
      `The call to tool "refund" did not run: its approval step answered neither true, false nor { approved } (error id ${String(result.metadata?.errorId)}). Tell the user it needs their approval.`,
    );
    expect(failures[0]).toMatchObject({ kind: "denied", errorId: result.metadata?.errorId });
  });
});

describe("a visible that throws", () => {
  it("hides the tool: the call is answered exactly as for a tool that does not exist, and onError gets what it threw", async () => {
    const failures: ToolFailure[] = [];
    const plain = await new Toolkit([refund()], { visible: () => false }).execute("refund", {});
    for (const kit of [
      new Toolkit([refund()], { visible: throwing }),
      new Toolkit([{ ...refund(), visible: throwing }]),
    ]) {
      expect(await kit.execute("refund", {})).toEqual(plain);
    }
    const observed = new Toolkit([refund()], {
      visible: throwing,
      onError: (failure) => void failures.push(failure),
      errorText: "errorId",
    });
    const result = await observed.execute("refund", {});
    expect(result.output).toBe(plain.output);
    expect(failures).toEqual([
      expect.objectContaining({ kind: "unknown_tool", error: thrown, errorId: result.metadata?.errorId }),
    ]);
  });
});

describe("spans", () => {
  const exporter = new InMemorySpanExporter();
  const provider = new BasicTracerProvider({ spanProcessors: [new SimpleSpanProcessor(exporter)] });
  beforeAll(() => trace.setGlobalTracerProvider(provider));
  afterAll(async () => {
    await provider.shutdown();
    trace.disable();
  });
  beforeEach(() => exporter.reset());

  /** Everything a span carries as text: its name, status, attributes and events. */
  const spanText = (span: ReadableSpan) =>
    JSON.stringify({ name: span.name, status: span.status, attributes: span.attributes, events: span.events });

  it("with errorText: \"errorId\", carry no thrown text, for a tool's throw or any seam's failure", async () => {
    const options: ToolkitOptions = { errorText: "errorId", tracing: { recordResults: true } };
    const body = new Toolkit([defineTool({ name: "refund", description: "Refunds", execute: throwing })], options);
    const results = [
      await body.execute("refund", {}),
      ...(await Promise.all(seams.map(({ toolkit }) => toolkit(options).execute("refund", {})))),
    ];
    const spans = exporter.getFinishedSpans().filter((span) => span.name.startsWith("execute_tool"));
    expect(spans).toHaveLength(results.length);
    for (const span of spans) {
      expect(span.status.message).toMatch(/\(error id [0-9a-f-]{36}\)/);
      expect(spanText(span)).not.toContain(SECRET);
    }
  });

  it("end without the thrown message when run itself throws or rejects and thrown text may not reach a span", async () => {
    const tracer = callTracer(undefined, () => otel, { thrownText: false })!;
    await expect(tracer({ tool: "refund", args: {} }, () => Promise.reject(thrown))).rejects.toBe(thrown);
    expect(() => tracer({ tool: "refund", args: {} }, throwing)).toThrow(thrown);
    const spans = exporter.getFinishedSpans();
    expect(spans).toHaveLength(2);
    for (const span of spans) {
      expect(span.status).toEqual({ code: otel.SpanStatusCode.ERROR });
      expect(spanText(span)).not.toContain(SECRET);
    }
  });

  it("carry the text the model was told as their status message", async () => {
    const failures: ToolFailure[] = [];
    const kit = new Toolkit([defineTool({ name: "refund", description: "Refunds", execute: throwing })], {
      errorText: ({ errorId }) => `Refund failed, reference ${errorId}.`,
      onError: (failure) => void failures.push(failure),
    });
    const result = await kit.execute("refund", {});
    const [span] = exporter.getFinishedSpans();
    expect(span!.status.message).toBe(result.output);
    expect(result.output).toBe(`Refund failed, reference ${failures[0]!.errorId}.`);
  });
});
