import { defineTool } from "../../src";
import { toolTable } from "../../src/cli/commands/list";

describe("toolnexus list's table", () => {
  it("says which tools are deferred, in a namespace or free text, beside the hints", () => {
    const table = toolTable([
      defineTool({
        name: "refund",
        description: "Refund an order",
        defer: true,
        namespace: "billing",
        annotations: { destructive: true },
        execute: () => "ok",
      }),
      defineTool({ name: "shell", description: "Run a command", input: "text", execute: (text) => text }),
    ]);
    expect(table).toMatch(/refund\s+Refund an order \[deferred, namespace billing, destructive\]/);
    expect(table).toMatch(/shell\s+Run a command \[free text\]\n\s+input\s+string\s+yes/);
  });
});
