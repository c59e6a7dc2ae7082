/**
 * The root entry stays small: what a user needs to define, run and export tools. Provider wire
 * types are on `toolnexus/providers` (types only: nothing there at run time), the limits are
 * one frozen `LIMITS` object, and `ToolParam` is on `toolnexus/nestjs`. Checked on the sources.
 */
import * as root from "../../src";
import * as mcp from "../../src/mcp";
import * as nestjs from "../../src/nestjs";
import * as providers from "../../src/providers";
import { MAX_LISTED_TOOLS } from "../../src/pipeline/unknown-tool";
import { MAX_CONTENT_BYTES, MAX_RESULT_CONTENT_BYTES } from "../../src/runtime/content";
import { MAX_FILE_NAME } from "../../src/runtime/content-rules";
import { DEFAULT_TIMEOUT_MS } from "../../src/runtime/invoke";
import { MAX_ERROR_TEXT } from "../../src/runtime/result";
import { PATTERN_INPUT_LIMIT } from "../../src/runtime/validation";
import { RECURSION_DEPTH } from "../../src/schema/lowering";
import { MAX_SCHEMA_SIZE } from "../../src/schema/schema-size";

/** The names a module has at run time (what `require()` gives, without the interop marker). */
const runtimeNames = (module: object) =>
  Object.keys(module).filter((name) => name !== "__esModule" && name !== "default");

/**
 * Every run-time name of the root entry. A new one is a decision: add it here, and keep the
 * root to what defining, running and exporting tools needs (the rest has a subpath).
 */
const ROOT = [
  // Decorators
  "Args",
  "Ctx",
  "Param",
  "Tool",
  // MCP's other primitives, from the same service classes
  "Prompt",
  "Resource",
  "ResourceTemplate",
  // Tools and the toolkit
  "defineTool",
  "definePrompt",
  "defineResource",
  "defineResourceTemplate",
  "isTool",
  "scanTools",
  "Toolkit",
  // Declarations out, one function per provider
  "Adapters",
  "describeExport",
  "toAnthropic",
  "toBedrock",
  "toGemini",
  "toMcp",
  "toOllama",
  "toOpenAI",
  "toOpenAIResponses",
  // Results and their parts
  "audio",
  "errorResult",
  "file",
  "image",
  "isToolContent",
  "isToolResult",
  "resourceLink",
  "toToolResult",
  // Errors
  "DuplicateToolError",
  "ExportError",
  // Thrown by ctx.elicit / ctx.sample when nobody can answer: a tool tells it from its own failures.
  "InputUnavailableError",
  // Why reading a resource or getting a prompt failed
  "PrimitiveError",
  "ScanError",
  "ToolDefinitionError",
  "ToolnexusError",
  // The manifest
  "loadManifest",
  "ManifestError",
  // Limits
  "LIMITS",
];

/**
 * The ceiling: the list above, which is what the brief for a small root asked for (decorators,
 * tool, resource and prompt builders, one exporter per provider, result helpers, error classes, the manifest, LIMITS).
 */
const MAX_ROOT_NAMES = 41;

describe("the root entry (toolnexus)", () => {
  it(`has at most ${MAX_ROOT_NAMES} names at run time, exactly the listed ones`, () => {
    const names = runtimeNames(root);
    expect(names.length).toBeLessThanOrEqual(MAX_ROOT_NAMES);
    expect([...names].sort()).toEqual([...ROOT].sort());
  });

  it("has no bare limit constant, no provider wire helper and no NestJS alias", () => {
    const names = runtimeNames(root);
    expect(names.filter((name) => /^[A-Z][A-Z0-9_]+$/.test(name) && name !== "LIMITS")).toEqual([]);
    expect(names).not.toContain("toMcpResult");
    expect(names).not.toContain("ToolParam");
  });
});

describe("LIMITS", () => {
  it("is frozen", () => {
    expect(Object.isFrozen(root.LIMITS)).toBe(true);
    expect(() => {
      (root.LIMITS as { MAX_ERROR_TEXT: number }).MAX_ERROR_TEXT = 1;
    }).toThrow(TypeError);
  });

  it("holds the values the code that enforces each limit uses, and nothing else", () => {
    expect({ ...root.LIMITS }).toEqual({
      DEFAULT_TIMEOUT_MS,
      MAX_CONTENT_BYTES,
      MAX_ERROR_TEXT,
      MAX_FILE_NAME,
      MAX_LISTED_TOOLS,
      MAX_RESULT_CONTENT_BYTES,
      MAX_SCHEMA_SIZE,
      PATTERN_INPUT_LIMIT,
      RECURSION_DEPTH,
    });
  });

  it("holds the documented values", () => {
    expect(root.LIMITS).toEqual({
      DEFAULT_TIMEOUT_MS: 60_000,
      MAX_CONTENT_BYTES: 10 * 1024 * 1024,
      MAX_ERROR_TEXT: 4_096,
      MAX_FILE_NAME: 255,
      MAX_LISTED_TOOLS: 20,
      MAX_RESULT_CONTENT_BYTES: 20 * 1024 * 1024,
      MAX_SCHEMA_SIZE: 1_000_000,
      PATTERN_INPUT_LIMIT: 16_384,
      RECURSION_DEPTH: 3,
    });
  });
});

describe("toolnexus/providers", () => {
  it("exports no run-time value (wire types only)", () => {
    expect(runtimeNames(providers)).toEqual([]);
  });
});

describe("the names that moved off the root", () => {
  it("ToolParam is on toolnexus/nestjs, the very same decorator as Param", () => {
    expect(nestjs.ToolParam).toBe(root.Param);
  });

  it("toolnexus/nestjs no longer re-exports Toolkit (it is the root's)", () => {
    expect(runtimeNames(nestjs)).not.toContain("Toolkit");
  });

  it("toMcpResult is on toolnexus/mcp", () => {
    expect(mcp.toMcpResult({ output: "ok", isError: false })).toEqual({
      content: [{ type: "text", text: "ok" }],
      isError: false,
    });
  });
});
