import { rmSync } from "node:fs";
import { join } from "node:path";
import { generateManifest } from "../../src/generate";
import type { ManifestTool } from "../../src/manifest";
import { tempProject } from "./support";

/**
 * What `toolnexus generate` records for the parameters no decorator describes: one typed
 * toolnexus's `ToolContext` (or `ToolCallContext`) is the context, however the type is
 * reached; and a method whose `@Tool({ input })` gives the whole input lists none.
 * (test/generate/standard-decorators.integration.test.ts runs the same under standard decorators.)
 */

const made: string[] = [];
afterAll(() => {
  for (const dir of made) rmSync(dir, { recursive: true, force: true });
});

/** The entry of `Service.run` in the manifest of a project with these files. */
function entryOf(files: Record<string, string>): ManifestTool {
  const dir = tempProject(files);
  made.push(dir);
  const { manifest } = generateManifest({ project: join(dir, "tsconfig.json"), cwd: dir });
  return manifest.tools["Service.run"]!;
}

/** A project whose one tool method is `run` with `signature`'s parameters, after `imports`. */
const service = (imports: string, parameters: string, toolArguments = '"Runs"', extra = "") => ({
  "src/service.ts": `${imports}\n${extra}\nexport class Service {\n  @Tool(${toolArguments})\n  run(${parameters}) {\n    return 1;\n  }\n}\n`,
});

const CITY = { kind: "param", name: "city", optional: false, schema: { type: "string" } };

describe("an undecorated parameter typed ToolContext is recorded as the context", () => {
  it.each([
    ["imported by name", 'import { Tool, type ToolContext } from "toolnexus";', "ctx: ToolContext"],
    ["ToolCallContext", 'import { Tool, type ToolCallContext } from "toolnexus";', "ctx: ToolCallContext"],
    ["under another name", 'import { Tool, type ToolContext as CallInfo } from "toolnexus";', "ctx: CallInfo"],
    ["optional", 'import { Tool, type ToolContext } from "toolnexus";', "ctx?: ToolContext"],
    [
      "in a union with undefined",
      'import { Tool, type ToolContext } from "toolnexus";',
      "ctx: ToolContext | undefined",
    ],
  ])("%s", (_, imports, parameter) => {
    expect(entryOf(service(imports, `city: string, ${parameter}`)).parameters).toEqual([
      CITY,
      { kind: "ctx", name: "ctx" },
    ]);
  });

  it("through a namespace import", () => {
    const files = {
      "src/service.ts":
        'import * as tn from "toolnexus";\nexport class Service {\n  @tn.Tool("Runs")\n  run(city: string, ctx: tn.ToolContext) {\n    return 1;\n  }\n}\n',
    };
    expect(entryOf(files).parameters).toEqual([CITY, { kind: "ctx", name: "ctx" }]);
  });

  it("through a type alias and a re-export of the project's own", () => {
    const files = {
      "src/context.ts": 'export type { ToolContext as Context } from "toolnexus";\n',
      "src/aliases.ts": 'import type { Context } from "./context";\nexport type CallContext = Context;\n',
      ...service(
        'import { Tool } from "toolnexus";\nimport type { CallContext } from "./aliases";',
        "city: string, ctx: CallContext",
      ),
    };
    expect(entryOf(files).parameters).toEqual([CITY, { kind: "ctx", name: "ctx" }]);
  });

  it("as @Ctx() records it, without the name, when the decorator says so", () => {
    const files = service(
      'import { Ctx, Tool, type ToolContext } from "toolnexus";',
      "city: string, @Ctx() ctx: ToolContext",
    );
    expect(entryOf(files).parameters).toEqual([CITY, { kind: "ctx" }]);
  });

  it("but a type of the project's own named ToolContext is a tool argument like any other", () => {
    const files = service(
      'import { Tool } from "toolnexus";',
      "city: string, ctx: ToolContext",
      '"Runs"',
      "interface ToolContext {\n  user: string;\n}",
    );
    expect(entryOf(files).parameters).toEqual([
      CITY,
      {
        kind: "param",
        name: "ctx",
        optional: false,
        schema: {
          type: "object",
          properties: { user: { type: "string" } },
          required: ["user"],
          additionalProperties: false,
        },
      },
    ]);
  });
});

describe("a method whose @Tool gives its whole input", () => {
  const imports = 'import { Tool, type ToolContext } from "toolnexus";';
  const INPUT_SCHEMA = '{ type: "object", properties: { city: { type: "string" } } }';
  const parameters = "args: { city: string }, ctx: ToolContext";

  it("is marked input, its parameters (args, ctx) not listed", () => {
    const entry = entryOf(service(imports, parameters, `{ description: "Runs", input: ${INPUT_SCHEMA} }`));
    expect(entry).toMatchObject({ name: "run", input: true, parameters: [] });
  });

  it("also when input comes from a spread object that has it", () => {
    const files = service(
      imports,
      parameters,
      '{ ...withInput, description: "Runs" }',
      `const withInput = { input: ${INPUT_SCHEMA} };`,
    );
    expect(entryOf(files)).toMatchObject({ input: true, parameters: [] });
  });

  it("is not marked when the options may lack input: its parameters are listed", () => {
    const files = service(
      imports,
      parameters,
      "options",
      `declare const options: { description: string; input?: object };`,
    );
    const entry = entryOf(files);
    expect(entry.input).toBeUndefined();
    expect(entry.parameters).toEqual([
      {
        kind: "param",
        name: "args",
        optional: false,
        schema: {
          type: "object",
          properties: { city: { type: "string" } },
          required: ["city"],
          additionalProperties: false,
        },
      },
      { kind: "ctx", name: "ctx" },
    ]);
  });

  it("is not marked when input is undefined", () => {
    const entry = entryOf(service(imports, "city: string", '{ description: "Runs", input: undefined }'));
    expect(entry.input).toBeUndefined();
    expect(entry.parameters).toEqual([CITY]);
  });
});
