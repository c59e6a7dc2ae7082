/**
 * The resources, prompts, completions and logging tools the official conformance suite's server
 * scenarios read, get and call, by the names and contents they ask for: one decorated service
 * class, as a toolnexus user writes one.
 */
import "reflect-metadata";
import { setTimeout as sleep } from "node:timers/promises";
import { Ctx, Param, Prompt, Resource, ResourceTemplate, Tool, type ToolCallContext } from "toolnexus";

/** A 1x1 red PNG. */
const RED_PIXEL_PNG = Buffer.from(
  "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8DwHwAFBQIAX8jx0gAAAABJRU5ErkJggg==",
  "base64",
);

export class ScenarioLibrary {
  @Resource("test://static-text", { description: "A static text resource", mimeType: "text/plain" })
  staticText() {
    return "This is the content of the static text resource.";
  }

  @Resource("test://static-binary", { description: "A static PNG image", mimeType: "image/png" })
  staticBinary() {
    return RED_PIXEL_PNG;
  }

  @Resource("test://watched-resource", { description: "A resource clients subscribe to", mimeType: "text/plain" })
  watched() {
    return "Watched resource content.";
  }

  @ResourceTemplate("test://template/{id}/data", {
    name: "template-data",
    description: "Data for an id",
    mimeType: "application/json",
    complete: { id: ["123", "124", "200"] },
  })
  templateData(@Param("id") id: string) {
    return { id, templateTest: true, data: `Data for ID: ${id}` };
  }

  @Prompt({ name: "test_simple_prompt", description: "A prompt without arguments" })
  simple() {
    return "This is a simple prompt for testing.";
  }

  @Prompt({
    name: "test_prompt_with_arguments",
    description: "A prompt with arguments",
    complete: { arg1: ["paris", "park", "party", "test", "testing"] },
  })
  withArguments(
    @Param("arg1", { description: "First test argument" }) arg1: string,
    @Param("arg2", { description: "Second test argument" }) arg2: string,
  ) {
    return `Prompt with arguments: arg1='${arg1}', arg2='${arg2}'`;
  }

  @Prompt({ name: "test_prompt_with_embedded_resource", description: "A prompt embedding a resource" })
  withEmbeddedResource(@Param("resourceUri", { description: "URI of the resource to embed" }) resourceUri: string) {
    return [
      {
        role: "user",
        content: {
          type: "resource",
          resource: { uri: resourceUri, mimeType: "text/plain", text: "Embedded resource content for testing." },
        },
      },
      { role: "user", content: "Please process the embedded resource above." },
    ];
  }

  @Prompt({ name: "test_prompt_with_image", description: "A prompt with an image" })
  withImage() {
    return [
      { role: "user", content: { type: "image", data: RED_PIXEL_PNG.toString("base64"), mimeType: "image/png" } },
      { role: "user", content: "Please analyze the image above." },
    ];
  }

  @Prompt({ name: "test_input_required_result_prompt", description: "A prompt that asks the user for its context" })
  async askingForContext(@Ctx() ctx: ToolCallContext) {
    const answer = await ctx.elicit({
      key: "user_context",
      message: "What context should the prompt use?",
      schema: { type: "object", properties: { context: { type: "string" } }, required: ["context"] },
    });
    const context = answer.action === "accept" ? String(answer.content?.context) : "none given";
    return `Answer with this context in mind: ${context}.`;
  }

  @Tool({ name: "test_tool_with_logging", description: "Logs three messages while it runs" })
  async withLogging(@Ctx() ctx: ToolCallContext) {
    ctx.log("info", "Tool execution started");
    await sleep(50);
    ctx.log("info", "Tool processing data");
    await sleep(50);
    ctx.log("info", "Tool execution completed");
    return "Logging complete.";
  }

  @Tool({
    name: "test_logging_tool",
    description: "Logs while it runs (a client that set no log level hears none of it)",
  })
  loggingTool(@Ctx() ctx: ToolCallContext) {
    ctx.log("info", "Tool execution started");
    ctx.log("error", "Tool execution completed");
    return "Logged.";
  }

  @Tool({
    name: "test_missing_capability",
    description: "Asks the client's model, which only a client taking sampling has",
  })
  async needingSampling(@Ctx() ctx: ToolCallContext) {
    const result = await ctx.sample({
      messages: [{ role: "user", content: { type: "text", text: "Say hello." } }],
      maxTokens: 20,
    });
    return `The model answered: ${JSON.stringify(result.content)}`;
  }

  @Tool({ name: "test_streaming_elicitation", description: "Reports progress, then asks the user to confirm" })
  async streamingElicitation(@Ctx() ctx: ToolCallContext) {
    ctx.reportProgress(1, 2, "Preparing the question");
    ctx.log("info", "Asking the user");
    const answer = await ctx.elicit({
      message: "Please confirm",
      schema: { type: "object", properties: { ok: { type: "boolean" } }, required: ["ok"] },
    });
    return `Answered: ${answer.action}.`;
  }
}
