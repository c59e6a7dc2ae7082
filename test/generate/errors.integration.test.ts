import { rmSync } from "node:fs";
import { join } from "node:path";
import { GenerateError, generateManifest, type SourceProblem } from "../../src/generate";
import { fixtureProject, root, tempProject } from "./support";

const made: string[] = [];
afterAll(() => {
  for (const dir of made) rmSync(dir, { recursive: true, force: true });
});

/** Generates from a temporary project and returns its problems (the generation must fail). */
function problemsOf(files: Record<string, string>, compilerOptions?: Record<string, unknown>): SourceProblem[] {
  const dir = tempProject(files, compilerOptions);
  made.push(dir);
  try {
    generateManifest({ project: join(dir, "tsconfig.json"), cwd: dir });
  } catch (error) {
    expect(error).toBeInstanceOf(GenerateError);
    return (error as GenerateError).problems;
  }
  throw new Error("expected generation to fail");
}

function generated(files: Record<string, string>) {
  const dir = tempProject(files);
  made.push(dir);
  return generateManifest({ project: join(dir, "tsconfig.json"), cwd: dir }).manifest;
}

/** A project with one tool method whose signature is `signature`, after `extra` declarations. */
const tool = (signature: string, extra = "") => ({
  "src/service.ts": `import { Param, Tool } from "toolnexus";\n${extra}\nexport class Service {\n  @Tool("t")\n  ${signature} {\n    return 1;\n  }\n}\n`,
});

/** The one problem of a tool with that signature. */
function messageOf(signature: string, extra?: string): string {
  const problems = problemsOf(tool(signature, extra));
  expect(problems).toHaveLength(1);
  return problems[0]!.message;
}

describe("errors that point at the source", () => {
  it("the broken fixture: each parameter without a JSON Schema, with file:line:col, class, method and parameter", () => {
    let error: GenerateError | undefined;
    try {
      generateManifest({ project: fixtureProject("broken"), cwd: root });
    } catch (caught) {
      error = caught as GenerateError;
    }
    expect(error).toBeInstanceOf(GenerateError);
    const file = "test/fixtures/generate/broken/src/hooks.ts";
    const fix =
      "(tool arguments are JSON). Use a JSON type (string, number, boolean, literal unions, arrays, plain objects), or state the schema with @Param({ schema: {...} }).";
    expect(error!.problems).toEqual([
      {
        file,
        line: 19,
        column: 7,
        className: "HooksService",
        method: "run",
        parameter: "callback",
        message: `HooksService.run, parameter 0 ("callback"): it has type "() => void": a function has no JSON Schema equivalent ${fix}`,
      },
      {
        file,
        line: 25,
        column: 9,
        className: "HooksService",
        method: "watch",
        parameter: "options",
        message: `HooksService.watch, parameter 0 ("options"): its property "onChange" (declared at ${file}:7:3) has type "(path: string) => void": a function has no JSON Schema equivalent ${fix}`,
      },
      {
        file,
        line: 31,
        column: 21,
        className: "HooksService",
        method: "tag",
        parameter: "key",
        message: `HooksService.tag, parameter 0 ("key"): it has type "symbol": a symbol has no JSON Schema equivalent ${fix}`,
      },
    ]);
    // One line per problem, each starting with its location.
    expect(error!.message.split("\n")).toEqual(
      error!.problems.map((p) => `${p.file}:${p.line}:${p.column}: ${p.message}`),
    );
  });

  it("a missing tsconfig is an error", () => {
    expect(() => generateManifest({ project: "nope/tsconfig.json", cwd: root })).toThrow(GenerateError);
  });

  it("a recursive type cannot be inlined", () => {
    expect(messageOf("run(tree: Tree)", "interface Tree { label: string; children: Tree[] }")).toBe(
      'Service.run, parameter 0 ("tree"): its property "children[]" (declared at src/service.ts:2:33) has type "Tree": it refers to itself (Tree → Tree[] → Tree), and recursive types cannot be inlined into a tool schema. Use a JSON type (string, number, boolean, literal unions, arrays, plain objects), or state the schema with @Param({ schema: {...} }).',
    );
  });

  it("bigint, Map, Promise, a class constructor, never and type parameters have no schema", () => {
    expect(messageOf("run(n: bigint)")).toContain(
      'it has type "bigint": a bigint has no JSON Schema equivalent (JSON numbers cannot hold one)',
    );
    expect(messageOf("run(m: Map<string, number>)")).toContain(
      'it has type "Map<string, number>": a Map has no JSON Schema equivalent',
    );
    expect(messageOf("run(p: { later: Promise<string> })")).toContain(
      'its property "later" (declared at src/service.ts:5:12) has type "Promise<string>": a Promise has no JSON Schema equivalent',
    );
    expect(messageOf("run(c: typeof Date)")).toContain("a class (not an instance of it) has no JSON Schema equivalent");
    expect(messageOf("run(x: never)")).toContain('it has type "never": no value has this type');
    expect(messageOf("run<T>(x: T)")).toContain(
      'it has type "T": a type parameter is only known where the method is called',
    );
  });

  it("rest parameters and unnamed destructuring are refused; a destructured parameter with @Param(name) is fine", () => {
    expect(messageOf("run(...words: string[])")).toContain("a rest parameter cannot be a tool argument");
    expect(messageOf("run({ a }: { a: string })")).toContain(
      'its name cannot be read from the source (destructuring). Name it: @Param("name").',
    );
    const manifest = generated(tool('run(@Param("options") { a }: { a: string })'));
    expect(manifest.tools["Service.run"]!.parameters).toEqual([
      {
        kind: "param",
        name: "options",
        optional: false,
        schema: { type: "object", properties: { a: { type: "string" } }, required: ["a"], additionalProperties: false },
      },
    ]);
  });

  it("two classes of one name in different files are not an error: their keys carry the file", () => {
    const service = (what: string) =>
      `import { Tool } from "toolnexus";\nexport class Service {\n  @Tool("${what}")\n  ${what}() {}\n}\n`;
    expect(Object.keys(generated({ "src/a.ts": service("a"), "src/b.ts": service("b") }).tools)).toEqual([
      "src/a.ts#Service.a",
      "src/b.ts#Service.b",
    ]);
  });

  it("every problem of the project is reported at once", () => {
    const problems = problemsOf(tool("run(a: symbol, b: () => void, c: bigint)"));
    expect(problems.map((p) => p.parameter)).toEqual(["a", "b", "c"]);
  });
});

describe("what generation accepts", () => {
  it("a stated @Param({ schema }) skips the type (a function type is then fine)", () => {
    const manifest = generated(tool('run(@Param({ schema: { type: "string" } }) handler: () => void)'));
    expect(manifest.tools["Service.run"]!.parameters).toEqual([{ kind: "param", name: "handler", optional: false }]);
  });

  it("renamed and namespace imports of the decorators, this-parameters, default-exported classes", () => {
    const manifest = generated({
      "src/a.ts": `import { Tool as LlmTool, Param as P } from "toolnexus";\nexport class A {\n  @LlmTool("a")\n  run(this: A, @P("q") query: string) {}\n}\n`,
      "src/b.ts": `import * as tn from "toolnexus";\nexport class B {\n  @tn.Tool("b")\n  go(@tn.Ctx() ctx: unknown, n = 3) {}\n}\n`,
      "src/c.ts": `import { Tool } from "toolnexus";\nexport default class {\n  @Tool("c")\n  anon() {}\n}\n`,
      "src/d.ts": `export function Tool(_: string): MethodDecorator { return () => {}; }\nexport class NotOurs {\n  @Tool("x")\n  skip(f: () => void) {}\n}\n`,
    });
    expect(Object.keys(manifest.tools)).toEqual(["A.run", "B.go", "default.anon"]);
    expect(manifest.tools["A.run"]!.parameters).toEqual([
      { kind: "param", name: "q", optional: false, schema: { type: "string" } },
    ]);
    expect(manifest.tools["B.go"]!.parameters).toEqual([
      { kind: "ctx" },
      { kind: "param", name: "n", optional: true, schema: { type: "number", default: 3 } },
    ]);
  });

  it("ToolParam, the alias of @Param (from toolnexus/nestjs), however it is imported: its name is the parameter's", () => {
    const manifest = generated({
      "src/a.ts": `import { Tool } from "toolnexus";\nimport { ToolParam } from "toolnexus/nestjs";\nexport class A {\n  @Tool("a")\n  find(@ToolParam("q") query: string) {}\n}\n`,
      "src/b.ts": `import { Tool } from "toolnexus";\nimport { ToolParam as P } from "toolnexus/nestjs";\nexport class B {\n  @Tool("b")\n  find(@P("q") query: string) {}\n}\n`,
      "src/c.ts": `import * as tn from "toolnexus";\nimport * as nest from "toolnexus/nestjs";\nexport class C {\n  @tn.Tool("c")\n  find(@nest.ToolParam("q") query: string) {}\n}\n`,
    });
    const q = [{ kind: "param", name: "q", optional: false, schema: { type: "string" } }];
    expect(Object.fromEntries(Object.entries(manifest.tools).map(([key, entry]) => [key, entry.parameters]))).toEqual({
      "A.find": q,
      "B.find": q,
      "C.find": q,
    });
  });

  it("ToolParam as toolnexus declares it, reached through a file that re-exports it", () => {
    const manifest = generated({
      // The shape of the built package: the decorator declared in decorators/param.decorator.d.ts,
      // re-exported by the root (Param) and by toolnexus/nestjs (ToolParam).
      "toolnexus.d.ts": `export * from "./toolnexus/decorators/tool.decorator";\nexport { Param } from "./toolnexus/decorators/param.decorator";\n`,
      "toolnexus-nestjs.d.ts": `export { ToolParam } from "./toolnexus/decorators/param.decorator";\n`,
      "toolnexus/decorators/tool.decorator.d.ts":
        "export declare function Tool(description?: string): MethodDecorator;\n",
      "toolnexus/decorators/param.decorator.d.ts":
        "export declare function Param(name?: string): ParameterDecorator;\nexport declare const ToolParam: typeof Param;\n",
      "src/decorators.ts": `export { Tool } from "toolnexus";\nexport { ToolParam as SearchParam } from "toolnexus/nestjs";\n`,
      "src/search.ts": `import { SearchParam, Tool } from "./decorators";\nexport class Search {\n  @Tool("s")\n  find(@SearchParam("q") query: string) {}\n}\n`,
    });
    expect(manifest.tools["Search.find"]!.parameters).toEqual([
      { kind: "param", name: "q", optional: false, schema: { type: "string" } },
    ]);
  });

  it("any and unknown are any JSON value; Readonly, Partial, Record, intersections and tuples are inlined", () => {
    const manifest = generated(
      tool(
        'run(a: any, b: unknown, c: Readonly<Point>, d: Partial<Point>, e: Record<string, number>, f: Point & { label: string }, g: [string, number], h: { tags: Record<string, "x" | "y"> })',
        "interface Point { x: number; y: number }",
      ),
    );
    const schemas = manifest.tools["Service.run"]!.parameters.map((p) => (p as { schema?: unknown }).schema);
    expect(schemas).toEqual([
      {},
      {},
      {
        type: "object",
        properties: { x: { type: "number" }, y: { type: "number" } },
        required: ["x", "y"],
        additionalProperties: false,
      },
      { type: "object", properties: { x: { type: "number" }, y: { type: "number" } }, additionalProperties: false },
      { type: "object", additionalProperties: { type: "number" } },
      {
        type: "object",
        properties: { x: { type: "number" }, y: { type: "number" }, label: { type: "string" } },
        required: ["label", "x", "y"],
        additionalProperties: false,
      },
      { type: "array", items: [{ type: "string" }, { type: "number" }], minItems: 2, maxItems: 2 },
      {
        type: "object",
        properties: { tags: { type: "object", additionalProperties: { type: "string", enum: ["x", "y"] } } },
        required: ["tags"],
        additionalProperties: false,
      },
    ]);
  });

  it("records Date and class conversions, also for arrays", () => {
    const manifest = generated(
      tool("run(when: Date, whens: Date[], one: Line, many?: Line[])", "class Line { sku!: string }"),
    );
    expect(
      manifest.tools["Service.run"]!.parameters.map((p) => [
        (p as { convert?: string }).convert,
        (p as { className?: string }).className,
      ]),
    ).toEqual([
      ["date", undefined],
      ["date[]", undefined],
      ["class", "Line"],
      ["class[]", "Line"],
    ]);
  });
});
