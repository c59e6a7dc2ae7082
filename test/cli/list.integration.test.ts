import { assertBuilt, rel, runCli } from "./run-cli";

beforeAll(assertBuilt);

describe("toolnexus list", () => {
  it("shows each tool and its parameters as a table", async () => {
    const run = await runCli(["list", rel("services.ts")]);
    expect(run.code).toBe(0);
    expect(run.stderr).toBe("");
    const lines = run.stdout.trimEnd().split("\n");
    expect(lines[0]).toMatch(/^TOOL\s+PARAMETER\s+TYPE\s+REQUIRED\s+DESCRIPTION$/);
    const rows = lines.slice(1, -2).map((line) => line.split(/\s{2,}/).filter(Boolean));
    expect(rows).toEqual([
      ["getWeather", "Current weather for a city [read-only]"],
      ["city", "string", "yes", "City name, e.g. Chennai"],
      ["units", '"celsius" | "fahrenheit"', "no", "Temperature units"],
      ["add", "Adds two numbers"],
      ["a", "number", "yes"],
      ["b", "number", "yes"],
      ["charge", "Charges a card; the payment provider is down, so it always fails [destructive]"],
      ["amount", "integer (>= 1)", "yes", "Amount in cents"],
      ["wait", "Waits `ms` milliseconds, or until the call is cancelled"],
      ["ms", "integer (>= 0)", "yes", "How long to wait, in milliseconds"],
      ["label", "string", "yes", "A label for the events this call records"],
      ["waitEvents", "What the wait tool observed, oldest first [read-only]"],
      ["(no parameters)"],
    ]);
    expect(lines.at(-1)).toBe("5 tools");
    // Columns line up: every parameter name starts where the PARAMETER header does.
    const column = lines[0]!.indexOf("PARAMETER");
    expect(lines.filter((line) => line.startsWith(" ")).every((line) => line.search(/\S/) === column)).toBe(true);
  });

  it("shows unions, nullable types and defaults", async () => {
    const run = await runCli(["list", rel("toolkit.ts")]);
    expect(run.code).toBe(0);
    expect(run.stdout).toMatch(/catalog\.search\s+Search the catalogue\n/);
    expect(run.stdout).toMatch(/\n\s+limit\s+integer \(> 0\) \| null\s+no\s+At most this many results\n/);
    expect(run.stdout.trimEnd().endsWith("3 tools")).toBe(true);
  });

  it("--json prints the tools as data", async () => {
    const run = await runCli(["list", rel("tools.js"), "--json"]);
    expect(run.code).toBe(0);
    expect((JSON.parse(run.stdout) as Array<{ name: string }>).map((tool) => tool.name)).toEqual(["echo", "shout"]);
  });
});
