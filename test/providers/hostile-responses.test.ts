/**
 * Specification: what `runGemini`, `runOpenAI`, `runOpenAIResponses`, `runAnthropic`,
 * `runBedrock` and `runOllama` do with a model response that is malformed, hostile or simply not
 * a response.
 *
 * 1. They never reject and never throw synchronously, whatever they are handed.
 * 2. A bad call (unreadable name, unreadable arguments, non-string name) is an error result for
 *    that call; the good calls of the same batch still run and are answered, in call order. An
 *    unreadable container is an empty batch, or one clear error.
 * 3. A response without tool calls is answered with nothing to append: `undefined` for the
 *    providers whose answer is one turn (Gemini, Anthropic, Bedrock), `[]` for OpenAI Chat,
 *    Responses and Ollama.
 * 4. Arbitrary garbage, alone or mixed with valid calls, never breaks 1–3, and every answer has
 *    its provider's shape.
 */
import fc from "fast-check";
import { defineTool, Toolkit, type ToolContext } from "../../src";

// ---- The toolkit ---------------------------------------------------------------------------

const echo = defineTool({
  name: "echo",
  description: "Answers with its text; waits `delay` milliseconds first when given one",
  inputSchema: { type: "object", properties: { text: { type: "string" }, delay: { type: "number" } } },
  execute: async ({ text, delay }) => {
    if (typeof delay === "number" && delay > 0 && delay <= 100)
      await new Promise((resolve) => setTimeout(resolve, delay));
    return `echo:${typeof text === "string" ? text : "?"}`;
  },
});

const fail = defineTool({
  name: "fail",
  description: "Always throws",
  execute: () => {
    throw new Error("fail always throws");
  },
});

const kit = new Toolkit([echo, fail]);

// ---- Hostile values ------------------------------------------------------------------------

type Key = string | number;
type Path = readonly Key[];
type Setter = (holder: object, key: Key) => void;

/** A Proxy every trap of which throws, including `getPrototypeOf` and `ownKeys`. */
function throwingProxy<T extends object>(target: T = {} as T): T {
  const handler = new Proxy(
    {},
    {
      get: (_handler, trap) => () => {
        throw new Error(`proxy trap ${String(trap)} refuses`);
      },
    },
  );
  return new Proxy(target, handler);
}

/** A revoked Proxy: even `Array.isArray` throws on it. */
function revokedProxy<T extends object>(target: T = {} as T): T {
  const { proxy, revoke } = Proxy.revocable(target, {});
  revoke();
  return proxy;
}

const throwingGetter: Setter = (holder, key) => {
  Object.defineProperty(holder, key, {
    enumerable: true,
    configurable: true,
    get() {
      throw new Error(`reading ${String(key)} fails`);
    },
  });
};

const setTo =
  (value: unknown): Setter =>
  (holder, key) => {
    (holder as Record<Key, unknown>)[key] = value;
  };

/** A copy of `root` with the value at `path` replaced by `set` (every object along the path copied). */
function replaceAt(root: unknown, path: Path, set: Setter): unknown {
  const copy = (Array.isArray(root) ? [...root] : { ...(root as object) }) as Record<Key, unknown>;
  const [key, ...rest] = path;
  if (rest.length === 0) set(copy, key!);
  else copy[key!] = replaceAt((root as Record<Key, unknown>)[key!], rest, set);
  return copy;
}

function isPlainData(value: unknown): value is object {
  if (Array.isArray(value)) return true;
  if (typeof value !== "object" || value === null) return false;
  const prototype = Object.getPrototypeOf(value);
  return prototype === Object.prototype || prototype === null;
}

/** A deep copy in which every plain object has a null prototype. */
function withNullPrototypes(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(withNullPrototypes);
  if (!isPlainData(value)) return value;
  const copy = Object.create(null) as Record<string, unknown>;
  for (const [key, child] of Object.entries(value)) copy[key] = withNullPrototypes(child);
  return copy;
}

/** A deep copy in which every plain object and array is frozen. */
function frozenCopy(value: unknown): unknown {
  if (Array.isArray(value)) return Object.freeze(value.map(frozenCopy));
  if (!isPlainData(value)) return value;
  const copy: Record<string, unknown> = Object.getPrototypeOf(value) === null ? Object.create(null) : {};
  for (const [key, child] of Object.entries(value)) copy[key] = frozenCopy(child);
  return Object.freeze(copy);
}

/** Names that are not strings: each makes its call an error result. */
const NON_STRING_NAMES: Array<[string, () => unknown]> = [
  ["missing", () => undefined],
  ["null", () => null],
  ["a number", () => 42],
  ["a boolean", () => true],
  ["a symbol", () => Symbol("echo")],
  ["an array", () => ["echo"]],
  ["an object", () => ({ name: "echo" })],
  ["a boxed string", () => new String("echo")],
  [
    "an object whose toString throws",
    () => ({
      toString: () => {
        throw new Error("no text");
      },
    }),
  ],
  ["a null-prototype object", () => Object.create(null)],
  ["a Proxy whose traps throw", () => throwingProxy()],
  ["a revoked Proxy", () => revokedProxy()],
];

/** Arguments that cannot be read: each makes its call an error result. */
const UNREADABLE_ARGUMENTS: Array<[string, () => Setter]> = [
  ["a getter that throws", () => throwingGetter],
  ["a Proxy whose traps throw", () => setTo(throwingProxy())],
  ["a revoked Proxy", () => setTo(revokedProxy())],
  [
    "an object whose property getter throws",
    () =>
      setTo(
        Object.defineProperty({}, "text", {
          enumerable: true,
          get: () => {
            throw new Error("no text");
          },
        }),
      ),
  ],
];

/** Anything but a model response: answered with nothing, or with one error. */
const NOT_A_RESPONSE: Array<[string, () => unknown]> = [
  ["undefined", () => undefined],
  ["null", () => null],
  ["0", () => 0],
  ["42", () => 42],
  ["NaN", () => NaN],
  ["a bigint", () => 10n],
  ["true", () => true],
  ["an empty string", () => ""],
  ["a string", () => "tool_calls"],
  ["a JSON string of a call", () => JSON.stringify({ name: "echo", args: { text: "a" } })],
  ["a symbol", () => Symbol("response")],
  ["a function", () => () => "echo"],
  ["an empty object", () => ({})],
  ["an empty array", () => []],
  ["a null-prototype object", () => Object.create(null)],
  ["a frozen empty object", () => Object.freeze({})],
  ["a Date", () => new Date(0)],
  ["a Map", () => new Map([["tool_calls", []]])],
  ["a Promise", () => Promise.resolve({})],
  [
    "a thenable whose then throws",
    () => ({
      then: () => {
        throw new Error("then refuses");
      },
    }),
  ],
  ["a Proxy whose traps throw", () => throwingProxy()],
  ["a Proxy of an array whose traps throw", () => throwingProxy([])],
  ["a revoked Proxy", () => revokedProxy()],
  ["a revoked Proxy of an array", () => revokedProxy([])],
  [
    "an object whose every container key throws",
    () => {
      const object = {};
      for (const key of ["choices", "message", "tool_calls", "candidates", "content", "parts", "output"])
        throwingGetter(object, key);
      return object;
    },
  ],
];

/** Lists that hold no call at all: nothing may run. */
const LISTS_WITHOUT_CALLS: Array<[string, () => unknown[]]> = [
  ["null", () => [null]],
  ["undefined", () => [undefined]],
  ["a number", () => [1]],
  ["null, undefined, number, string and boolean entries", () => [null, undefined, 1, "x", true]],
  ["empty objects and arrays", () => [{}, [], Object.create(null)]],
  ["holes (a sparse array)", () => new Array(3)],
  ["Proxies whose traps throw", () => [throwingProxy(), throwingProxy([])]],
  ["revoked Proxies", () => [revokedProxy(), revokedProxy([])]],
  [
    "itself",
    () => {
      const list: unknown[] = [];
      list.push(list);
      return list;
    },
  ],
];

// ---- Providers -----------------------------------------------------------------------------

/** One answer, whatever the provider: the call id it answers, whether it succeeded, its text. */
interface Answer {
  id: string | undefined;
  ok: boolean;
  text: string;
}

interface CallSpec {
  id: string;
  name: unknown;
  args: unknown;
}

interface Provider {
  label: string;
  run(input: unknown, ctx?: ToolContext): unknown;
  /** What a batch without calls resolves to. */
  empty: undefined | [];
  /** One call entry in the provider's shape. */
  call(spec: CallSpec): unknown;
  /** Arguments as the provider sends them (a JSON string for OpenAI). */
  encode(args: Record<string, unknown>): unknown;
  /** Every form a run method takes, each built around a list of entries. */
  forms: Array<[string, (entries: unknown[]) => unknown]>;
  /** Paths, in each form, to the objects and lists that hold the calls. */
  containerPaths: Array<[form: string, path: Path]>;
  namePath: Path;
  argsPath: Path;
  idPath: Path;
  /** The fields of an entry that say whether it is a call. */
  entryPaths: Path[];
  /** The answer, checked against the provider's shape; throws on any deviation. */
  answers(reply: unknown): Answer[];
  /** Responses that hold no tool call. */
  withoutCalls: Array<[string, unknown]>;
  /** Containers of the wrong type. */
  wrongContainers: Array<[string, unknown]>;
}

function kindOf(value: unknown): string {
  if (value === null) return "null";
  if (Array.isArray(value)) return "an array";
  return typeof value;
}

function malformed(path: string, problem: string): never {
  throw new Error(`malformed answer at ${path}: ${problem}`);
}

/** A plain data object with exactly the `required` keys and at most the `optional` ones. */
function record(value: unknown, path: string, required: string[], optional: string[] = []): Record<string, unknown> {
  if (typeof value !== "object" || value === null || Array.isArray(value))
    malformed(path, `expected an object, got ${kindOf(value)}`);
  if (Object.getPrototypeOf(value) !== Object.prototype) malformed(path, "expected a plain object");
  const keys = Reflect.ownKeys(value);
  for (const key of keys) {
    if (typeof key !== "string" || ![...required, ...optional].includes(key))
      malformed(path, `unexpected key ${String(key)}`);
    if (!("value" in Object.getOwnPropertyDescriptor(value, key)!)) malformed(path, `${key} is an accessor`);
  }
  for (const key of required) if (!keys.includes(key)) malformed(path, `missing ${key}`);
  return value as Record<string, unknown>;
}

function text(value: unknown, path: string): string {
  if (typeof value !== "string") malformed(path, `expected a string, got ${kindOf(value)}`);
  return value;
}

function list(value: unknown, path: string, nonEmpty: boolean): unknown[] {
  if (!Array.isArray(value) || Object.getPrototypeOf(value) !== Array.prototype)
    malformed(path, `expected an array, got ${kindOf(value)}`);
  if (nonEmpty && value.length === 0) malformed(path, "an empty list (the provider rejects an empty turn)");
  for (let i = 0; i < value.length; i++) if (!(i in value)) malformed(path, `a hole at ${i}`);
  return value;
}

/** A turn-shaped answer: `undefined` when there is nothing to append, else a user turn with at least one entry. */
function turn(reply: unknown, key: "parts" | "content"): unknown[] {
  if (reply === undefined) return [];
  const message = record(reply, "reply", ["role", key]);
  if (message.role !== "user") malformed("reply.role", "expected user");
  return list(message[key], `reply.${key}`, true);
}

const gemini: Provider = {
  label: "runGemini",
  run: (input, ctx) => kit.runGemini(input as never, ctx),
  empty: undefined,
  call: ({ id, name, args }) => ({ functionCall: { id, name, args } }),
  encode: (args) => args,
  forms: [
    [
      "a response",
      (parts) => ({
        candidates: [{ content: { role: "model", parts }, finishReason: "STOP", index: 0 }],
        modelVersion: "gemini-2.5-flash",
      }),
    ],
    ["model content", (parts) => ({ role: "model", parts })],
    ["a parts list", (parts) => parts],
  ],
  containerPaths: [
    ["a response", ["candidates"]],
    ["a response", ["candidates", 0]],
    ["a response", ["candidates", 0, "content"]],
    ["a response", ["candidates", 0, "content", "parts"]],
    ["model content", ["parts"]],
  ],
  namePath: ["functionCall", "name"],
  argsPath: ["functionCall", "args"],
  idPath: ["functionCall", "id"],
  entryPaths: [["functionCall"]],
  answers: (reply) =>
    turn(reply, "parts").map((part, i) => {
      const at = `reply.parts[${i}].functionResponse`;
      const response = record(
        record(part, `reply.parts[${i}]`, ["functionResponse"]).functionResponse,
        at,
        ["name", "response"],
        ["id"],
      );
      text(response.name, `${at}.name`);
      if (response.id !== undefined) text(response.id, `${at}.id`);
      const body = record(response.response, `${at}.response`, [], ["output", "error"]);
      if (Object.keys(body).length !== 1) malformed(`${at}.response`, "expected exactly one of output and error");
      const ok = "output" in body;
      return { id: response.id as string | undefined, ok, text: text(ok ? body.output : body.error, `${at}.response`) };
    }),
  withoutCalls: [
    [
      "a response whose parts are only text",
      { candidates: [{ content: { role: "model", parts: [{ text: "hi" }] }, finishReason: "STOP" }] },
    ],
    [
      "a response with a thought and a text part",
      { candidates: [{ content: { role: "model", parts: [{ text: "hmm", thought: true }, { text: "hi" }] } }] },
    ],
    ["a response without candidates (a blocked prompt)", { promptFeedback: { blockReason: "SAFETY" } }],
    ["a response with an empty candidates list", { candidates: [] }],
    ["a candidate without content", { candidates: [{ finishReason: "SAFETY" }] }],
    ["model content whose parts are only text", { role: "model", parts: [{ text: "hi" }] }],
    ["a parts list of text", [{ text: "hi" }]],
    ["an empty parts list", []],
  ],
  wrongContainers: [
    ["{ parts: 5 }", { parts: 5 }],
    ["{ parts: {} }", { parts: {} }],
    ["{ candidates: 5 }", { candidates: 5 }],
    ["{ candidates: [null] }", { candidates: [null] }],
    ["{ candidates: [{ content: null }] }", { candidates: [{ content: null }] }],
    ["{ candidates: [{ content: 'x' }] }", { candidates: [{ content: "x" }] }],
    ["{ candidates: [{ content: { parts: {} } }] }", { candidates: [{ content: { parts: {} } }] }],
    ["[{ functionCall: null }]", [{ functionCall: null }]],
    ["[{ functionCall: 5 }]", [{ functionCall: 5 }]],
  ],
};

const openai: Provider = {
  label: "runOpenAI",
  run: (input, ctx) => kit.runOpenAI(input as never, ctx),
  empty: [],
  call: ({ id, name, args }) => ({ id, type: "function", function: { name, arguments: args } }),
  encode: (args) => JSON.stringify(args),
  forms: [
    [
      "a completion",
      (toolCalls) => ({
        id: "chatcmpl-1",
        object: "chat.completion",
        created: 0,
        model: "gpt-4.1",
        choices: [
          {
            index: 0,
            finish_reason: "tool_calls",
            logprobs: null,
            message: { role: "assistant", content: null, refusal: null, tool_calls: toolCalls },
          },
        ],
      }),
    ],
    [
      "an assistant message",
      (toolCalls) => ({ role: "assistant", content: null, refusal: null, tool_calls: toolCalls }),
    ],
    ["a tool_calls list", (toolCalls) => toolCalls],
  ],
  containerPaths: [
    ["a completion", ["choices"]],
    ["a completion", ["choices", 0]],
    ["a completion", ["choices", 0, "message"]],
    ["a completion", ["choices", 0, "message", "tool_calls"]],
    ["an assistant message", ["tool_calls"]],
  ],
  namePath: ["function", "name"],
  argsPath: ["function", "arguments"],
  idPath: ["id"],
  entryPaths: [["type"], ["function"]],
  answers: (reply) =>
    list(reply, "reply", false).map((entry, i) => {
      const message = record(entry, `reply[${i}]`, ["role", "tool_call_id", "content"]);
      if (message.role !== "tool") malformed(`reply[${i}].role`, "expected tool");
      const content = text(message.content, `reply[${i}].content`);
      return {
        id: text(message.tool_call_id, `reply[${i}].tool_call_id`),
        ok: !content.startsWith("Error:"),
        text: content,
      };
    }),
  withoutCalls: [
    [
      "a completion whose message is only text",
      {
        id: "chatcmpl-1",
        object: "chat.completion",
        created: 0,
        model: "gpt-4.1",
        choices: [
          {
            index: 0,
            finish_reason: "stop",
            logprobs: null,
            message: { role: "assistant", content: "hi", refusal: null },
          },
        ],
      },
    ],
    [
      "a completion without choices",
      { id: "chatcmpl-1", object: "chat.completion", created: 0, model: "gpt-4.1", choices: [] },
    ],
    ["an assistant message with text only", { role: "assistant", content: "hi", refusal: null }],
    [
      "an assistant message with tool_calls: null",
      { role: "assistant", content: "hi", refusal: null, tool_calls: null },
    ],
    [
      "an assistant message with an empty tool_calls list",
      { role: "assistant", content: null, refusal: null, tool_calls: [] },
    ],
    ["a refusal", { role: "assistant", content: null, refusal: "I cannot help with that" }],
    ["an empty tool_calls list", []],
  ],
  wrongContainers: [
    ["{ tool_calls: {} }", { tool_calls: {} }],
    ["{ tool_calls: 'x' }", { tool_calls: "x" }],
    ["{ choices: 5 }", { choices: 5 }],
    ["{ choices: {} }", { choices: {} }],
    ["{ choices: [null] }", { choices: [null] }],
    ["{ choices: [{ message: null }] }", { choices: [{ message: null }] }],
    ["{ choices: [{ message: { tool_calls: 5 } }] }", { choices: [{ message: { tool_calls: 5 } }] }],
  ],
};

const openaiResponses: Provider = {
  label: "runOpenAIResponses",
  run: (input, ctx) => kit.runOpenAIResponses(input as never, ctx),
  empty: [],
  call: ({ id, name, args }) => ({
    type: "function_call",
    id: `fc_${id}`,
    call_id: id,
    name,
    arguments: args,
    status: "completed",
  }),
  encode: (args) => JSON.stringify(args),
  forms: [
    [
      "a response",
      (output) => ({ id: "resp_1", object: "response", created_at: 0, status: "completed", model: "gpt-4.1", output }),
    ],
    ["an output list", (output) => output],
  ],
  containerPaths: [["a response", ["output"]]],
  namePath: ["name"],
  argsPath: ["arguments"],
  idPath: ["call_id"],
  entryPaths: [["type"]],
  answers: (reply) =>
    list(reply, "reply", false).map((entry, i) => {
      const item = record(entry, `reply[${i}]`, ["type", "call_id", "output"]);
      if (item.type !== "function_call_output") malformed(`reply[${i}].type`, "expected function_call_output");
      const output = text(item.output, `reply[${i}].output`);
      return { id: text(item.call_id, `reply[${i}].call_id`), ok: !output.startsWith("Error:"), text: output };
    }),
  withoutCalls: [
    [
      "a response whose output is one message",
      {
        id: "resp_1",
        object: "response",
        status: "completed",
        output: [
          {
            type: "message",
            id: "msg_1",
            role: "assistant",
            status: "completed",
            content: [{ type: "output_text", text: "hi", annotations: [] }],
          },
        ],
      },
    ],
    [
      "a response with reasoning and a message",
      {
        output: [
          { type: "reasoning", id: "rs_1", summary: [] },
          { type: "message", id: "msg_1", role: "assistant", content: [] },
        ],
      },
    ],
    ["a response with an empty output", { output: [] }],
    ["an empty output list", []],
  ],
  wrongContainers: [
    ["{ output: {} }", { output: {} }],
    ["{ output: 'x' }", { output: "x" }],
    ["{ output: 5 }", { output: 5 }],
    ["{ output: null }", { output: null }],
    ["{ output: { message: { content: 7 } } }", { output: { message: { content: 7 } } }],
  ],
};

const anthropic: Provider = {
  label: "runAnthropic",
  run: (input, ctx) => kit.runAnthropic(input as never, ctx),
  empty: undefined,
  call: ({ id, name, args }) => ({ type: "tool_use", id, name, input: args }),
  encode: (args) => args,
  forms: [
    [
      "a message",
      (content) => ({
        id: "msg_1",
        type: "message",
        role: "assistant",
        model: "claude-sonnet-4-5",
        content,
        stop_reason: "tool_use",
        stop_sequence: null,
        usage: { input_tokens: 1, output_tokens: 1 },
      }),
    ],
    ["a content list", (content) => content],
  ],
  containerPaths: [["a message", ["content"]]],
  namePath: ["name"],
  argsPath: ["input"],
  idPath: ["id"],
  entryPaths: [["type"]],
  answers: (reply) =>
    turn(reply, "content").map((entry, i) => {
      const at = `reply.content[${i}]`;
      const block = record(entry, at, ["type", "tool_use_id", "content"], ["is_error"]);
      if (block.type !== "tool_result") malformed(`${at}.type`, "expected tool_result");
      if (block.is_error !== undefined && typeof block.is_error !== "boolean")
        malformed(`${at}.is_error`, `expected a boolean, got ${kindOf(block.is_error)}`);
      const content = Array.isArray(block.content)
        ? list(block.content, `${at}.content`, true)
            .map((part, j) => {
              const textBlock = record(part, `${at}.content[${j}]`, ["type", "text"]);
              if (textBlock.type !== "text") malformed(`${at}.content[${j}].type`, "expected text");
              return text(textBlock.text, `${at}.content[${j}].text`);
            })
            .join("")
        : text(block.content, `${at}.content`);
      return { id: text(block.tool_use_id, `${at}.tool_use_id`), ok: block.is_error !== true, text: content };
    }),
  withoutCalls: [
    [
      "a message with only a text block",
      {
        id: "msg_1",
        type: "message",
        role: "assistant",
        model: "claude-sonnet-4-5",
        content: [{ type: "text", text: "hi", citations: null }],
        stop_reason: "end_turn",
        stop_sequence: null,
        usage: { input_tokens: 1, output_tokens: 1 },
      },
    ],
    [
      "a message with thinking and text",
      {
        role: "assistant",
        content: [
          { type: "thinking", thinking: "hmm", signature: "sig" },
          { type: "text", text: "hi" },
        ],
      },
    ],
    ["a message with empty content", { role: "assistant", content: [] }],
    ["a text block list", [{ type: "text", text: "hi" }]],
    ["an empty content list", []],
  ],
  wrongContainers: [
    ["{ content: 'x' }", { content: "x" }],
    ["{ content: 5 }", { content: 5 }],
    ["{ content: {} }", { content: {} }],
    ["{ content: null }", { content: null }],
    ["{ content: { type: 'tool_use' } }", { content: { type: "tool_use", id: "t", name: "echo", input: {} } }],
  ],
};

const bedrock: Provider = {
  label: "runBedrock",
  run: (input, ctx) => kit.runBedrock(input as never, ctx),
  empty: undefined,
  call: ({ id, name, args }) => ({ toolUse: { toolUseId: id, name, input: args } }),
  encode: (args) => args,
  forms: [
    [
      "a Converse response",
      (content) => ({
        output: { message: { role: "assistant", content } },
        stopReason: "tool_use",
        usage: { inputTokens: 1, outputTokens: 1, totalTokens: 2 },
        metrics: { latencyMs: 1 },
      }),
    ],
    ["an assistant message", (content) => ({ role: "assistant", content })],
    ["a content list", (content) => content],
  ],
  containerPaths: [
    ["a Converse response", ["output"]],
    ["a Converse response", ["output", "message"]],
    ["a Converse response", ["output", "message", "content"]],
    ["an assistant message", ["content"]],
  ],
  namePath: ["toolUse", "name"],
  argsPath: ["toolUse", "input"],
  idPath: ["toolUse", "toolUseId"],
  entryPaths: [["toolUse"]],
  answers: (reply) =>
    turn(reply, "content").map((entry, i) => {
      const at = `reply.content[${i}].toolResult`;
      const result = record(record(entry, `reply.content[${i}]`, ["toolResult"]).toolResult, at, [
        "toolUseId",
        "content",
        "status",
      ]);
      if (result.status !== "success" && result.status !== "error")
        malformed(`${at}.status`, "expected success or error");
      const body = list(result.content, `${at}.content`, true)
        .map((part, j) => {
          const value = text(record(part, `${at}.content[${j}]`, ["text"]).text, `${at}.content[${j}].text`);
          if (value === "") malformed(`${at}.content[${j}].text`, "an empty text block (Converse rejects it)");
          return value;
        })
        .join("");
      return { id: text(result.toolUseId, `${at}.toolUseId`), ok: result.status === "success", text: body };
    }),
  withoutCalls: [
    [
      "a Converse response with only text",
      {
        output: { message: { role: "assistant", content: [{ text: "hi" }] } },
        stopReason: "end_turn",
        usage: { inputTokens: 1, outputTokens: 1, totalTokens: 2 },
        metrics: { latencyMs: 1 },
      },
    ],
    [
      "a Converse response with reasoning and text",
      {
        output: {
          message: {
            role: "assistant",
            content: [{ reasoningContent: { reasoningText: { text: "hmm" } } }, { text: "hi" }],
          },
        },
      },
    ],
    ["an assistant message with only text", { role: "assistant", content: [{ text: "hi" }] }],
    ["a content list of text", [{ text: "hi" }]],
    ["an empty content list", []],
  ],
  wrongContainers: [
    ["{ output: {} }", { output: {} }],
    ["{ output: 5 }", { output: 5 }],
    ["{ output: null }", { output: null }],
    ["{ output: { message: null } }", { output: { message: null } }],
    ["{ output: { message: { content: 7 } } }", { output: { message: { content: 7 } } }],
    ["{ content: 7 }", { content: 7 }],
    ["{ content: {} }", { content: {} }],
    ["[{ toolUse: 5 }]", [{ toolUse: 5 }]],
  ],
};

const ollama: Provider = {
  label: "runOllama",
  run: (input, ctx) => kit.runOllama(input as never, ctx),
  empty: [],
  // Ollama 0.12.10 and later give each call an id, answered as `tool_call_id`.
  call: ({ id, name, args }) => ({ id, function: { index: 0, name, arguments: args } }),
  encode: (args) => args,
  forms: [
    [
      "a chat response",
      (toolCalls) => ({
        model: "qwen3",
        created_at: "2026-01-01T00:00:00Z",
        message: { role: "assistant", content: "", tool_calls: toolCalls },
        done: true,
        done_reason: "stop",
        total_duration: 1,
        load_duration: 1,
        prompt_eval_count: 1,
        prompt_eval_duration: 1,
        eval_count: 1,
        eval_duration: 1,
      }),
    ],
    ["an assistant message", (toolCalls) => ({ role: "assistant", content: "", tool_calls: toolCalls })],
    ["a tool_calls list", (toolCalls) => toolCalls],
  ],
  containerPaths: [
    ["a chat response", ["message"]],
    ["a chat response", ["message", "tool_calls"]],
    ["an assistant message", ["tool_calls"]],
  ],
  namePath: ["function", "name"],
  argsPath: ["function", "arguments"],
  idPath: ["id"],
  entryPaths: [["function"]],
  answers: (reply) =>
    list(reply, "reply", false).map((entry, i) => {
      const message = record(entry, `reply[${i}]`, ["role", "content", "tool_name"], ["tool_call_id", "images"]);
      if (message.role !== "tool") malformed(`reply[${i}].role`, "expected tool");
      text(message.tool_name, `reply[${i}].tool_name`);
      if (message.images !== undefined)
        list(message.images, `reply[${i}].images`, true).forEach((image, j) => text(image, `reply[${i}].images[${j}]`));
      const content = text(message.content, `reply[${i}].content`);
      const id =
        message.tool_call_id === undefined ? undefined : text(message.tool_call_id, `reply[${i}].tool_call_id`);
      return { id, ok: !content.startsWith("Error:"), text: content };
    }),
  withoutCalls: [
    [
      "a chat response whose message is only text",
      {
        model: "qwen3",
        created_at: "2026-01-01T00:00:00Z",
        message: { role: "assistant", content: "hi" },
        done: true,
        done_reason: "stop",
      },
    ],
    [
      "a chat response with thinking and text",
      { model: "qwen3", message: { role: "assistant", content: "hi", thinking: "hmm" }, done: true },
    ],
    ["an assistant message with text only", { role: "assistant", content: "hi" }],
    ["an assistant message with tool_calls: null", { role: "assistant", content: "hi", tool_calls: null }],
    ["an assistant message with an empty tool_calls list", { role: "assistant", content: "", tool_calls: [] }],
    ["an empty tool_calls list", []],
  ],
  wrongContainers: [
    ["{ tool_calls: {} }", { tool_calls: {} }],
    ["{ tool_calls: 'x' }", { tool_calls: "x" }],
    ["{ message: 5 }", { message: 5 }],
    ["{ message: [] }", { message: [] }],
    ["{ message: null }", { message: null }],
    ["{ message: { tool_calls: 5 } }", { message: { tool_calls: 5 } }],
    ["[{ function: null }]", [{ function: null }]],
    ["[{ function: 5 }]", [{ function: 5 }]],
  ],
};

const PROVIDERS: Provider[] = [gemini, openai, openaiResponses, anthropic, bedrock, ollama];

// ---- Expectations ----------------------------------------------------------------------------

function messageOf(error: unknown): string {
  try {
    return error instanceof Error ? error.message : String(error);
  } catch {
    return kindOf(error);
  }
}

/** Runs `input` through the provider: a synchronous throw, a non-promise or a rejection fails the test. */
async function settle(provider: Provider, input: unknown, ctx?: ToolContext): Promise<unknown> {
  let pending: unknown;
  try {
    pending = provider.run(input, ctx);
  } catch (error) {
    throw new Error(`${provider.label} threw synchronously: ${messageOf(error)}`);
  }
  if (!(pending instanceof Promise)) throw new Error(`${provider.label} returned ${kindOf(pending)}, not a promise`);
  try {
    return await pending;
  } catch (error) {
    throw new Error(`${provider.label} rejected: ${messageOf(error)}`);
  }
}

/** Nothing to append, or one error answer. */
function expectNothingOrOneError(provider: Provider, reply: unknown): void {
  const answers = provider.answers(reply);
  if (answers.length === 0) expect(reply).toEqual(provider.empty);
  else {
    expect(answers).toHaveLength(1);
    expect(answers[0]!.ok).toBe(false);
  }
}

/** No tool ran: every answer, if any, is an error. */
function expectNoCallRan(provider: Provider, reply: unknown): void {
  expect(provider.answers(reply).filter((answer) => answer.ok)).toEqual([]);
}

interface Expected {
  id: string;
  ok: boolean;
  text?: string;
}

/**
 * The expected calls are answered exactly once each, in call order, as expected. Other answers:
 * "none" allows none, "errors" allows only errors, "any" leaves them open.
 */
function expectAnswered(
  provider: Provider,
  reply: unknown,
  expected: Expected[],
  others: "none" | "errors" | "any",
): void {
  const answers = provider.answers(reply);
  const ids = new Set(expected.map((call) => call.id));
  const mine = answers.filter((answer) => answer.id !== undefined && ids.has(answer.id));
  expect(mine.map((answer) => answer.id)).toEqual(expected.map((call) => call.id));
  mine.forEach((answer, i) => {
    expect({ id: answer.id, ok: answer.ok }).toEqual({ id: expected[i]!.id, ok: expected[i]!.ok });
    if (expected[i]!.text !== undefined) expect(answer.text).toEqual(expected[i]!.text);
  });
  const rest = answers.filter((answer) => !mine.includes(answer));
  if (others === "none") expect(rest).toEqual([]);
  if (others === "errors") expect(rest.filter((answer) => answer.ok)).toEqual([]);
}

function good(provider: Provider, id: string, textValue: string, delay?: number): unknown {
  return provider.call({
    id,
    name: "echo",
    args: provider.encode(delay === undefined ? { text: textValue } : { text: textValue, delay }),
  });
}

const answeredEcho = (id: string, textValue: string): Expected => ({ id, ok: true, text: `echo:${textValue}` });

// ---- The specification ---------------------------------------------------------------------

describe.each(PROVIDERS)("$label", (provider) => {
  const [firstForm, wrapFirst] = provider.forms[0]!;
  const formByName = new Map(provider.forms);

  describe("never rejects and never throws, whatever it is handed", () => {
    it.each(NOT_A_RESPONSE)("%s: nothing to append, or one error", async (_label, make) => {
      expectNothingOrOneError(provider, await settle(provider, make()));
    });

    it.each(provider.wrongContainers)(
      "a container of the wrong type, %s: nothing to append, or one error",
      async (_label, input) => {
        expectNothingOrOneError(provider, await settle(provider, input));
      },
    );

    it.each(LISTS_WITHOUT_CALLS)("a list holding %s: no tool runs", async (_label, make) => {
      for (const [, wrap] of provider.forms) expectNoCallRan(provider, await settle(provider, wrap(make())));
    });

    it.each(provider.containerPaths.map(([form, path]) => [form, path.join("."), path] as const))(
      "%s whose %s is unreadable (a throwing getter, a throwing Proxy, a revoked Proxy): nothing to append, or one error",
      async (form, _field, path) => {
        const response = formByName.get(form)!([good(provider, "c1", "a"), good(provider, "c2", "b")]);
        for (const set of [
          throwingGetter,
          setTo(throwingProxy()),
          setTo(throwingProxy([])),
          setTo(revokedProxy()),
          setTo(revokedProxy([])),
        ]) {
          expectNothingOrOneError(provider, await settle(provider, replaceAt(response, path, set)));
        }
      },
    );

    it("a response that is itself a Proxy whose traps throw: nothing to append, or one error", async () => {
      for (const [, wrap] of provider.forms) {
        const response = wrap([good(provider, "c1", "a")]);
        expectNothingOrOneError(provider, await settle(provider, throwingProxy(response as object)));
      }
    });

    it("with a shared context, too: nothing to append, or one error", async () => {
      const ctx: ToolContext = { timeout: 1_000, state: { user: "u-1" } };
      expectNothingOrOneError(provider, await settle(provider, undefined, ctx));
      expectNothingOrOneError(provider, await settle(provider, throwingProxy(), ctx));
    });
  });

  describe("a bad call is an error for that call; the other calls run and are answered in call order", () => {
    it.each(provider.forms)("in %s: good, failing, unknown and unreadable calls side by side", async (_form, wrap) => {
      const entries = [
        good(provider, "c1", "first", 30),
        replaceAt(
          provider.call({ id: "c2", name: "echo", args: provider.encode({ text: "x" }) }),
          provider.namePath,
          throwingGetter,
        ),
        provider.call({ id: "c3", name: "fail", args: provider.encode({}) }),
        replaceAt(
          provider.call({ id: "c4", name: "echo", args: provider.encode({ text: "x" }) }),
          provider.argsPath,
          throwingGetter,
        ),
        provider.call({ id: "c5", name: 42, args: provider.encode({ text: "x" }) }),
        good(provider, "c6", "second"),
        provider.call({ id: "c7", name: "no_such_tool", args: provider.encode({}) }),
      ];
      const reply = await settle(provider, wrap(entries), { state: { user: "u-1" } });
      expectAnswered(
        provider,
        reply,
        [
          answeredEcho("c1", "first"),
          { id: "c2", ok: false },
          { id: "c3", ok: false, text: expect.stringContaining("fail always throws") as unknown as string },
          { id: "c4", ok: false },
          { id: "c5", ok: false },
          answeredEcho("c6", "second"),
          { id: "c7", ok: false },
        ],
        "none",
      );
    });

    it.each(NON_STRING_NAMES)("a name that is %s", async (_label, makeName) => {
      const bad = replaceAt(
        provider.call({ id: "c2", name: "echo", args: provider.encode({ text: "x" }) }),
        provider.namePath,
        setTo(makeName()),
      );
      const reply = await settle(provider, wrapFirst([good(provider, "c1", "a"), bad, good(provider, "c3", "b")]));
      expectAnswered(
        provider,
        reply,
        [answeredEcho("c1", "a"), { id: "c2", ok: false }, answeredEcho("c3", "b")],
        "none",
      );
    });

    it("a name whose getter throws", async () => {
      const bad = replaceAt(
        provider.call({ id: "c2", name: "echo", args: provider.encode({ text: "x" }) }),
        provider.namePath,
        throwingGetter,
      );
      const reply = await settle(provider, wrapFirst([good(provider, "c1", "a"), bad, good(provider, "c3", "b")]));
      expectAnswered(
        provider,
        reply,
        [answeredEcho("c1", "a"), { id: "c2", ok: false }, answeredEcho("c3", "b")],
        "none",
      );
    });

    it.each(UNREADABLE_ARGUMENTS)("arguments that are %s", async (_label, makeSetter) => {
      const bad = replaceAt(
        provider.call({ id: "c2", name: "echo", args: provider.encode({ text: "x" }) }),
        provider.argsPath,
        makeSetter(),
      );
      const reply = await settle(provider, wrapFirst([good(provider, "c1", "a"), bad, good(provider, "c3", "b")]));
      expectAnswered(
        provider,
        reply,
        [answeredEcho("c1", "a"), { id: "c2", ok: false }, answeredEcho("c3", "b")],
        "none",
      );
    });

    it("an id whose getter throws does not stop the other calls", async () => {
      const bad = replaceAt(good(provider, "c2", "x"), provider.idPath, throwingGetter);
      const reply = await settle(provider, wrapFirst([good(provider, "c1", "a"), bad, good(provider, "c3", "b")]));
      expectAnswered(provider, reply, [answeredEcho("c1", "a"), answeredEcho("c3", "b")], "any");
    });

    it.each(provider.entryPaths.map((path) => path.join(".")))(
      "an entry whose %s getter throws does not stop the other calls",
      async (field) => {
        const bad = replaceAt(good(provider, "c2", "x"), field.split("."), throwingGetter);
        const reply = await settle(provider, wrapFirst([good(provider, "c1", "a"), bad, good(provider, "c3", "b")]));
        expectAnswered(provider, reply, [answeredEcho("c1", "a"), answeredEcho("c3", "b")], "any");
      },
    );

    it.each([
      ["a Proxy whose traps throw", () => throwingProxy()],
      ["a revoked Proxy", () => revokedProxy()],
      ["null", () => null],
      ["a number", () => 7],
      ["the list itself", undefined],
    ] as Array<[string, (() => unknown) | undefined]>)(
      "an entry that is %s does not stop the other calls",
      async (_label, make) => {
        const entries: unknown[] = [good(provider, "c1", "a"), undefined, good(provider, "c3", "b")];
        entries[1] = make === undefined ? entries : make();
        const reply = await settle(provider, wrapFirst(entries));
        expectAnswered(provider, reply, [answeredEcho("c1", "a"), answeredEcho("c3", "b")], "errors");
      },
    );

    it("a list slot whose getter throws does not stop the other calls", async () => {
      const entries = [good(provider, "c1", "a"), undefined, good(provider, "c3", "b")];
      throwingGetter(entries, 1);
      const reply = await settle(provider, wrapFirst(entries));
      expectAnswered(provider, reply, [answeredEcho("c1", "a"), answeredEcho("c3", "b")], "errors");
    });
  });

  describe("data of every kind is read as data", () => {
    it.each(provider.forms)("%s built of null-prototype objects runs like a plain one", async (_form, wrap) => {
      const response = withNullPrototypes(
        wrap([
          good(provider, "c1", "a"),
          provider.call({ id: "c2", name: "fail", args: provider.encode({}) }),
          good(provider, "c3", "b"),
        ]),
      );
      expectAnswered(
        provider,
        await settle(provider, response),
        [answeredEcho("c1", "a"), { id: "c2", ok: false }, answeredEcho("c3", "b")],
        "none",
      );
    });

    it.each(provider.forms)("%s, deeply frozen, runs like a plain one", async (_form, wrap) => {
      const response = frozenCopy(
        wrap([
          good(provider, "c1", "a"),
          provider.call({ id: "c2", name: "fail", args: provider.encode({}) }),
          good(provider, "c3", "b"),
        ]),
      );
      expectAnswered(
        provider,
        await settle(provider, response),
        [answeredEcho("c1", "a"), { id: "c2", ok: false }, answeredEcho("c3", "b")],
        "none",
      );
    });

    it("cyclic arguments are answered for their call, and the other calls run", async () => {
      const args: Record<string, unknown> = { text: "loop" };
      args.self = args;
      const cyclic = provider.call({ id: "c2", name: "echo", args });
      const reply = await settle(provider, wrapFirst([good(provider, "c1", "a"), cyclic, good(provider, "c3", "b")]));
      expectAnswered(provider, reply, [answeredEcho("c1", "a"), answeredEcho("c3", "b")], "any");
      expect(provider.answers(reply).map((answer) => answer.id)).toEqual(["c1", "c2", "c3"]);
    });

    it(`${firstForm} that holds itself still runs its calls`, async () => {
      const response = wrapFirst([good(provider, "c1", "a")]) as Record<string, unknown>;
      response.self = response;
      expectAnswered(provider, await settle(provider, response), [answeredEcho("c1", "a")], "none");
    });
  });

  describe(`a response without tool calls resolves to ${provider.empty === undefined ? "undefined: nothing to append" : "[]"}`, () => {
    it.each(provider.withoutCalls)("%s", async (_label, input) => {
      const reply = await settle(provider, input);
      if (provider.empty === undefined) expect(reply).toBeUndefined();
      else expect(reply).toEqual([]);
    });
  });

  describe("arbitrary garbage (fast-check, fixed seed)", () => {
    const seed = 20_250_101 + PROVIDERS.indexOf(provider);
    const callKeys = [
      "name",
      "functionCall",
      "function_call",
      "function",
      "custom",
      "type",
      "toolUse",
      "id",
      "call_id",
      "toolUseId",
    ];
    const notCallShaped = (value: unknown) =>
      typeof value !== "object" ||
      value === null ||
      !Reflect.ownKeys(value).some((key) => callKeys.includes(key as string));
    const garbage = fc.oneof(
      fc.anything(),
      fc.anything({
        maxDepth: 3,
        withBigInt: true,
        withBoxedValues: true,
        withDate: true,
        withMap: true,
        withNullPrototype: true,
        withObjectString: true,
        withSet: true,
        withSparseArray: true,
        withTypedArray: true,
      }),
    );
    const shape = fc.constantFrom("plain", "frozen", "null-prototype");
    const reshape = (value: unknown, how: string) =>
      how === "frozen" ? frozenCopy(value) : how === "null-prototype" ? withNullPrototypes(value) : value;

    it("garbage anywhere in a response never makes it reject or throw, and every answer is well-formed and an error", async () => {
      const atContainer = fc
        .record({ at: fc.nat(provider.containerPaths.length - 1), value: garbage })
        .map(({ at, value }) => {
          const [form, path] = provider.containerPaths[at]!;
          return replaceAt(formByName.get(form)!([]), path, setTo(value));
        });
      const asList = fc
        .record({ form: fc.nat(provider.forms.length - 1), value: garbage })
        .map(({ form, value }) => provider.forms[form]![1](value as unknown[]));
      await fc.assert(
        fc.asyncProperty(fc.oneof(garbage, atContainer, asList), shape, async (input, how) => {
          const reply = await settle(provider, reshape(input, how));
          expect(provider.answers(reply).filter((answer) => answer.ok)).toEqual([]);
        }),
        { numRuns: 400, seed },
      );
    });

    it("valid calls mixed with bad calls and garbage: one answer per call, in call order, the valid ones run", async () => {
      const entry = fc.oneof(
        {
          weight: 3,
          arbitrary: fc.record({
            kind: fc.constant("valid" as const),
            name: fc.constantFrom("echo", "fail", "no_such_tool"),
            text: fc.string(),
          }),
        },
        {
          weight: 2,
          arbitrary: fc.record({
            kind: fc.constant("bad name" as const),
            name: garbage.filter((name) => typeof name !== "string"),
            args: garbage,
          }),
        },
        {
          weight: 2,
          arbitrary: fc.record({
            kind: fc.constant("garbage arguments" as const),
            name: fc.constantFrom("echo", "fail"),
            args: garbage,
          }),
        },
        {
          weight: 2,
          arbitrary: fc.record({ kind: fc.constant("noise" as const), value: garbage.filter(notCallShaped) }),
        },
      );
      await fc.assert(
        fc.asyncProperty(
          fc.array(entry, { maxLength: 8 }),
          fc.nat(provider.forms.length - 1),
          shape,
          async (specs, form, how) => {
            const expected: Expected[] = [];
            const entries = specs.map((spec, i) => {
              if (spec.kind === "noise") return spec.value;
              const id = `call_${i}`;
              if (spec.kind === "valid") {
                expected.push(spec.name === "echo" ? answeredEcho(id, spec.text) : { id, ok: false });
                return provider.call({ id, name: spec.name, args: provider.encode({ text: spec.text }) });
              }
              if (spec.kind === "bad name") expected.push({ id, ok: false });
              else expected.push({ id, ok: expect.any(Boolean) as unknown as boolean });
              return provider.call({ id, name: spec.name, args: spec.args });
            });
            const reply = await settle(provider, reshape(provider.forms[form]![1](entries), how));
            expectAnswered(provider, reply, expected, "errors");
            if (expected.length === 0 && provider.answers(reply).length === 0) expect(reply).toEqual(provider.empty);
          },
        ),
        { numRuns: 400, seed },
      );
    });
  });
});
