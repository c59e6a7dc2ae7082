import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import * as ts from "typescript";
import { Toolkit } from "../../src";
import { GenerateError, generateManifest, type GenerateResult } from "../../src/generate";
import { fixtureProject, fixtures, root } from "./support";

/**
 * Projects compiled with standard (TC39) decorators, the default of TypeScript 5+ and of
 * esbuild without `experimentalDecorators`: no parameter decorators, no type metadata. The
 * manifest is how such a tool's parameters are known, so `toolnexus generate` reads them from
 * the source alone.
 */

/** The fixture's tsconfig as its compiler reads it. */
function compilerOptionsOf(name: string): ts.CompilerOptions {
  const parsed = ts.getParsedCommandLineOfConfigFile(
    join(fixtures, name, "tsconfig.json"),
    {},
    {
      ...ts.sys,
      onUnRecoverableConfigFileDiagnostic: (diagnostic) => {
        throw new Error(ts.flattenDiagnosticMessageText(diagnostic.messageText, "\n"));
      },
    },
  );
  return parsed!.options;
}

describe("a service written for standard decorators (test/fixtures/generate/standard-decorators)", () => {
  let result: GenerateResult;
  beforeAll(() => {
    result = generateManifest({ project: fixtureProject("standard-decorators"), cwd: root });
  });

  it("is a project without experimentalDecorators, and generates without errors or warnings", () => {
    expect(compilerOptionsOf("standard-decorators").experimentalDecorators).toBeUndefined();
    expect(result.warnings).toEqual([]);
    expect(Object.keys(result.manifest.tools)).toEqual([
      "NotesService.add",
      "NotesService.archive",
      "NotesService.find",
    ]);
  });

  it("records every undecorated parameter as a tool argument named as in the source, its schema from its type", () => {
    expect(result.manifest.tools["NotesService.add"]).toMatchObject({
      name: "add",
      file: "src/notes.ts",
      description: "Adds a note to a board.",
      parameters: [
        { kind: "param", name: "text", optional: false, schema: { type: "string" } },
        { kind: "ctx", name: "ctx" },
        { kind: "param", name: "pinned", optional: true, schema: { type: "boolean", default: false } },
      ],
    });
  });

  it("records a parameter typed ToolContext as the context, also through a type alias and when optional", () => {
    expect(result.manifest.tools["NotesService.find"]!.parameters).toEqual([
      { kind: "param", name: "query", optional: false, schema: { type: "string" } },
      { kind: "ctx", name: "ctx" },
      { kind: "param", name: "limit", optional: true, schema: { type: "number" } },
    ]);
  });

  it("marks a method whose @Tool gives its whole input, and lists none of its parameters", () => {
    const entry = result.manifest.tools["NotesService.archive"]!;
    expect(entry).toMatchObject({ name: "archive", description: "Archives a board's notes.", input: true });
    expect(entry.parameters).toEqual([]);
  });

  describe("the class compiled with standard decorators, scanned with the manifest", () => {
    const out = mkdtempSync(join(tmpdir(), "toolnexus-standard-decorators-"));
    afterAll(() => rmSync(out, { recursive: true, force: true }));

    let NotesService: new () => object;
    let emitted: string;
    beforeAll(() => {
      const file = join(fixtures, "standard-decorators", "src", "notes.ts");
      const compilerOptions = {
        ...compilerOptionsOf("standard-decorators"),
        module: ts.ModuleKind.CommonJS,
        moduleResolution: ts.ModuleResolutionKind.Node10,
        noEmit: false,
      };
      emitted = ts.transpileModule(readFileSync(file, "utf8"), { fileName: file, compilerOptions }).outputText;
      writeFileSync(join(out, "notes.js"), emitted);
      ({ NotesService } = require(join(out, "notes.js")) as { NotesService: new () => object });
    });

    it("really is compiled with standard decorators", () => {
      expect(emitted).toContain("__esDecorate(");
      expect(emitted).not.toContain("design:paramtypes");
    });

    it("gives each tool its arguments from the manifest, and the context to the parameter typed ToolContext", async () => {
      const toolkit = new Toolkit([new NotesService()], { manifest: result.manifest });
      expect(toolkit.get("add")!.inputSchema).toEqual({
        type: "object",
        properties: { text: { type: "string" }, pinned: { type: "boolean", default: false } },
        required: ["text"],
        additionalProperties: false,
      });
      expect(await toolkit.execute("add", { text: "buy milk", pinned: true }, { state: { user: "ada" } })).toEqual({
        output: "main: buy milk (pinned) for ada",
        isError: false,
      });
      expect(await toolkit.execute("find", { query: "milk" }, { callId: "c7" })).toEqual({
        output: "milk x10 (call c7)",
        isError: false,
      });
      expect(await toolkit.execute("archive", { board: "old" }, { callId: "c8" })).toEqual({
        output: "archived old (call c8)",
        isError: false,
      });
    });
  });
});

describe("@Param and @Ctx in a project compiled with standard decorators (test/fixtures/generate/standard-param-decorators)", () => {
  let error: GenerateError;
  beforeAll(() => {
    try {
      generateManifest({ project: fixtureProject("standard-param-decorators"), cwd: root });
    } catch (caught) {
      error = caught as GenerateError;
    }
  });

  const file = "test/fixtures/generate/standard-param-decorators/src/weather.ts";
  const waysForward =
    'or give the tool its whole input with @Tool({ input }) (a Standard Schema, a JSON Schema or a DTO class; the method then takes (args, ctx)); or set "experimentalDecorators": true and "emitDecoratorMetadata": true in tsconfig.json to use @Param, @Ctx and @Args.';

  it("fails generation with one error per decorator, naming class, method and parameter, instead of TypeScript's TS1206", () => {
    expect(error).toBeInstanceOf(GenerateError);
    expect(error.problems).toEqual([
      {
        file,
        line: 7,
        column: 11,
        className: "WeatherService",
        method: "current",
        parameter: "city",
        message:
          'WeatherService.current, parameter 0 ("city"): @Param is not available with standard (TC39) decorators, which this project compiles with (its tsconfig does not set "experimentalDecorators"; TypeScript reports error TS1206: Decorators are not valid here.). Either keep standard decorators and remove @Param: `toolnexus generate` records the parameter from its name and type in the manifest (a parameter typed ToolContext receives the call\'s context), ' +
          waysForward,
      },
      {
        file,
        line: 7,
        column: 55,
        className: "WeatherService",
        method: "current",
        parameter: "ctx",
        message:
          'WeatherService.current, parameter 2 ("ctx"): @Ctx is not available with standard (TC39) decorators, which this project compiles with (its tsconfig does not set "experimentalDecorators"; TypeScript reports error TS1206: Decorators are not valid here.). Either keep standard decorators and remove @Ctx() and type the parameter ToolContext (imported from toolnexus): `toolnexus generate` records it as the parameter that receives the call\'s context, ' +
          waysForward,
      },
    ]);
  });

  it("prints each as file:line:col, as the CLI shows them", () => {
    expect(error.message.split("\n")).toEqual([
      expect.stringMatching(
        new RegExp(`^${file}:7:11: WeatherService\\.current, parameter 0 \\("city"\\): @Param is not available`),
      ),
      expect.stringMatching(
        new RegExp(`^${file}:7:55: WeatherService\\.current, parameter 2 \\("ctx"\\): @Ctx is not available`),
      ),
    ]);
  });
});
