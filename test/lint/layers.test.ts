/**
 * The layering rule (`toolnexus/layers` in eslint.config.mjs, eslint/rules/layers.mjs): a module
 * imports only its own layer and the layers below it, whichever way it names the other module
 * (import, import type, require, ...), and an edge reaches another edge only through its
 * index.ts. Planted files are linted as text under src/ (they are never written); the real
 * src/ tree must pass.
 */
import { join } from "node:path";
import { Worker } from "node:worker_threads";
import { patience } from "../support/time";

const root = join(__dirname, "..", "..");

interface Linted {
  filePath: string;
  messages: { ruleId: string | null; message: string; line: number }[];
}

interface Request {
  /** Code linted as if it were the file at `filePath` (relative to the root). */
  texts: { code: string; filePath: string }[];
  /** Files and folders linted as they are. */
  files: string[];
}

/**
 * Lints with the repository's own config, the layering rule alone. In a worker thread of this
 * process: ESLint loads eslint.config.mjs with import(), which jest's module sandbox refuses
 * (it would need --experimental-vm-modules), while a worker loads modules with Node's own loader.
 */
function lintWithRepoConfig(request: Request): Promise<{ texts: Linted[]; files: Linted[] }> {
  const worker = new Worker(
    `
    const { parentPort, workerData } = require("node:worker_threads");
    const { ESLint } = require(workerData.eslint);
    const shape = (results) => results.map(({ filePath, messages }) => ({ filePath, messages: messages.map(({ ruleId, message, line }) => ({ ruleId, message, line })) }));
    (async () => {
      const eslint = new ESLint({ cwd: workerData.root, ruleFilter: ({ ruleId }) => ruleId === "toolnexus/layers" });
      const texts = [];
      for (const { code, filePath } of workerData.texts) texts.push(...(await eslint.lintText(code, { filePath: require("node:path").join(workerData.root, filePath) })));
      return { texts: shape(texts), files: shape(await eslint.lintFiles(workerData.files)) };
    })().then((result) => parentPort.postMessage({ result }), (error) => parentPort.postMessage({ error: String((error && error.stack) || error) }));
    `,
    { eval: true, workerData: { ...request, root, eslint: require.resolve("eslint") } },
  );
  return new Promise<{ texts: Linted[]; files: Linted[] }>((resolve, reject) => {
    worker.once("message", (answer: { result?: { texts: Linted[]; files: Linted[] }; error?: string }) =>
      answer.error !== undefined ? reject(new Error(answer.error)) : resolve(answer.result!),
    );
    worker.once("error", reject);
  }).finally(() => worker.terminate());
}

const PLANTED = {
  upwardRequire: {
    filePath: "src/runtime/planted-require.ts",
    code: 'export const toolkit = require("../toolkit/toolkit");\n',
  },
  upwardImport: {
    filePath: "src/runtime/planted-import.ts",
    code: 'import { Toolkit } from "../toolkit/toolkit";\nexport const kit = Toolkit;\n',
  },
  upwardImportType: {
    filePath: "src/runtime/planted-import-type.ts",
    code: 'import type { Toolkit } from "../toolkit/toolkit";\nexport type Kit = Toolkit;\n',
  },
  upwardOtherForms: {
    filePath: "src/control/planted-other-forms.ts",
    code: [
      'export { Toolkit } from "../toolkit/toolkit";',
      'export const later = import("../providers/mcp");',
      'export const where = require.resolve("../cli/main");',
      'export type Serve = typeof import("../mcp");',
      'export type { Tool } from "toolnexus";',
      "",
    ].join("\n"),
  },
  edgeInternals: {
    filePath: "src/nestjs/planted-internals.ts",
    code: 'export { createMcpHttpHandler } from "../mcp/http";\nexport const tasks = require("../mcp/tasks");\n',
  },
  downward: {
    filePath: "src/toolkit/planted-downward.ts",
    code: [
      'import { errorResult } from "../runtime/result";',
      'import type { Tool } from "../core/types";',
      'export const names = require("../core/names");',
      'export type Schema = typeof import("../schema/canonical");',
      'export const failed = (tool: Tool) => errorResult("execution_failed", tool.name);',
      "",
    ].join("\n"),
  },
  edgeThroughEntry: {
    filePath: "src/nestjs/planted-entry.ts",
    code: [
      'export { serveMcp } from "../mcp";',
      'export const mcp = require("../mcp") as typeof import("../mcp");',
      // An optional peer loaded lazily resolves outside src/: not checked.
      'export const sdk = require("@modelcontextprotocol/sdk/server/index.js");',
      "",
    ].join("\n"),
  },
};

type Planted = keyof typeof PLANTED;

let linted: Record<Planted, Linted["messages"]>;
let tree: Linted[];

// One worker lints everything at once: loading ESLint, its config and the TypeScript resolver
// is most of the cost. About 10 s on an idle 2-core machine (the src/ tree is most of it).
beforeAll(async () => {
  const names = Object.keys(PLANTED) as Planted[];
  const { texts, files } = await lintWithRepoConfig({ texts: names.map((name) => PLANTED[name]), files: ["src"] });
  linted = Object.fromEntries(names.map((name, i) => [name, texts[i]!.messages])) as typeof linted;
  tree = files;
}, patience(60_000));

const layerErrors = (name: Planted) => linted[name].map(({ ruleId, message, line }) => ({ ruleId, line, message }));

describe("the layering rule", () => {
  it("refuses an upward require() and says which layers and what to do", () => {
    expect(layerErrors("upwardRequire")).toEqual([
      {
        ruleId: "toolnexus/layers",
        line: 1,
        message:
          'Layer "runtime" (src/runtime/) may not import layer "toolkit" (src/toolkit/toolkit.ts), which is above it: "runtime" may import layers "core" to "runtime" only. ' +
          'Move the shared piece down to "runtime" or a layer below it, or depend on layers "core" to "runtime" instead.',
      },
    ]);
  });

  it("refuses an upward import, and an upward import type alike", () => {
    for (const name of ["upwardImport", "upwardImportType"] as const) {
      expect(layerErrors(name)).toEqual([
        {
          ruleId: "toolnexus/layers",
          line: 1,
          message: expect.stringContaining('Layer "runtime" (src/runtime/) may not import layer "toolkit"'),
        },
      ]);
    }
  });

  it("refuses export ... from, import(), require.resolve(), typeof import() and the toolnexus alias upward", () => {
    expect(
      layerErrors("upwardOtherForms").map(({ line, message }) => [line, message.slice(0, message.indexOf(", which"))]),
    ).toEqual([
      [1, 'Layer "control" (src/control/) may not import layer "toolkit" (src/toolkit/toolkit.ts)'],
      [2, 'Layer "control" (src/control/) may not import layer "providers" (src/providers/mcp.ts)'],
      [3, 'Layer "control" (src/control/) may not import layer "edges" (src/cli/main.ts)'],
      [4, 'Layer "control" (src/control/) may not import layer "edges" (src/mcp/index.ts)'],
      [5, 'Layer "control" (src/control/) may not import layer "entry" (src/index.ts)'],
    ]);
  });

  it("refuses an edge importing another edge's internals, naming the entry to use", () => {
    expect(layerErrors("edgeInternals")).toEqual([
      {
        ruleId: "toolnexus/layers",
        line: 1,
        message:
          'Layer "edges": src/nestjs/ may import src/mcp/ only through its public entry src/mcp/index.ts, not src/mcp/http.ts. ' +
          'Import it from src/mcp/index.ts (export it there only if it is fit for users), or move the shared piece down to "toolkit" or a layer below it and depend on that instead.',
      },
      { ruleId: "toolnexus/layers", line: 2, message: expect.stringContaining("not src/mcp/tasks.ts") },
    ]);
  });

  it("lets a module import the layers below it, and an edge another edge's entry", () => {
    expect(layerErrors("downward")).toEqual([]);
    expect(layerErrors("edgeThroughEntry")).toEqual([]);
  });

  it("passes on the real src/ tree", () => {
    expect(tree.length).toBeGreaterThan(100);
    expect(
      tree.flatMap(({ filePath, messages }) =>
        messages.map(({ line, message }) => `${filePath.slice(root.length + 1)}:${line} ${message}`),
      ),
    ).toEqual([]);
  });
});
