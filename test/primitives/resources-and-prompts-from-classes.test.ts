import "reflect-metadata";
import { z } from "zod";
import {
  Param,
  PrimitiveError,
  Prompt,
  Resource,
  ResourceTemplate,
  Tool,
  Toolkit,
  definePrompt,
  defineResource,
  defineResourceTemplate,
  image,
} from "toolnexus";

class Library {
  @Resource("config://app", { mimeType: "application/json", description: "The app's settings" })
  settings() {
    return { theme: "dark" };
  }

  @Resource("file:///logo.png", { mimeType: "image/png" })
  logo() {
    return Buffer.from([137, 80, 78, 71]);
  }

  @ResourceTemplate("books://{id}/chapters{?page}", { complete: { id: ["12", "123", "200"] } })
  chapter(@Param("id") id: number, @Param("page", { optional: true }) page?: number) {
    return `book ${id} (${typeof id}), page ${page ?? 1}`;
  }

  @Prompt({ description: "Reviews code", complete: { language: ["typescript", "python", "rust"] } })
  review(@Param("code") code: string, @Param("language", { optional: true }) language?: string) {
    return [
      { role: "user", content: `Review this ${language ?? "code"}:\n${code}` },
      { role: "assistant", content: image(Buffer.from([1, 2, 3]), "image/png") },
    ];
  }

  @Tool("Finds a book")
  find(@Param("title") title: string) {
    return title;
  }
}

class OnlyPrompts {
  @Prompt("Says hello")
  hello() {
    return "Hello!";
  }
}

describe("resources, templates and prompts from a decorated class", () => {
  const toolkit = new Toolkit([new Library(), new OnlyPrompts()]);

  it("lists them beside the class's tools, in declaration order", () => {
    expect(toolkit.tools().map((tool) => tool.name)).toEqual(["find"]);
    expect(toolkit.resources().map((resource) => [resource.name, resource.uri, resource.mimeType])).toEqual([
      ["settings", "config://app", "application/json"],
      ["logo", "file:///logo.png", "image/png"],
    ]);
    expect(toolkit.resourceTemplates().map((template) => template.uriTemplate)).toEqual([
      "books://{id}/chapters{?page}",
    ]);
    expect(toolkit.prompts().map((prompt) => [prompt.name, prompt.arguments])).toEqual([
      [
        "review",
        [
          { name: "code", required: true },
          { name: "language", required: false },
        ],
      ],
      ["hello", []],
    ]);
  });

  it("reads an object as JSON text, bytes as a base64 blob", async () => {
    await expect(toolkit.readResource("config://app")).resolves.toEqual([
      { uri: "config://app", mimeType: "application/json", text: '{"theme":"dark"}' },
    ]);
    await expect(toolkit.readResource("file:///logo.png")).resolves.toEqual([
      { uri: "file:///logo.png", mimeType: "image/png", blob: Buffer.from([137, 80, 78, 71]).toString("base64") },
    ]);
  });

  it("reads a template's resource with its variables typed as the parameters say", async () => {
    await expect(toolkit.readResource("books://42/chapters?page=3")).resolves.toEqual([
      { uri: "books://42/chapters?page=3", mimeType: "text/plain", text: "book 42 (number), page 3" },
    ]);
    await expect(toolkit.readResource("books://7/chapters")).resolves.toMatchObject([
      { text: "book 7 (number), page 1" },
    ]);
  });

  it("refuses variables that do not fit, and URIs nothing serves, as PrimitiveErrors saying so", async () => {
    const invalid = await toolkit.readResource("books://abc/chapters").catch((error: unknown) => error);
    expect(invalid).toBeInstanceOf(PrimitiveError);
    expect(invalid).toMatchObject({ kind: "invalid_arguments", message: expect.stringContaining("id") });
    await expect(toolkit.readResource("books://1/other")).rejects.toMatchObject({ kind: "not_found" });
  });

  it("gets a prompt's messages, a string content becoming text", async () => {
    const result = await toolkit.getPrompt("review", { code: "x = 1", language: "python" });
    expect(result.messages).toEqual([
      { role: "user", content: { type: "text", text: "Review this python:\nx = 1" } },
      { role: "assistant", content: { type: "image", data: "AQID", mimeType: "image/png" } },
    ]);
    await expect(toolkit.getPrompt("hello")).resolves.toEqual({
      messages: [{ role: "user", content: { type: "text", text: "Hello!" } }],
    });
    await expect(toolkit.getPrompt("review", {})).rejects.toMatchObject({ kind: "invalid_arguments" });
  });

  it("completes from a list: prefix matches first, bounded, none for arguments without completions", async () => {
    await expect(
      toolkit.complete({ type: "ref/prompt", name: "review" }, { name: "language", value: "PY" }),
    ).resolves.toEqual({ values: ["python"], total: 1, hasMore: false });
    await expect(
      toolkit.complete({ type: "ref/resource", uri: "books://{id}/chapters{?page}" }, { name: "id", value: "12" }),
    ).resolves.toEqual({ values: ["12", "123"], total: 2, hasMore: false });
    await expect(
      toolkit.complete({ type: "ref/prompt", name: "review" }, { name: "code", value: "" }),
    ).resolves.toEqual({ values: [], total: 0, hasMore: false });
  });
});

describe("defined resources and prompts", () => {
  it("serve plain functions, with visibility, authorization and completions", async () => {
    const many = Array.from({ length: 150 }, (_, index) => `city-${index}`);
    const toolkit = new Toolkit([
      defineResource({ uri: "memo://today", name: "today", read: () => "sunny" }),
      defineResourceTemplate({
        uriTemplate: "weather://{city}",
        name: "weather",
        variables: z.object({ city: z.string().min(2) }),
        read: ({ city }, _ctx, uri) => `${uri}: ${city}`,
        complete: { city: (value) => many.filter((city) => city.includes(value)) },
      }),
      definePrompt({
        name: "secret",
        arguments: [{ name: "topic", description: "What about" }],
        visible: (ctx) => ctx.state?.user === "ada",
        get: ({ topic }) => `Tell me about ${topic}`,
      }),
      definePrompt({ name: "guarded", authorize: () => false, get: () => "no" }),
    ]);
    await expect(toolkit.readResource("memo://today")).resolves.toMatchObject([{ text: "sunny" }]);
    await expect(toolkit.readResource("weather://Paris")).resolves.toMatchObject([{ text: "weather://Paris: Paris" }]);
    await expect(toolkit.readResource("weather://P")).rejects.toMatchObject({ kind: "invalid_arguments" });
    const completion = await toolkit.complete(
      { type: "ref/resource", uri: "weather://{city}" },
      { name: "city", value: "" },
    );
    expect(completion).toMatchObject({ total: 150, hasMore: true });
    expect(completion.values).toHaveLength(100);

    // Without a ctx, every prompt (as tools() lists every tool); with one, those visible to it.
    expect(toolkit.prompts().map((prompt) => prompt.name)).toEqual(["secret", "guarded"]);
    expect(toolkit.prompts({}).map((prompt) => prompt.name)).toEqual(["guarded"]);
    await expect(toolkit.getPrompt("secret", { topic: "x" })).rejects.toMatchObject({ kind: "not_found" });
    await expect(toolkit.getPrompt("secret", { topic: "x" }, { state: { user: "ada" } })).resolves.toMatchObject({
      messages: [{ content: { text: "Tell me about x" } }],
    });
    await expect(toolkit.getPrompt("guarded")).rejects.toMatchObject({ kind: "forbidden" });
  });

  it("refuses a template whose variables and parameters differ, naming the odd one", () => {
    expect(() =>
      defineResourceTemplate({
        uriTemplate: "a://{x}",
        name: "a",
        variables: { type: "object", properties: { y: { type: "string" } } },
        read: () => "",
      }),
    ).toThrow(/"x" is only in one/);
  });

  it("refuses two resources at one URI, adding none", () => {
    const one = defineResource({ uri: "a://1", name: "one", read: () => "" });
    const two = defineResource({ uri: "a://1", name: "two", read: () => "" });
    expect(() => new Toolkit([one, two])).toThrow(/URI "a:\/\/1"/);
  });
});
