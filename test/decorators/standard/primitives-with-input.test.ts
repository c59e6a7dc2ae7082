// Compiled with standard (TC39) decorators: no experimentalDecorators, no emitDecoratorMetadata (see tsconfig.json here).
import { z } from "zod";
import { PrimitiveError, Prompt, ResourceTemplate, ScanError, Toolkit, type ToolContext } from "../../../src";

class Library {
  readonly shelf = "fiction";

  @Prompt({ description: "Writes about a topic", input: z.object({ topic: z.string().min(2) }) })
  essay({ topic }: { topic: string }, ctx: ToolContext) {
    return `Write about ${topic} from the ${this.shelf} shelf (for ${String(ctx.state?.user)})`;
  }

  @ResourceTemplate("u://{id}", { mimeType: "application/json", input: z.object({ id: z.coerce.number().int() }) })
  book({ id }: { id: number }, ctx: ToolContext) {
    return { id, type: typeof id, shelf: this.shelf, user: ctx.state?.user };
  }
}

describe("resources and prompts with input under standard decorators", () => {
  const toolkit = new Toolkit([new Library()]);

  it("lists the prompt with its arguments from the input schema", () => {
    expect(toolkit.prompts().map((prompt) => [prompt.name, prompt.description, prompt.arguments])).toEqual([
      ["essay", "Writes about a topic", [{ name: "topic", required: true }]],
    ]);
  });

  it("lists the template with its variables from the input schema", () => {
    const [template] = toolkit.resourceTemplates();
    expect(template).toMatchObject({ name: "book", uriTemplate: "u://{id}", mimeType: "application/json" });
    expect(Object.keys(template!.variablesSchema.properties ?? {})).toEqual(["id"]);
  });

  it("gets a prompt with the checked arguments and the ctx, on its instance", async () => {
    await expect(toolkit.getPrompt("essay", { topic: "whales" }, { state: { user: "ada" } })).resolves.toEqual({
      messages: [
        { role: "user", content: { type: "text", text: "Write about whales from the fiction shelf (for ada)" } },
      ],
    });
  });

  it("refuses a prompt's arguments the input refuses, as invalid_arguments naming the argument", async () => {
    const error = await toolkit.getPrompt("essay", { topic: "x" }).catch((thrown: unknown) => thrown);
    expect(error).toBeInstanceOf(PrimitiveError);
    expect(error).toMatchObject({ kind: "invalid_arguments", message: expect.stringContaining("topic") });
  });

  it("refuses a prompt without its required argument", async () => {
    await expect(toolkit.getPrompt("essay", {})).rejects.toMatchObject({ kind: "invalid_arguments" });
  });

  it("reads a template's resource with the variables as the input makes them, on its instance", async () => {
    await expect(toolkit.readResource("u://42", { state: { user: "ada" } })).resolves.toEqual([
      {
        uri: "u://42",
        mimeType: "application/json",
        text: JSON.stringify({ id: 42, type: "number", shelf: "fiction", user: "ada" }),
      },
    ]);
  });

  it("refuses a URI whose variables the input refuses, as invalid_arguments naming the variable", async () => {
    const error = await toolkit.readResource("u://abc").catch((thrown: unknown) => thrown);
    expect(error).toBeInstanceOf(PrimitiveError);
    expect(error).toMatchObject({ kind: "invalid_arguments", message: expect.stringContaining("id") });
  });

  it("refuses a URI no template makes as not_found", async () => {
    await expect(toolkit.readResource("v://42")).rejects.toMatchObject({ kind: "not_found" });
  });
});

describe("resources and prompts without input under standard decorators", () => {
  it("a template method with a parameter is refused naming @ResourceTemplate and its input option, not @Tool", () => {
    class Shelf {
      @ResourceTemplate("u://{id}")
      book(args: { id: string }) {
        return args.id;
      }
    }
    let error: unknown;
    try {
      new Toolkit([new Shelf()]);
    } catch (thrown) {
      error = thrown;
    }
    expect(error).toBeInstanceOf(ScanError);
    expect((error as Error).message).toMatch(/^@ResourceTemplate on Shelf\.book: .*input/);
    expect((error as Error).message).not.toContain("@Tool");
  });

  it("a prompt method without parameters needs no input", async () => {
    class Greetings {
      @Prompt("Greets")
      hello() {
        return "Hello!";
      }
    }
    await expect(new Toolkit([new Greetings()]).getPrompt("hello")).resolves.toEqual({
      messages: [{ role: "user", content: { type: "text", text: "Hello!" } }],
    });
  });
});
