/**
 * Completing what a user is typing into a prompt's argument or a template's variable: a list's
 * values that start with it (any case) first, then those that contain it; a function's values as
 * it ranks them; at most 100, with the total and whether there are more.
 */
import { PrimitiveError, type CompletionContext } from "toolnexus";
import { complete } from "../../src/runtime/completions";

const context: CompletionContext = { arguments: {}, ctx: {} };

describe("completing from a list", () => {
  const languages = ["TypeScript", "JavaScript", "Python", "Rust", "Go", "CoffeeScript"];

  it("gives the values that start with what was typed, whatever its case", async () => {
    await expect(complete(languages, "py", context)).resolves.toEqual({ values: ["Python"], total: 1, hasMore: false });
  });

  it("gives values that start with it before values that only contain it, each in the list's order", async () => {
    await expect(complete(["transcript", "scripts", "manuscript", "Script"], "script", context)).resolves.toEqual({
      values: ["scripts", "Script", "transcript", "manuscript"],
      total: 4,
      hasMore: false,
    });
  });

  it("matches what it contains regardless of case", async () => {
    await expect(complete(languages, "SCRIPT", context)).resolves.toEqual({
      values: ["TypeScript", "JavaScript", "CoffeeScript"],
      total: 3,
      hasMore: false,
    });
  });

  it("gives the whole list, in order, when nothing was typed", async () => {
    await expect(complete(languages, "", context)).resolves.toEqual({ values: languages, total: 6, hasMore: false });
  });

  it("gives nothing when no value contains what was typed", async () => {
    await expect(complete(languages, "haskell", context)).resolves.toEqual({ values: [], total: 0, hasMore: false });
  });

  it("gives each value once", async () => {
    await expect(complete(["red", "green", "red", "reed"], "re", context)).resolves.toEqual({
      values: ["red", "reed", "green"],
      total: 3,
      hasMore: false,
    });
  });

  it("gives at most 100 values, with the total and that there are more", async () => {
    const cities = Array.from({ length: 250 }, (_, index) => `city-${index}`);
    const completion = await complete(cities, "city", context);
    expect(completion.values).toEqual(cities.slice(0, 100));
    expect(completion.total).toBe(250);
    expect(completion.hasMore).toBe(true);
  });

  it("says there are no more at exactly 100 values", async () => {
    const hundred = Array.from({ length: 100 }, (_, index) => `v${index}`);
    await expect(complete(hundred, "v", context)).resolves.toEqual({ values: hundred, total: 100, hasMore: false });
  });
});

describe("completing with a function", () => {
  it("gives the function what was typed and the context, and its values in its order", async () => {
    const seen: Array<{ value: string; context: CompletionContext }> = [];
    const completer = (value: string, given: CompletionContext) => {
      seen.push({ value, context: given });
      return ["zeta", "alpha"];
    };
    const given: CompletionContext = { arguments: { country: "FR" }, ctx: { state: { user: "ada" } } };
    await expect(complete(completer, "a", given)).resolves.toEqual({
      values: ["zeta", "alpha"],
      total: 2,
      hasMore: false,
    });
    expect(seen).toEqual([{ value: "a", context: given }]);
  });

  it("waits for an async function's values", async () => {
    const completer = async (value: string) => [`${value}1`, `${value}2`];
    await expect(complete(completer, "id", context)).resolves.toEqual({
      values: ["id1", "id2"],
      total: 2,
      hasMore: false,
    });
  });

  it("drops duplicates and values that are not strings", async () => {
    const completer = () => ["a", 1, "b", null, "a", { c: 1 }] as unknown as string[];
    await expect(complete(completer, "", context)).resolves.toEqual({ values: ["a", "b"], total: 2, hasMore: false });
  });

  it("gives at most 100 of a function's values, with the total and that there are more", async () => {
    const completer = () => Array.from({ length: 120 }, (_, index) => String(index));
    const completion = await complete(completer, "", context);
    expect(completion.values).toHaveLength(100);
    expect(completion.values[99]).toBe("99");
    expect(completion).toMatchObject({ total: 120, hasMore: true });
  });

  it("rejects with a PrimitiveError of kind failed, with the function's message, when it throws", async () => {
    const completer = () => {
      throw new Error("directory offline");
    };
    const error = await complete(completer, "x", context).catch((thrown: unknown) => thrown);
    expect(error).toBeInstanceOf(PrimitiveError);
    expect(error).toMatchObject({ kind: "failed", message: "Completing failed: directory offline" });
  });

  it("rejects with a PrimitiveError of kind failed when its promise rejects", async () => {
    const completer = () => Promise.reject(new Error("timed out upstream"));
    await expect(complete(completer, "x", context)).rejects.toMatchObject({
      name: "PrimitiveError",
      kind: "failed",
      message: "Completing failed: timed out upstream",
    });
  });

  it("words a thrown value that is not an Error as text", async () => {
    const completer = () => {
      throw "no index";
    };
    await expect(complete(completer, "x", context)).rejects.toMatchObject({
      kind: "failed",
      message: "Completing failed: no index",
    });
  });

  it("rejects, saying to return a list of strings, when the function returns something else", async () => {
    const completer = (() => "typescript") as unknown as () => string[];
    const error = await complete(completer, "t", context).catch((thrown: unknown) => thrown);
    expect(error).toBeInstanceOf(PrimitiveError);
    expect(error).toMatchObject({
      kind: "failed",
      message: "Completing failed: the complete function must return a list of strings.",
    });
  });
});
