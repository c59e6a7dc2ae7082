import { readFileSync } from "node:fs";
import { join } from "node:path";
import { CAST, compileStrict } from "./compile-strict";

describe("type fidelity with the official SDKs", () => {
  it("compiles toolnexus output passed to @google/genai, openai and @anthropic-ai/sdk types without casts", () => {
    const file = join(__dirname, "sdk-compat.mts");
    expect(compileStrict([file])).toBe("");
    expect(readFileSync(file, "utf8")).not.toMatch(CAST);
  });
});
