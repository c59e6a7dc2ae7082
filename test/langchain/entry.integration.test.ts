/**
 * The built `toolnexus/langchain` entry point, loaded by name the way users load it: from
 * CommonJS, and from an ES module whose own @langchain/core is LangChain's ES build while
 * toolnexus's CommonJS build loads LangChain's CommonJS one (LangChain recognizes its objects
 * across the two). And the rule that the core entry never loads LangChain.
 */
import { execFileSync } from "node:child_process";
import { join } from "node:path";
import * as ts from "typescript";
import { requireBuild } from "../support/built-package";

const root = join(__dirname, "..", "..");
const node = (args: string[]) => execFileSync(process.execPath, args, { cwd: root, encoding: "utf8" });

beforeAll(() => {
  requireBuild("these tests load the built package");
});

const tools = `
  const kit = new Toolkit([defineTool({ name: "ping", description: "Answers pong", execute: () => "pong" })]);
  const [tool] = toLangChainTools(kit);
`;

describe("the toolnexus/langchain entry point", () => {
  it('is not loaded by require("toolnexus"), and neither is @langchain/core', () => {
    const out = node([
      "-e",
      `require("toolnexus");
       const loaded = Object.keys(require.cache);
       console.log(JSON.stringify({ langchain: loaded.filter((f) => f.includes("/@langchain/")).length, entry: loaded.filter((f) => f.includes("/dist/cjs/langchain/")).length }));`,
    ]);
    expect(JSON.parse(out)).toEqual({ langchain: 0, entry: 0 });
  });

  it("loads with require()", () => {
    const out = node([
      "-e",
      `const { Toolkit, defineTool } = require("toolnexus"); const { toLangChainTools } = require("toolnexus/langchain");
       const { ToolMessage } = require("@langchain/core/messages");
       ${tools}
       tool.invoke({ type: "tool_call", id: "c1", name: "ping", args: {} }).then((m) => console.log(JSON.stringify({ isToolMessage: ToolMessage.isInstance(m), content: m.content })));`,
    ]);
    expect(JSON.parse(out)).toEqual({ isToolMessage: true, content: "pong" });
  });

  it("types its tools with the LangChain declarations of the importing module's kind, ES module or CommonJS", () => {
    // LangChain's ES-module and CommonJS declarations are distinct classes to TypeScript:
    // a tool typed with the other kind's would not be a StructuredToolInterface of this one.
    const consumer = `
      import { Toolkit, defineTool } from "toolnexus";
      import { toLangChainTools } from "toolnexus/langchain";
      import type { StructuredToolInterface } from "@langchain/core/tools";
      import type { ToolMessage } from "@langchain/core/messages";
      const tools: StructuredToolInterface[] = toLangChainTools(new Toolkit([defineTool({ name: "ping", description: "Answers pong", execute: () => "pong" })]));
      export const answer: Promise<ToolMessage> = toLangChainTools(new Toolkit())[0]!.invoke({ type: "tool_call", id: "c1", name: "ping", args: {} });
      export { tools };
    `;
    const files = {
      [join(root, "test", "langchain", "consumer.mts")]: consumer,
      [join(root, "test", "langchain", "consumer.cts")]: consumer,
    };
    const options: ts.CompilerOptions = {
      module: ts.ModuleKind.Node16,
      moduleResolution: ts.ModuleResolutionKind.Node16,
      target: ts.ScriptTarget.ES2022,
      strict: true,
      noEmit: true,
      skipLibCheck: true,
      types: ["node"],
    };
    const host = ts.createCompilerHost(options);
    const { fileExists, readFile, getSourceFile } = host;
    host.fileExists = (name) => name in files || fileExists(name);
    host.readFile = (name) => files[name] ?? readFile(name);
    host.getSourceFile = (name, version, ...rest) =>
      name in files ? ts.createSourceFile(name, files[name]!, version) : getSourceFile(name, version, ...rest);
    const problems = ts.getPreEmitDiagnostics(ts.createProgram(Object.keys(files), options, host));
    expect(problems.map((problem) => ts.flattenDiagnosticMessageText(problem.messageText, "\n"))).toEqual([]);
  });

  it("works with LangChain's ES module build in an ES module", () => {
    const out = node([
      "--input-type=module",
      "-e",
      `import { Toolkit, defineTool } from "toolnexus"; import { toLangChainTools } from "toolnexus/langchain";
       import { ToolMessage } from "@langchain/core/messages"; import { isStructuredTool } from "@langchain/core/tools";
       import { convertToOpenAITool } from "@langchain/core/utils/function_calling";
       ${tools}
       const message = await tool.invoke({ type: "tool_call", id: "c1", name: "ping", args: {} });
       console.log(JSON.stringify({ structured: isStructuredTool(tool), declared: convertToOpenAITool(tool).function.name, isToolMessage: ToolMessage.isInstance(message), content: message.content }));`,
    ]);
    expect(JSON.parse(out)).toEqual({ structured: true, declared: "ping", isToolMessage: true, content: "pong" });
  });
});
