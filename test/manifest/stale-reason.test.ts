import { staleReason, type RuntimeParameter } from "../../src/manifest/merge";
import type { ManifestParameter, ManifestTool } from "../../src/manifest";

/**
 * Whether a manifest entry still describes the running method, told from what the code keeps at
 * run time: here, the parameters no decorator describes (all of them under standard decorators)
 * and the entries of methods whose `@Tool({ input })` gives the whole input.
 */

const entry = (parameters: ManifestParameter[], extra: Partial<ManifestTool> = {}): ManifestTool => ({
  name: "add",
  file: "src/notes.ts",
  hash: "sha256:0",
  parameters,
  ...extra,
});
const text: ManifestParameter = { kind: "param", name: "text", optional: false, schema: { type: "string" } };
const undecorated = (name: string): RuntimeParameter => ({ kind: "param", name, undecorated: true });

describe("an undecorated parameter against the manifest", () => {
  it("fits a ctx entry: the parameter typed ToolContext, which standard decorators cannot mark @Ctx()", () => {
    const recorded = entry([text, { kind: "ctx", name: "ctx" }]);
    expect(staleReason(recorded, "add", [undecorated("text"), undecorated("ctx")], false)).toBeUndefined();
  });

  it("fits a ctx entry of any name: the manifest's kind decides, not the parameter's name", () => {
    const recorded = entry([text, { kind: "ctx" }]);
    expect(staleReason(recorded, "add", [undecorated("text"), undecorated("call")], false)).toBeUndefined();
  });

  it("still has its name checked against a param entry", () => {
    const recorded = entry([text, { kind: "ctx", name: "ctx" }]);
    expect(staleReason(recorded, "add", [undecorated("body"), undecorated("ctx")], false)).toEqual({
      reason: 'parameter 0 is "text" in the manifest, "body" in the code',
      minified: false,
    });
  });

  it("is counted like any other, the ctx entry shown with its name", () => {
    const recorded = entry([text, { kind: "ctx", name: "ctx" }]);
    expect(staleReason(recorded, "add", [undecorated("text")], false)).toEqual({
      reason: "it lists 2 parameters (text, ctx: ToolContext), the method has 1 (text)",
      minified: false,
    });
  });

  it("a @Param-decorated parameter does not fit a ctx entry", () => {
    const recorded = entry([text, { kind: "ctx", name: "ctx" }]);
    const decorated: RuntimeParameter = { kind: "param", name: "ctx" };
    expect(staleReason(recorded, "add", [undecorated("text"), decorated], false)).toEqual({
      reason: "parameter 1 is @Ctx() in the manifest, @Param in the code",
      minified: false,
    });
  });
});

describe("an entry generated for @Tool({ input })", () => {
  const recorded = entry([], { input: true });

  it("fits a method without parameters", () => {
    expect(staleReason(recorded, "add", [], false)).toBeUndefined();
  });

  it("is stale for a method that lost its input and has parameters, and says so", () => {
    expect(staleReason(recorded, "add", [undecorated("text"), { kind: "ctx" }], false)).toEqual({
      reason:
        "it was generated for @Tool({ input }) and lists no parameters, the method has 2 (text, @Ctx) and no input",
      minified: false,
    });
  });
});
