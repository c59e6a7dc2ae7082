import { nodeWarnings, toolnexusWarnings } from "./node-warnings";

/** What `node --trace-warnings` prints on stderr, as the matrices read it. */
const stderr = [
  "(node:4242) [DEP0999] DeprecationWarning: old api",
  "    at emitIt (node:internal/process/warning:90:3)",
  "    at exports.go (/tmp/project/node_modules/toolnexus/dist/cjs/index.js:1:30)",
  "    at Object.<anonymous> (/tmp/project/main.cjs:1:22)",
  "(node:4242) [DEP0005] DeprecationWarning: Buffer() is deprecated.",
  "    at showFlaggedDeprecation (node:buffer:191:11)",
  "    at new Buffer (node:buffer:269:3)",
  "    at load (/tmp/project/node_modules/some-peer/index.js:3:1)",
  "    at Object.<anonymous> (/tmp/project/node_modules/toolnexus/dist/cjs/ai-sdk/index.js:5:9)",
  "(node:4242) ExperimentalWarning: CommonJS module /tmp/project/node_modules/toolnexus/dist/cjs/ai-sdk/tool-set.js is loading ES Module /tmp/project/node_modules/ai/dist/index.js using require().",
  "Support for loading ES Module in require() is an experimental feature and might change at any time",
  "    at TracingChannel.traceSync (node:diagnostics_channel:315:14)",
  "(node:4242) NodeVersionSupportWarning: The AWS SDK for JavaScript (v3)",
  "will stop supporting Node 20 soon.",
  "    at emitWarningIfUnsupportedVersion (/tmp/project/node_modules/@aws-sdk/core/dist-cjs/index.js:9:5)",
  "an ordinary line the program printed",
].join("\n");

describe("Node's warnings on a process's stderr", () => {
  it("are read with every line of their message and the stack --trace-warnings adds", () => {
    expect(
      nodeWarnings(stderr).map(({ text, stack }) => ({ text: text.split("\n").length, frames: stack.length })),
    ).toEqual([
      { text: 1, frames: 3 },
      { text: 1, frames: 4 },
      { text: 2, frames: 1 },
      { text: 2, frames: 1 },
    ]);
  });

  it("are toolnexus's when toolnexus called what warned, or when the message names a file of toolnexus; not when it only loaded the package that warned", () => {
    expect(toolnexusWarnings(stderr).map((warning) => warning.split("\n")[0])).toEqual([
      "[DEP0999] DeprecationWarning: old api",
      "ExperimentalWarning: CommonJS module /tmp/project/node_modules/toolnexus/dist/cjs/ai-sdk/tool-set.js is loading ES Module /tmp/project/node_modules/ai/dist/index.js using require().",
    ]);
  });

  it("are none in a stderr without any", () => {
    expect(nodeWarnings("npm warn something\nplain output\n")).toEqual([]);
  });
});
