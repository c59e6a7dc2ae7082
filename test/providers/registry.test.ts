/** The provider registry: one entry per provider, each under its own id, and the lists made from it. */
import { Adapters, toGemini, Toolkit } from "../../src";
import type { GeminiJsonSchemaTools, GeminiTools, OpenAITool } from "../../src/providers";
import { ADAPTERS, answeringFormats, EXPORT_FORMATS, registeredProviders } from "../../src/providers/registry";

it("lists each provider under the id it carries, in the registry's order", () => {
  expect(registeredProviders().map((provider) => provider.id)).toEqual([...EXPORT_FORMATS]);
  expect(Object.keys(ADAPTERS)).toEqual([...EXPORT_FORMATS]);
  expect(Object.isFrozen(ADAPTERS)).toBe(true);
});

it("gives every provider a free exporter, a toolkit exporter and, where toolnexus answers its calls, a round trip", () => {
  const toolkit = new Toolkit([]) as unknown as Record<string, unknown>;
  for (const provider of registeredProviders()) {
    expect(typeof (Adapters as Record<string, unknown>)[`to${provider.name}`]).toBe("function");
    expect(typeof toolkit[`to${provider.name}`]).toBe("function");
    expect(typeof toolkit[`run${provider.name}`]).toBe(provider.answersCalls ? "function" : "undefined");
  }
  expect(answeringFormats()).toEqual(["gemini", "openai", "openai-responses", "anthropic", "bedrock", "ollama"]);
});

it("installs the toolkit's provider methods as a class's methods are: on the prototype, not enumerable", () => {
  const descriptor = Object.getOwnPropertyDescriptor(Toolkit.prototype, "toGemini");
  expect(descriptor).toMatchObject({ enumerable: false, writable: true, configurable: true });
  expect(Object.keys(new Toolkit([]))).toEqual([]);
});

it("types each export by its options, and refuses an option no provider has", () => {
  const toolkit = new Toolkit([]);
  const jsonSchema: GeminiJsonSchemaTools = toolkit.toGemini({ jsonSchema: true });
  const plain: GeminiTools = toGemini([], { names: "sanitize" });
  const strict: OpenAITool[] = toolkit.toOpenAI({ strict: true });
  // @ts-expect-error a misspelt option is an error, as for any object literal
  toolkit.toGemini({ names: "sanitize", jsonSchma: true });
  // @ts-expect-error the JSON Schema form is not the Schema form
  const wrong: GeminiTools = toolkit.toGemini({ jsonSchema: true });
  expect([jsonSchema, plain, strict, wrong].every(Array.isArray)).toBe(true);
});
