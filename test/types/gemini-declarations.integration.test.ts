import { readFileSync } from "node:fs";
import { join } from "node:path";
import { CAST, compileStrict } from "./compile-strict";
import { requireBuild } from "../support/built-package";

describe("Gemini declarations against @google/genai's types", () => {
  it("compiles response, responseJsonSchema and a conversation-read export as FunctionDeclaration and request config, without casts", () => {
    requireBuild("the declarations are compiled against its types");
    const file = join(__dirname, "gemini-declarations.mts");
    expect(compileStrict([file])).toBe("");
    expect(readFileSync(file, "utf8")).not.toMatch(CAST);
  });
});
