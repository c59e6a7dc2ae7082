/**
 * `toolnexus export --budget N`: a CI gate on what a format's declarations cost in tokens, and on lossy schema
 * changes; and the export options that shape declarations (--strict, --tool-search, --examples-in-description).
 */
import { describeExport } from "../../src";
import { toolkit } from "../fixtures/cli/budget";
import { assertBuilt, expectOneLineError, rel, runCli } from "./run-cli";

const budgetModule = rel("budget.ts");
const tools = toolkit.tools();

beforeAll(assertBuilt);

describe("toolnexus export --budget", () => {
  it("passes declarations within the budget through as without it, and notes what they cost", async () => {
    const { tokens, declarations } = describeExport("openai", tools);
    const run = await runCli(["export", budgetModule, "--format", "openai", "--budget", String(tokens.declared)]);
    expect(run.code).toBe(0);
    expect(JSON.parse(run.stdout)).toEqual(declarations);
    expect(run.stderr).toContain(
      `toolnexus: 5 tools exported for openai, ${tokens.declared} tokens up front (o200k), ` +
        `${tokens.allDeclared} with the 3 deferred tools declared: deferring saves ` +
        `${Math.round(tokens.deferredSaving * 100)}%`,
    );
  });

  it("fails with exit code 1 over the budget, naming the format, the count, the budget and the largest tools", async () => {
    const { tokens } = describeExport("openai", tools);
    const budget = tokens.declared - 1;
    const run = await runCli(["export", budgetModule, "--format", "openai", "--budget", String(budget)]);
    expectOneLineError(
      run,
      1,
      `the openai declarations take ${tokens.declared} tokens (o200k), over the budget of ${budget}`,
      "--budget",
    );
    const [status, find] = [tokens.tools[1]!, tokens.tools[0]!];
    // Largest first: of the tools sent up front, then the search that stands in for the deferred ones.
    expect(run.stderr).toContain(
      `the largest: order_status (${status.tokens}), find_orders (${find.tokens}), the tool search`,
    );
    expect(status.tokens).toBeGreaterThan(find.tokens);
  });

  it("labels counts for formats whose tokenizer is not public as estimates", async () => {
    const run = await runCli(["export", budgetModule, "--format", "gemini", "--budget", "10"]);
    expectOneLineError(
      run,
      1,
      "the gemini declarations take",
      "estimated with OpenAI's o200k",
      "over the budget of 10",
    );
  });

  it("fails on a lossy change, naming the tool and the pointer; --allow-lossy accepts it", async () => {
    const args = ["export", budgetModule, "--format", "openai", "--strict", "--budget", "100000"];
    expectOneLineError(
      await runCli(args),
      1,
      "1 lossy change for openai",
      "find_orders /properties/cursor",
      "--allow-lossy",
    );
    const allowed = await runCli([...args, "--allow-lossy"]);
    expect(allowed.code).toBe(0);
    expect(JSON.parse(allowed.stdout)).toEqual(describeExport("openai", tools, { strict: true }).declarations);
  });

  it("without --budget, reports a lossy change and exports as before", async () => {
    const run = await runCli(["export", budgetModule, "--format", "openai", "--strict"]);
    expect(run.code).toBe(0);
    expect(run.stderr).toMatch(/find_orders\s+\/properties\/cursor\s+required\s+lossy/);
  });

  it("refuses a budget that is not a whole number, and --allow-lossy without a budget", async () => {
    expectOneLineError(await runCli(["export", budgetModule, "--budget", "lots"]), 2, "--budget takes a whole number");
    expectOneLineError(
      await runCli(["export", budgetModule, "--allow-lossy"]),
      2,
      "--allow-lossy applies with --budget",
    );
  });
});

describe("toolnexus export's declaration options", () => {
  it.each(["anthropic", "bedrock"] as const)("--strict applies to %s", async (format) => {
    const run = await runCli(["export", budgetModule, "--format", format, "--strict"]);
    expect(run.code).toBe(0);
    expect(JSON.parse(run.stdout)).toEqual(describeExport(format, tools, { strict: true }).declarations);
  });

  it("--tool-search chooses how Anthropic searches the deferred tools, and applies to anthropic only", async () => {
    const run = await runCli(["export", budgetModule, "--format", "anthropic", "--tool-search", "regex"]);
    expect(run.code).toBe(0);
    expect(JSON.parse(run.stdout)).toEqual(describeExport("anthropic", tools, { toolSearch: "regex" }).declarations);
    expectOneLineError(
      await runCli(["export", budgetModule, "--format", "openai", "--tool-search", "regex"]),
      2,
      "--tool-search applies to the anthropic format",
    );
    expectOneLineError(
      await runCli(["export", budgetModule, "--format", "anthropic", "--tool-search", "fuzzy"]),
      2,
      "'fuzzy' is invalid",
    );
  });

  it("--examples-in-description appends examples to descriptions, and is refused where they have a field", async () => {
    const run = await runCli(["export", budgetModule, "--format", "gemini", "--examples-in-description"]);
    expect(run.code).toBe(0);
    expect(JSON.parse(run.stdout)).toEqual(
      describeExport("gemini", tools, { examplesInDescription: true }).declarations,
    );
    expect(run.stdout).toContain('Examples: {\\"order\\":\\"ord_12ab34cd\\"}');
    expectOneLineError(
      await runCli(["export", budgetModule, "--format", "anthropic", "--examples-in-description"]),
      2,
      "--examples-in-description does not apply to anthropic",
    );
  });
});
