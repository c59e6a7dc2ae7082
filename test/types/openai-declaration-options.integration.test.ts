import { readFileSync } from "node:fs";
import { join } from "node:path";
import { requireBuild } from "../support/built-package";
import { CAST, compileStrict } from "./compile-strict";

describe("OpenAI custom tools, namespaces and tool search, typed by the openai SDK", () => {
  it("compiles declarations and replies passed to the SDK's request types without casts", () => {
    requireBuild("the file compiles against the built package");
    const file = join(__dirname, "openai-declaration-options.mts");
    expect(compileStrict([file])).toBe("");
    expect(readFileSync(file, "utf8")).not.toMatch(CAST);
  });
});
