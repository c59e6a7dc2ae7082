import { join } from "node:path";
import { compileStrict } from "../types/compile-strict";

describe("fromMcp's types", () => {
  it("accept the SDK's Client from an ES module project, with no cast", () => {
    expect(compileStrict([join(__dirname, "fixtures", "from-mcp-client.mts")])).toBe("");
  });
});
