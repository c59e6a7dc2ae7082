import fc from "fast-check";
import { defineTool } from "../../src";

describe("a free-text tool's input, for any text", () => {
  it("reaches the body exactly as sent", async () => {
    const echo = defineTool({ name: "echo", description: "Echoes", input: "text", execute: (text) => ({ text }) });
    await fc.assert(
      fc.asyncProperty(fc.string({ unit: "grapheme", maxLength: 200 }), async (text) => {
        const result = await echo.execute({ input: text });
        expect(result.isError).toBe(false);
        expect(JSON.parse(result.output)).toEqual({ text });
      }),
    );
  });

  it("is accepted exactly when the whole of it matches the regex grammar", async () => {
    const definition = "[a-z]{2,4}(-[0-9]+)?";
    const whole = new RegExp(`^(?:${definition})$`);
    const tool = defineTool({
      name: "code",
      description: "Takes a code",
      input: "text",
      grammar: { syntax: "regex", definition },
      execute: (text) => text,
    });
    const texts = fc.oneof(
      fc.stringMatching(whole),
      fc.string({ maxLength: 12 }),
      fc.stringMatching(/[a-z]{2,4}-\d+\n?x?/),
    );
    await fc.assert(
      fc.asyncProperty(texts, async (text) => {
        const result = await tool.execute({ input: text });
        expect(result.isError).toBe(!whole.test(text));
        if (result.isError) expect(result.metadata?.error).toBe("invalid_arguments");
      }),
    );
  });
});
