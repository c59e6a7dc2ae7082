import { assertBuilt, expectOneLineError, rel, runCli } from "./run-cli";

beforeAll(assertBuilt);

describe("toolnexus call", () => {
  it("runs a tool and prints its output; exit code 0", async () => {
    expect(await runCli(["call", rel("services.ts"), "add", '{"a": 19, "b": 23}'])).toEqual({
      code: 0,
      stdout: "42\n",
      stderr: "",
    });
    const weather = await runCli(["call", rel("services.ts"), "getWeather", '{"city":"Chennai","units":"fahrenheit"}']);
    expect(weather.code).toBe(0);
    expect(JSON.parse(weather.stdout)).toEqual({ city: "Chennai", temperature: 88, units: "fahrenheit" });
  });

  it("arguments default to {}", async () => {
    const run = await runCli(["call", rel("esm-tools.mjs"), "utc_time"]);
    expect(run).toEqual({ code: 0, stdout: "2025-01-01T00:00:00.000Z\n", stderr: "" });
  });

  it('"-" reads the arguments from stdin', async () => {
    expect(await runCli(["call", rel("tools.js"), "echo", "-"], { input: '{"text":"from stdin"}' })).toMatchObject({
      code: 0,
      stdout: "from stdin\n",
    });
  });

  it("--json prints the whole ToolResult", async () => {
    const run = await runCli(["call", rel("tools.js"), "echo", '{"text":"hi"}', "--json"]);
    expect(run.code).toBe(0);
    expect(JSON.parse(run.stdout)).toEqual({ output: "hi", isError: false });
  });

  it("an error result prints its text, notes the kind on stderr, and exits 1", async () => {
    const run = await runCli(["call", rel("services.ts"), "charge", '{"amount": 5}']);
    expect(run).toEqual({
      code: 1,
      stdout: "payment provider unavailable (charging 5 cents)\n",
      stderr: 'toolnexus: "charge" returned an error result (execution_failed).\n',
    });
  });

  it.each([
    [
      "invalid JSON",
      "add",
      '{"a": 1,',
      "invalid_arguments",
      'Invalid arguments for tool "add": arguments are not valid JSON',
    ],
    ["a wrong type", "add", '{"a": "one", "b": 2}', "invalid_arguments", '"a"'],
    ["a missing argument", "getWeather", "{}", "invalid_arguments", '"city"'],
    ["an unknown tool", "getWether", "{}", "unknown_tool", 'Did you mean "getWeather"?'],
  ])("%s is an error result: exit code 1", async (_case, tool, args, kind, text) => {
    const run = await runCli(["call", rel("services.ts"), tool, args]);
    expect(run.code).toBe(1);
    expect(run.stdout).toContain(text);
    expect(run.stderr).toBe(`toolnexus: "${tool}" returned an error result (${kind}).\n`);
  });

  it("--timeout ends a slow call with a timeout result", async () => {
    const run = await runCli([
      "call",
      rel("services.ts"),
      "wait",
      '{"ms": 60000, "label": "cli"}',
      "--timeout",
      "100",
      "--json",
    ]);
    expect(run.code).toBe(1);
    expect(JSON.parse(run.stdout)).toEqual({
      output: 'Tool "wait" timed out after 100 ms',
      isError: true,
      metadata: { error: "timeout", timeoutMs: 100 },
    });
  });

  it("usage errors exit 2 with one line", async () => {
    expectOneLineError(
      await runCli(["call", rel("services.ts")]),
      2,
      "missing required argument 'tool'",
      "toolnexus call --help",
    );
    expectOneLineError(
      await runCli(["call", rel("services.ts"), "add", "{}", "--timeout", "soon"]),
      2,
      "--timeout takes a whole number",
    );
  });
});
