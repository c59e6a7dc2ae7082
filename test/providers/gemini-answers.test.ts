/**
 * Gemini's `answersIn`: what the function responses in a request's `contents` answered
 * to calls of one tool, oldest first, as the messages hold them. It is how an export finds what an
 * earlier `search_tools` answer loaded, so it reads what clients send and never throws.
 */
import { gemini } from "../../src/providers/gemini";

const FOUND = JSON.stringify({ query: "refund", tools: [{ name: "refund_order", description: "Refunds an order" }] });

const hostile = new Proxy(
  {},
  {
    get() {
      throw new Error("unreadable");
    },
  },
);

describe("Gemini answersIn", () => {
  const contents = [
    { role: "user", parts: [{ text: "Refund order 7" }] },
    { role: "model", parts: [{ functionCall: { name: "search_tools", args: { query: "refund" } } }] },
    {
      role: "user",
      parts: [
        { functionResponse: { name: "search_tools", response: { output: FOUND } } },
        { functionResponse: { name: "lookup", response: { output: "other" } } },
      ],
    },
    { role: "model", parts: [{ functionCall: { name: "search_tools", args: { query: "again" } } }] },
    { role: "user", parts: [{ functionResponse: { name: "search_tools", response: { error: "none" } } }] },
  ];

  it("gives the response of each functionResponse named for the tool, oldest first", () => {
    expect(gemini.answersIn!(contents, "search_tools")).toEqual([{ output: FOUND }, { error: "none" }]);
    expect(gemini.answersIn!(contents, "lookup")).toEqual([{ output: "other" }]);
  });

  it("reads a request ({ contents }) as its contents", () => {
    expect(gemini.answersIn!({ model: "gemini-2.5-flash", contents }, "search_tools")).toHaveLength(2);
  });

  it("passes over what it cannot read, and reads no answer out of anything else", () => {
    const withHostile = [hostile, { role: "user", parts: [hostile, contents[2]!.parts[0]] }];
    expect(gemini.answersIn!(withHostile, "search_tools")).toEqual([{ output: FOUND }]);
    for (const conversation of [undefined, null, "text", 42, hostile, { contents: hostile }])
      expect(gemini.answersIn!(conversation, "search_tools")).toEqual([]);
  });
});
