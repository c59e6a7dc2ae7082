/**
 * What a resource's or prompt's method returns, made into what MCP sends: resource contents
 * (text or a base64 blob, with the URI and media type) and prompt messages. A shape that cannot
 * be either is refused with a PrimitiveError saying what to return.
 */
import { PrimitiveError } from "toolnexus";
import { promptResultOf, resourceContentsOf } from "../../src/runtime/primitive-results";

/** The error `run` throws (the test fails when it throws none). */
function thrownBy(run: () => unknown): unknown {
  try {
    run();
  } catch (error) {
    return error;
  }
  throw new Error("expected a throw");
}

describe("a resource's contents", () => {
  const uri = "docs://readme";

  it("are a string's text, as text/plain by default", () => {
    expect(resourceContentsOf("# Readme", uri, undefined)).toEqual([{ uri, mimeType: "text/plain", text: "# Readme" }]);
  });

  it("are a string's text with the resource's media type when it has one", () => {
    expect(resourceContentsOf("# Readme", uri, "text/markdown")).toEqual([
      { uri, mimeType: "text/markdown", text: "# Readme" },
    ]);
  });

  it("are a Buffer's bytes as a base64 blob, application/octet-stream by default", () => {
    expect(resourceContentsOf(Buffer.from("hello"), uri, undefined)).toEqual([
      { uri, mimeType: "application/octet-stream", blob: "aGVsbG8=" },
    ]);
  });

  it("are a Uint8Array's bytes as a base64 blob of the resource's media type", () => {
    expect(resourceContentsOf(new Uint8Array([137, 80, 78, 71]), uri, "image/png")).toEqual([
      { uri, mimeType: "image/png", blob: "iVBORw==" },
    ]);
  });

  it("are an ArrayBuffer's bytes as a base64 blob", () => {
    expect(resourceContentsOf(new Uint8Array([1, 2, 3]).buffer, uri, undefined)).toEqual([
      { uri, mimeType: "application/octet-stream", blob: "AQID" },
    ]);
  });

  it("are an object's JSON, as application/json by default", () => {
    expect(resourceContentsOf({ theme: "dark", size: 3 }, uri, undefined)).toEqual([
      { uri, mimeType: "application/json", text: '{"theme":"dark","size":3}' },
    ]);
  });

  it("are a number's, a boolean's and null's JSON", () => {
    expect(resourceContentsOf(42, uri, undefined)).toEqual([{ uri, mimeType: "application/json", text: "42" }]);
    expect(resourceContentsOf(false, uri, undefined)).toEqual([{ uri, mimeType: "application/json", text: "false" }]);
    expect(resourceContentsOf(null, uri, undefined)).toEqual([{ uri, mimeType: "application/json", text: "null" }]);
  });

  it("are an empty list's JSON", () => {
    expect(resourceContentsOf([], uri, undefined)).toEqual([{ uri, mimeType: "application/json", text: "[]" }]);
  });

  it("are the JSON of an object with a cycle, the cycle marked", () => {
    const node: Record<string, unknown> = { name: "root" };
    node.self = node;
    expect(resourceContentsOf(node, uri, undefined)).toEqual([
      { uri, mimeType: "application/json", text: '{"name":"root","self":"[Circular]"}' },
    ]);
  });

  it("take { text } contents with the resource's URI and media type filled in", () => {
    expect(resourceContentsOf({ text: "body" }, uri, "text/html")).toEqual([
      { uri, mimeType: "text/html", text: "body" },
    ]);
  });

  it("take { text } contents without a media type when neither gives one", () => {
    expect(resourceContentsOf({ text: "body" }, uri, undefined)).toEqual([{ uri, text: "body" }]);
  });

  it("keep the URI, media type and annotations the contents give", () => {
    const annotations = { audience: ["user" as const], priority: 0.5 };
    expect(
      resourceContentsOf({ uri: "docs://other", mimeType: "text/csv", text: "a,b", annotations }, uri, "text/plain"),
    ).toEqual([{ uri: "docs://other", mimeType: "text/csv", text: "a,b", annotations }]);
  });

  it("take { blob } contents as a base64 string as they are", () => {
    expect(resourceContentsOf({ blob: "AQID", mimeType: "image/gif" }, uri, undefined)).toEqual([
      { uri, mimeType: "image/gif", blob: "AQID" },
    ]);
  });

  it("take { blob } contents as bytes, encoding them as base64", () => {
    expect(resourceContentsOf({ blob: Buffer.from([1, 2, 3]) }, uri, "application/pdf")).toEqual([
      { uri, mimeType: "application/pdf", blob: "AQID" },
    ]);
  });

  it("take a list of contents, each filled in", () => {
    expect(
      resourceContentsOf([{ text: "one" }, { uri: "docs://two", blob: new Uint8Array([255]) }], uri, "x/y"),
    ).toEqual([
      { uri, mimeType: "x/y", text: "one" },
      { uri: "docs://two", mimeType: "x/y", blob: "/w==" },
    ]);
  });

  it("are a list's JSON when not every item is contents", () => {
    expect(resourceContentsOf([{ text: "one" }, "two"], uri, undefined)).toEqual([
      { uri, mimeType: "application/json", text: '[{"text":"one"},"two"]' },
    ]);
  });

  it("are the JSON of a content part with a type (a tool's content, not resource contents)", () => {
    expect(resourceContentsOf({ type: "text", text: "hi" }, uri, undefined)).toEqual([
      { uri, mimeType: "application/json", text: '{"type":"text","text":"hi"}' },
    ]);
  });

  it("refuse undefined with a PrimitiveError of kind failed saying what to return", () => {
    const error = thrownBy(() => resourceContentsOf(undefined, uri, undefined));
    expect(error).toBeInstanceOf(PrimitiveError);
    expect(error).toMatchObject({
      kind: "failed",
      message:
        "The resource docs://readme read nothing: return a string, bytes, a JSON value, or { text } / { blob } contents.",
    });
  });

  it("refuse a function, which has no JSON, saying what to return", () => {
    expect(() => resourceContentsOf(() => "x", uri, undefined)).toThrow(
      "The resource docs://readme read nothing: return a string, bytes, a JSON value, or { text } / { blob } contents.",
    );
  });

  it("refuse a blob that is neither bytes nor a base64 string, saying so", () => {
    const error = thrownBy(() => resourceContentsOf({ blob: 42 }, uri, undefined));
    expect(error).toBeInstanceOf(PrimitiveError);
    expect(error).toMatchObject({
      kind: "failed",
      message: "The resource docs://readme: blob must be bytes or a base64 string.",
    });
  });
});

describe("a prompt's messages", () => {
  it("are a string as one user text message", () => {
    expect(promptResultOf("Summarize this", "summarize")).toEqual({
      messages: [{ role: "user", content: { type: "text", text: "Summarize this" } }],
    });
  });

  it("are a list of messages, string contents becoming text", () => {
    expect(
      promptResultOf(
        [
          { role: "user", content: "What is 2 + 2?" },
          { role: "assistant", content: "4" },
        ],
        "math",
      ),
    ).toEqual({
      messages: [
        { role: "user", content: { type: "text", text: "What is 2 + 2?" } },
        { role: "assistant", content: { type: "text", text: "4" } },
      ],
    });
  });

  it("are { description, messages } with the description kept", () => {
    expect(promptResultOf({ description: "A greeting", messages: [{ role: "user", content: "Hi" }] }, "greet")).toEqual(
      {
        description: "A greeting",
        messages: [{ role: "user", content: { type: "text", text: "Hi" } }],
      },
    );
  });

  it("are { messages } without a description", () => {
    expect(promptResultOf({ messages: [] }, "empty")).toEqual({ messages: [] });
  });

  it("take text, image, audio, embedded resource and resource link parts as they are", () => {
    const parts = [
      { type: "text", text: "Look:", annotations: { priority: 1 } },
      { type: "image", data: "iVBORw==", mimeType: "image/png" },
      { type: "audio", data: "UklGRg==", mimeType: "audio/wav" },
      { type: "resource", resource: { uri: "docs://readme", mimeType: "text/plain", text: "# Readme" } },
      { type: "resource", resource: { uri: "files://logo", blob: "AQID" } },
      { type: "resource_link", uri: "docs://guide", name: "guide", mimeType: "text/markdown" },
    ];
    expect(
      promptResultOf(
        parts.map((content) => ({ role: "user", content })),
        "parts",
      ),
    ).toEqual({
      messages: parts.map((content) => ({ role: "user", content })),
    });
  });

  const fix =
    'Prompt "review" must return a string, a list of { role: "user" | "assistant", content } messages, or ' +
    "{ description?, messages }";

  it.each([
    ["undefined", undefined],
    ["a number", 42],
    ["null", null],
    ["an object without messages", { text: "hi" }],
    ["messages that are not a list", { messages: "hi" }],
  ])("refuse %s with a PrimitiveError of kind failed saying what to return", (_label, value) => {
    const error = thrownBy(() => promptResultOf(value, "review"));
    expect(error).toBeInstanceOf(PrimitiveError);
    expect(error).toMatchObject({ kind: "failed", message: `${fix}.` });
  });

  it("refuse a description that is not a string", () => {
    expect(() => promptResultOf({ description: 7, messages: [] }, "review")).toThrow(
      `${fix}: description must be a string.`,
    );
  });

  it("refuse a message without a user or assistant role, naming which message", () => {
    expect(() =>
      promptResultOf(
        [
          { role: "user", content: "ok" },
          { role: "system", content: "no" },
        ],
        "review",
      ),
    ).toThrow(`${fix}: message 2 needs role "user" or "assistant".`);
  });

  it("refuse a message that is not an object, naming which message", () => {
    expect(() => promptResultOf(["just text"], "review")).toThrow(
      `${fix}: message 1 needs role "user" or "assistant".`,
    );
  });

  it.each([
    ["a part of an unknown type", { type: "video", url: "https://example.com/v.mp4" }],
    ["a text part without text", { type: "text" }],
    ["an image without a media type", { type: "image", data: "AQID" }],
    ["audio without data", { type: "audio", mimeType: "audio/wav" }],
    ["an embedded resource without a URI", { type: "resource", resource: { text: "x" } }],
    ["an embedded resource with neither text nor blob", { type: "resource", resource: { uri: "a://b" } }],
    ["a resource link without a name", { type: "resource_link", uri: "a://b" }],
    ["a number", 5],
    ["null", null],
  ])("refuse %s as content, saying which contents there are", (_label, content) => {
    const error = thrownBy(() => promptResultOf([{ role: "assistant", content }], "review"));
    expect(error).toBeInstanceOf(PrimitiveError);
    expect(error).toMatchObject({
      kind: "failed",
      message: `${fix}: message 1: content must be a string or a text, image, audio, resource or resource_link part.`,
    });
  });
});
