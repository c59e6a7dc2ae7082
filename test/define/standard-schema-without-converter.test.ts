import * as v from "valibot";
import { defineTool, Param, ScanError, scanTools, Tool, ToolDefinitionError } from "toolnexus";

// As in a program without @valibot/to-json-schema, whatever this machine has installed.
jest.mock(
  "@valibot/to-json-schema",
  () => {
    throw new Error("Cannot find module '@valibot/to-json-schema'");
  },
  { virtual: true },
);

const NO_CONVERTER =
  "a valibot schema: valibot writes JSON Schema only through @valibot/to-json-schema. Install it (npm install @valibot/to-json-schema) and toolnexus uses it, or wrap the schema with its toStandardJsonSchema(schema), or pass a JSON Schema as the schema.";

it("defineTool: a valibot schema is refused, saying what to install or pass instead", () => {
  const define = () =>
    defineTool({
      name: "weather",
      description: "Weather.",
      inputSchema: v.object({ city: v.string() }),
      execute: () => "",
    });
  expect(define).toThrow(ToolDefinitionError);
  expect(define).toThrow(`Tool "weather": inputSchema is ${NO_CONVERTER}`);
});

it("@Param: the same, naming the parameter", () => {
  class Mailer {
    @Tool("Sends mail")
    send(@Param({ schema: v.pipe(v.string(), v.email()) }) to: string) {
      return to;
    }
  }
  expect(() => scanTools(new Mailer())).toThrow(ScanError);
  expect(() => scanTools(new Mailer())).toThrow(`Mailer.send, parameter 0 ("to"): schema is ${NO_CONVERTER}`);
});
