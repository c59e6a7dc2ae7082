import { readFileSync } from "node:fs";
import { join } from "node:path";
import { CAST, compileStrict } from "./compile-strict";

describe("type fidelity of Anthropic's and Bedrock's declaration options", () => {
  it("compiles deferred, strict and example-carrying declarations into the official SDKs' types without casts", () => {
    const file = join(__dirname, "anthropic-bedrock-declarations.mts");
    expect(compileStrict([file])).toBe("");
    expect(readFileSync(file, "utf8")).not.toMatch(CAST);
  });
});
