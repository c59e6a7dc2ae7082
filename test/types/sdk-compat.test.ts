import { execFileSync } from "node:child_process";
import { join } from "node:path";

describe("type fidelity with the official SDKs", () => {
  it("compiles toolnexus output passed to @google/genai, openai and @anthropic-ai/sdk types without casts", () => {
    const root = join(__dirname, "..", "..");
    const tsc = require.resolve("typescript/bin/tsc");
    const file = join(__dirname, "sdk-compat.mts");
    let output = "";
    try {
      execFileSync(
        process.execPath,
        [
          tsc,
          "--noEmit",
          "--strict",
          "--experimentalDecorators",
          "--emitDecoratorMetadata",
          "--skipLibCheck",
          "--module",
          "node16",
          "--moduleResolution",
          "node16",
          "--target",
          "es2022",
          file,
        ],
        { cwd: root, encoding: "utf8" },
      );
    } catch (error) {
      output = String((error as { stdout?: string }).stdout ?? error);
    }
    expect(output).toBe("");
    // The file must contain no cast of toolnexus output.
    expect(require("node:fs").readFileSync(file, "utf8")).not.toMatch(/\bas (any|unknown|never)\b|<any>/);
  }, 120_000);
});
