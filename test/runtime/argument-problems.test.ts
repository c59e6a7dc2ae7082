import { problemsTogether } from "../../src/runtime/argument-problems";

describe("problems of two checks in one list", () => {
  const p = (path: string, text = `about ${path}`) => ({ path, text });

  it("keeps all of the first, then those of the second about something the first did not report on", () => {
    expect(problemsTogether([p("a"), p("b.c")], [p("a", "again"), p("b"), p("b.d"), p("e")])).toEqual([
      p("a"),
      p("b.c"),
      p("b.d"),
      p("e"),
    ]);
  });

  it("leaves out a second problem about a list whose element the first reported", () => {
    expect(problemsTogether([p("items[3]")], [p("items", "each value in items ..."), p("items[2].qty")])).toEqual([
      p("items[3]"),
      p("items[2].qty"),
    ]);
  });

  it("keeps every second problem when the first found none", () => {
    expect(problemsTogether([], [p("a"), p("a")])).toEqual([p("a"), p("a")]);
  });
});
