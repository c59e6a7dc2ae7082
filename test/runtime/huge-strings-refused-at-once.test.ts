/**
 * A string far over its `maxLength` is refused at once, whatever its size: its characters are
 * not counted (its length in UTF-16 units already says it is too long) and nothing else reads
 * it (its format is not checked). Ajv's own character counter is watched to see what is counted.
 */
import ucs2length from "ajv/dist/runtime/ucs2length";
import { defineTool, LIMITS, Toolkit } from "../../src";

const { PATTERN_INPUT_LIMIT } = LIMITS;

jest.mock("ajv/dist/runtime/ucs2length", () => {
  const actual = jest.requireActual<typeof import("ajv/dist/runtime/ucs2length")>("ajv/dist/runtime/ucs2length");
  return { __esModule: true, default: Object.assign(jest.fn(actual.default), { code: actual.default.code }) };
});

const counted = ucs2length as jest.MockedFunction<typeof ucs2length>;

const note = defineTool({
  name: "note",
  description: "Keeps a short note",
  inputSchema: {
    type: "object",
    properties: {
      text: { type: "string", maxLength: 10 },
      email: { type: "string", maxLength: 10, format: "email" },
      code: { type: "string", pattern: "^[a-z]+$", format: "hostname" },
    },
  },
  validate: true,
  execute: ({ text }) => `noted ${String(text)}`,
});
const toolkit = new Toolkit([note]);

/** Ten million astral characters: twenty million UTF-16 units. */
const HUGE = "😀".repeat(10_000_000);

beforeEach(() => counted.mockClear());

describe("a string over twice its maxLength in UTF-16 units", () => {
  it("is refused without its characters being counted", async () => {
    const result = await toolkit.execute("note", { text: HUGE });
    expect(result).toMatchObject({ isError: true, metadata: { error: "invalid_arguments" } });
    expect(result.output).toBe(
      `Invalid arguments for tool "note": "text" must NOT have more than 10 characters, got string "${"😀".repeat(28)}..."`,
    );
    expect(counted).not.toHaveBeenCalled();
  });

  it("is refused the same way when it comes as OpenAI's JSON text", async () => {
    const [reply] = await toolkit.runOpenAI([
      { id: "c1", type: "function", function: { name: "note", arguments: JSON.stringify({ text: HUGE }) } },
    ]);
    expect(reply).toEqual({
      role: "tool",
      tool_call_id: "c1",
      content: `Error: Invalid arguments for tool "note": "text" must NOT have more than 10 characters, got string "${"😀".repeat(28)}..."`,
    });
    expect(counted).not.toHaveBeenCalled();
  });
});

describe("a string between its maxLength and twice it in UTF-16 units", () => {
  it("is judged by its characters, counted", async () => {
    expect(await toolkit.execute("note", { text: "😀".repeat(10) })).toEqual({
      output: `noted ${"😀".repeat(10)}`,
      isError: false,
    });
    expect(counted).toHaveBeenCalledWith("😀".repeat(10));
    const refused = await toolkit.execute("note", { text: `a${"😀".repeat(10)}` });
    expect(refused.output).toBe(
      `Invalid arguments for tool "note": "text" must NOT have more than 10 characters, got string "a${"😀".repeat(10)}"`,
    );
  });
});

describe("a string refused for its length", () => {
  it("is not checked against its format", async () => {
    const result = await toolkit.execute("note", { email: "x".repeat(1_000) });
    expect(result.output).toBe(
      `Invalid arguments for tool "note": "email" must NOT have more than 10 characters, got string "${"x".repeat(57)}..."`,
    );
  });

  it("is not checked against its format when only its pattern bounds its length", async () => {
    const result = await toolkit.execute("note", { code: "-".repeat(PATTERN_INPUT_LIMIT + 1) });
    expect(result.output).toBe(
      `Invalid arguments for tool "note": "code" is too long to be checked against its pattern (at most ${PATTERN_INPUT_LIMIT} characters), got string "${"-".repeat(57)}..."`,
    );
  });

  it("leaves the formats of the other arguments checked, and of short strings", async () => {
    const result = await toolkit.execute("note", { text: HUGE, email: "nope", code: "-x-" });
    expect(result.output).toBe(
      [
        'Invalid arguments for tool "note":',
        `- "text" must NOT have more than 10 characters, got string "${"😀".repeat(28)}..."`,
        '- "email" must match format "email", got string "nope"',
        '- "code" must match pattern "^[a-z]+$", got string "-x-"',
        '- "code" must match format "hostname", got string "-x-"',
      ].join("\n"),
    );
  });
});
