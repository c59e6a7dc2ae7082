import { execFile } from "node:child_process";
import { join } from "node:path";
import { promisify } from "node:util";
import { assertBuilt, root } from "../mcp/support";

/**
 * What `npm start` shows a newcomer, run as it is (ts-node over examples/main.ts, transpiled
 * only: `npm run typecheck` checks the examples' types; the built package; stdout piped as in a
 * CI log): every example, and nothing that reads as a fault.
 */
describe("the first run (npm start)", () => {
  let stdout: string;
  let stderr: string;

  beforeAll(async () => {
    assertBuilt();
    const env = {
      ...process.env,
      FORCE_COLOR: undefined,
      NO_COLOR: undefined,
      GEMINI_API_KEY: undefined,
      OPENAI_API_KEY: undefined,
    };
    ({ stdout, stderr } = await promisify(execFile)(
      process.execPath,
      [require.resolve("ts-node/dist/bin"), "--transpile-only", join("examples", "main.ts")],
      {
        cwd: root,
        env,
        encoding: "utf8",
      },
    ));
  });

  it("runs every example", () => {
    const titles = [...stdout.matchAll(/^=== (\d+)\. /gm)].map((match) => match[1]);
    expect(titles).toEqual(["1", "2", "3", "4", "5", "6", "7", "8", "9", "10", "11", "12", "13"]);
    expect(stdout).toContain("Order 1001 is placed for Ada");
    expect(stdout).toContain('"structuredContent":{"year":2025,"total":734,"bestMonth":"Dec"}');
    expect(stdout).toContain("approved, then run: refund_order: Order 999 refunded for ada@example.com.");
    expect(stdout).toContain("approval  asked for refund_payment");
    expect(stdout).toContain("declared for OpenAI: convert_currency, inventory_stock_level, inventory_product_photo");
  });

  it("writes nothing to stderr", () => {
    expect(stderr).toBe("");
  });

  it("prints no warnings or errors from the libraries it runs", () => {
    expect(stdout).not.toMatch(/\b(WARN|ERROR)\b/);
    expect(stdout).not.toMatch(/warning|deprecat/i);
  });

  it("prints no terminal colour codes into a pipe", () => {
    expect(stdout).not.toContain("\u001b[");
  });
});
