/**
 * Whether an MCP client can answer a question, from the capabilities it declared, and when it
 * cannot, what it would have to declare (the `requiredCapabilities` of MCP's missing-capability
 * error): forms and URLs are two modes of elicitation, sampling with tools needs `sampling.tools`.
 * A round of questions keeps which refusal needed what, and finds it behind the errors it caused.
 */
import { InputUnavailableError, PrimitiveError } from "../../src/core/errors";
import { unanswerable } from "../../src/mcp/client-capabilities";
import { InputRound, type AskedInput } from "../../src/mcp/input-round";

const form: AskedInput = {
  kind: "elicit",
  request: { message: "Name?", schema: { type: "object", properties: { name: { type: "string" } } } },
};
const url: AskedInput = { kind: "elicit", request: { message: "Sign in", url: "https://example.com/login" } };
const sample: AskedInput = { kind: "sample", params: { messages: [], maxTokens: 5 } };
const sampleWithTools: AskedInput = { kind: "sample", params: { messages: [], maxTokens: 5, tools: [] } };

describe("unanswerable", () => {
  it.each([
    ["a form", {}, form, { elicitation: { form: {} } }],
    ["a form", { elicitation: { url: {} } }, form, { elicitation: { form: {} } }],
    ["a URL", { elicitation: {} }, url, { elicitation: { url: {} } }],
    ["a URL", { elicitation: { form: {} } }, url, { elicitation: { url: {} } }],
    ["a sampling request", { elicitation: {} }, sample, { sampling: {} }],
    ["a sampling request with tools", { sampling: {} }, sampleWithTools, { sampling: { tools: {} } }],
  ])("says what %s needs of a client that declared %j", (_what, declared, asked, required) => {
    expect(unanswerable(declared, asked)).toEqual({ why: expect.stringMatching(/^ctx\.(elicit|sample): /), required });
  });

  it.each([
    ["a form", { elicitation: {} }, form],
    ["a form", { elicitation: { form: {}, url: {} } }, form],
    ["a URL", { elicitation: { url: {} } }, url],
    ["a sampling request", { sampling: {} }, sample],
    ["a sampling request with tools", { sampling: { tools: {} } }, sampleWithTools],
  ])("lets a client answer %s when it declared %j", (_what, declared, asked) => {
    expect(unanswerable(declared, asked)).toBeUndefined();
  });
});

describe("a round's refusals", () => {
  const round = () => new InputRound(undefined, undefined, { elicitation: {} }, () => {});

  it("are found behind the errors they caused, with the capability each needed", async () => {
    const asking = round();
    const refusal = await asking.sample({ messages: "hi", maxTokens: 5 }).catch((error: unknown) => error);
    expect(refusal).toBeInstanceOf(InputUnavailableError);
    expect(asking.requiredBy(refusal)).toEqual({ sampling: {} });
    const failure = new PrimitiveError('Prompt "p" failed', "failed", { cause: refusal });
    expect(asking.requiredBy(new Error("wire", { cause: failure }))).toEqual({ sampling: {} });
  });

  it("are not confused with other errors, or with another round's refusals", async () => {
    const asking = round();
    const other = round();
    const refusal = await other.sample({ messages: "hi", maxTokens: 5 }).catch((error: unknown) => error);
    expect(asking.requiredBy(refusal)).toBeUndefined();
    expect(asking.requiredBy(new InputUnavailableError("ctx.sample: no"))).toBeUndefined();
    expect(asking.requiredBy("a string")).toBeUndefined();
    expect(asking.requiredBy(undefined)).toBeUndefined();
  });
});
