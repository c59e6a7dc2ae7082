/**
 * The resources, prompts, completions and logging tool the official conformance suite's server
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

  @Tool({ name: "test_tool_with_logging", description: "Logs three messages while it runs" })
  async withLogging(@Ctx() ctx: ToolCallContext) {
    ctx.log("info", "Tool execution started");
    await sleep(50);
    ctx.log("info", "Tool processing data");
    await sleep(50);
    ctx.log("info", "Tool execution completed");
    return "Logging complete.";
  }
}
