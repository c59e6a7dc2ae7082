/**
 * The built `toolnexus/mcp` entry point, loaded by name the way users load it, and the rule
 * that the core entry never loads the MCP SDK, the CLI or the TypeScript compiler.
 */
import { execFileSync } from "node:child_process";
import { assertBuilt, root } from "./support";

const node = (args: string[]) => execFileSync(process.execPath, args, { cwd: root, encoding: "utf8" });

beforeAll(assertBuilt);

describe("entry points", () => {
  it('require("toolnexus") loads neither the MCP SDK, nor commander, nor typescript', () => {
    const out = node([
      "-e",
      `require("toolnexus");
       const loaded = Object.keys(require.cache);
       console.log(JSON.stringify({
         sdk: loaded.filter((f) => f.includes("@modelcontextprotocol")).length,
         commander: loaded.filter((f) => f.includes("/commander/")).length,
         typescript: loaded.filter((f) => f.includes("/typescript/")).length,
         mcpEntry: loaded.filter((f) => f.includes("/dist/cjs/mcp/")).length,
         cli: loaded.filter((f) => f.includes("/dist/cjs/cli/")).length,
       }));`,
    ]);
    expect(JSON.parse(out)).toEqual({ sdk: 0, commander: 0, typescript: 0, mcpEntry: 0, cli: 0 });
  });

  it('require("toolnexus/mcp") and import("toolnexus/mcp") expose the server API and fromMcp', () => {
    const expected = [
      "createMcpHttpHandler",
      "createMcpServer",
      "defaultAllowedHosts",
      "fromMcp",
      "inMemoryTaskStore",
      "serveMcp",
      "toMcpResult",
    ];
    const cjs = node([
      "-e",
      `const m = require("toolnexus/mcp"); console.log(JSON.stringify(Object.keys(m).filter((k) => typeof m[k] === "function").sort()))`,
    ]);
    expect(JSON.parse(cjs)).toEqual(expected);
    const esm = node([
      "--input-type=module",
      "-e",
      `import * as m from "toolnexus/mcp"; import { Toolkit, defineTool } from "toolnexus";
       const kit = new Toolkit([defineTool({ name: "ping", description: "Answers pong", execute: () => "pong" })]);
       const server = m.createMcpServer(kit);
       console.log(JSON.stringify({ names: Object.keys(m).filter((k) => typeof m[k] === "function").sort(), server: server.constructor.name }));`,
    ]);
    expect(JSON.parse(esm)).toEqual({ names: expected, server: "Server" });
  });
});
