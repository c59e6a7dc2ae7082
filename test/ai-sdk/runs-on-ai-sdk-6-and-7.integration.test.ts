/**
 * The packed toolnexus/ai-sdk in two fresh projects, one on AI SDK 6 (the version this repository
 * is locked to) and one on the newest AI SDK 7, both run by Node 22 (AI SDK 7 needs it): in
 * each, a program with that major's own mock model and its own way of passing the call's context
 * (6: `experimental_context`, 7: `toolsContext`) goes through an approval round trip, and the
 * README's approval snippet compiles with that major's types (the project's own TypeScript) and
 * prints what the README says.
 */
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { delimiter, dirname, join } from "node:path";
import { ConsumerProject, type RunResult } from "../package/consumers/consumer-project";
import { npmUnder } from "../package/consumers/machine-npm";
import { lockedVersion, packageRoot, packInto } from "../package/consumers/package-under-test";
import { nodeBinary } from "../support/node-binaries";
import { patience } from "../support/time";

/** What differs between the majors in a program that uses them: each one's own names. */
interface AiSdkMajor {
  major: 6 | 7;
  /** The `ai` dependency of the project. */
  dependency: string;
  /** The mock language model `ai/test` has for that major's providers. */
  mockModel: string;
  /** The `generateText` option, as source, that hands the tools the session. */
  contextOption: string;
  /** The messages a `generateText` result adds to the conversation, as source, of `result`. */
  responseMessagesOf: (result: string) => string;
}

const MAJORS: AiSdkMajor[] = [
  {
    major: 6,
    dependency: lockedVersion("ai"),
    mockModel: "MockLanguageModelV3",
    contextOption: "experimental_context: session",
    responseMessagesOf: (result) => `${result}.response.messages`,
  },
  {
    major: 7,
    dependency: "^7.0.0",
    mockModel: "MockLanguageModelV4",
    // AI SDK 7 hands each tool its own entry of toolsContext as `context`.
    contextOption: "toolsContext: { get_payment: session, refund_payment: session }",
    responseMessagesOf: (result) => `${result}.responseMessages`,
  },
];

/**
 * A lookup the model may run at once and a refund that needs a person's approval: the model asks
 * for both, the AI SDK stops for the refund, a person approves it, and the next request runs it.
 * Prints, as JSON, what each request gave and what the model read.
 */
const roundTripProgram = ({ mockModel, contextOption, responseMessagesOf }: AiSdkMajor) => `
import { generateText } from "ai";
import { ${mockModel} } from "ai/test";
import { defineTool, Toolkit } from "toolnexus";
import { toAiSdkTools } from "toolnexus/ai-sdk";

const byId = { type: "object", properties: { paymentId: { type: "string" } }, required: ["paymentId"] };
const runs = [];
const tools = toAiSdkTools(
  new Toolkit([
    defineTool({
      name: "get_payment",
      description: "Looks up a payment",
      inputSchema: byId,
      execute: ({ paymentId }, ctx) => \`\${paymentId}: 42.00 EUR, paid by \${ctx.state?.user}\`,
    }),
    defineTool({
      name: "refund_payment",
      description: "Refunds a payment",
      inputSchema: byId,
      needsApproval: true,
      execute: ({ paymentId }, ctx) => {
        runs.push(paymentId);
        return \`Refunded \${paymentId} for \${ctx.state?.user}.\`;
      },
    }),
  ]),
);

const usage = { inputTokens: { total: 1, noCache: 1, cacheRead: 0, cacheWrite: 0 }, outputTokens: { total: 1, text: 1, reasoning: 0 } };
const turn = (content, unified) => ({ content, finishReason: { unified, raw: undefined }, usage, warnings: [] });
const toolCall = (toolCallId, toolName, input) => ({ type: "tool-call", toolCallId, toolName, input: JSON.stringify(input) });
const model = new ${mockModel}({
  doGenerate: [
    turn([toolCall("call_get", "get_payment", { paymentId: "pay_1" }), toolCall("call_refund", "refund_payment", { paymentId: "pay_1" })], "tool-calls"),
    turn([{ type: "text", text: "pay_1 is refunded." }], "stop"),
  ],
});
const session = { user: "ada@example.com" };

const messages = [{ role: "user", content: "Refund pay_1" }];
const first = await generateText({ model, tools, messages, ${contextOption} });
messages.push(...${responseMessagesOf("first")});
const approvalRequests = first.content.filter((part) => part.type === "tool-approval-request");
const runsBeforeApproval = [...runs];

messages.push({
  role: "tool",
  content: approvalRequests.map(({ approvalId }) => ({ type: "tool-approval-response", approvalId, approved: true })),
});
const second = await generateText({ model, tools, messages, ${contextOption} });
const modelRead = model.doGenerateCalls[1].prompt
  .filter((message) => message.role === "tool")
  .flatMap((message) => message.content)
  .filter((part) => part.type === "tool-result")
  .map(({ toolCallId, output }) => ({ toolCallId, output }));

console.log(JSON.stringify({
  approvalRequests,
  firstResults: first.toolResults.map(({ toolCallId, output }) => ({ toolCallId, output })),
  runsBeforeApproval,
  runs,
  modelRead,
  text: second.text,
}));
`;

/** The frameworks guide's approval round trip for the AI SDK: its ```ts block that answers an approval request. */
function guideApprovalSnippet(): string {
  const guide = readFileSync(join(packageRoot, "docs", "guides", "frameworks.md"), "utf8");
  const snippet = [...guide.matchAll(/```ts\n([\s\S]*?)```/g)]
    .map((match) => match[1]!)
    .find((code) => code.includes('from "toolnexus/ai-sdk"') && code.includes("tool-approval-response"));
  if (snippet === undefined)
    throw new Error(
      'docs/guides/frameworks.md has no ```ts block that imports "toolnexus/ai-sdk" and answers with a tool-approval-response: this test compiles that snippet.',
    );
  return snippet;
}

function succeeded(what: string, result: RunResult): string {
  if (result.code !== 0) throw new Error(`${what} exited with ${result.code}:\n${result.stdout}\n${result.stderr}`);
  return result.stdout;
}

describe.each(MAJORS)("toolnexus/ai-sdk in a project on AI SDK $major, run by Node 22", (major) => {
  let directory: string;
  let project: ConsumerProject;
  let node22: string;
  /** Commands the project runs see Node 22 first on PATH, as the npm that installs it does. */
  let node22Path: NodeJS.ProcessEnv;
  const run = (args: string[]) => project.run(node22, args, { env: node22Path, timeout: patience(120_000) });

  beforeAll(async () => {
    directory = mkdtempSync(join(tmpdir(), `toolnexus-ai-sdk-${major.major}-`));
    node22 = await nodeBinary(22);
    node22Path = { PATH: `${dirname(node22)}${delimiter}${process.env.PATH ?? ""}` };
    project = new ConsumerProject(directory).write({
      "package.json": {
        name: `toolnexus-on-ai-sdk-${major.major}`,
        private: true,
        type: "module",
        dependencies: {
          ai: major.dependency,
          toolnexus: `file:${await packInto(directory)}`,
          typescript: lockedVersion("typescript"),
        },
      },
      "round-trip.mjs": roundTripProgram(major),
      "src/approval-snippet.ts": guideApprovalSnippet(),
      "tsconfig.json": {
        compilerOptions: {
          module: "nodenext",
          target: "es2022",
          strict: true,
          skipLibCheck: true,
          types: [],
          rootDir: "src",
          outDir: "out",
        },
        include: ["src"],
      },
    });
    // npm itself on Node 22, so that it installs for the Node the programs run on.
    const [npm, args, env] = npmUnder(node22, [
      "install",
      "--prefer-offline",
      "--no-audit",
      "--no-fund",
      "--loglevel=error",
    ]);
    const install = await project.run(npm, args, { env, timeout: patience(600_000) });
    succeeded(`npm install of ai@${major.dependency} beside the packed toolnexus`, install);
  }, patience(900_000));

  afterAll(() => rmSync(directory, { recursive: true, force: true }));

  it(`installs AI SDK ${major.major}`, () => {
    const { version } = JSON.parse(readFileSync(join(directory, "node_modules", "ai", "package.json"), "utf8")) as {
      version: string;
    };
    expect(version.split(".")[0]).toBe(String(major.major));
  });

  it("stops for the approval in that major's own request, runs the approved call with the call's context, and the model reads its result", async () => {
    const printed = JSON.parse(succeeded("the round-trip program", await run(["round-trip.mjs"]))) as Record<
      string,
      unknown
    >;

    expect(printed.approvalRequests).toEqual([
      expect.objectContaining({
        type: "tool-approval-request",
        approvalId: expect.any(String),
        toolCall: expect.objectContaining({
          type: "tool-call",
          toolCallId: "call_refund",
          toolName: "refund_payment",
          input: { paymentId: "pay_1" },
        }),
      }),
    ]);
    // The plain tool ran in the first request, with the session as ctx.state; the refund waited for the person.
    expect(printed.firstResults).toEqual([
      { toolCallId: "call_get", output: { output: "pay_1: 42.00 EUR, paid by ada@example.com", isError: false } },
    ]);
    expect(printed.runsBeforeApproval).toEqual([]);
    expect(printed.runs).toEqual(["pay_1"]);
    expect(printed.modelRead).toEqual([
      { toolCallId: "call_get", output: { type: "text", value: "pay_1: 42.00 EUR, paid by ada@example.com" } },
      { toolCallId: "call_refund", output: { type: "text", value: "Refunded pay_1 for ada@example.com." } },
    ]);
    expect(printed.text).toBe("pay_1 is refunded.");
  });

  it("compiles the README's approval snippet with that major's types, and runs it as the README says", async () => {
    const tsc = join(directory, "node_modules", "typescript", "bin", "tsc");
    succeeded(
      `tsc on the README's approval snippet (src/approval-snippet.ts in ${directory})`,
      await run([tsc, "-p", "tsconfig.json", "--pretty", "false"]),
    );
    const lines = succeeded("the README's approval snippet", await run(["out/approval-snippet.js"]))
      .trim()
      .split("\n");
    expect(lines[0]).toBe("refund_payment { paymentId: 'pay_1' }");
    expect(lines).toContainEqual(expect.stringContaining('"value":"Refunded pay_1 for ada@example.com."'));
    expect(lines.at(-1)).toBe("pay_1 is refunded.");
  });
});
