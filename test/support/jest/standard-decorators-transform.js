// Compiles the tests of classes under standard (TC39) decorators with their folder's tsconfig.json.
// ts-jest keeps one configuration per jest project, whatever each transform entry asks, so a
// second ts-jest entry with another tsconfig would compile these files with legacy decorators.
const { createHash } = require("node:crypto");
const { join } = require("node:path");
const ts = require("typescript");

const CONFIG = join(__dirname, "..", "..", "decorators", "standard", "tsconfig.json");

const { options } = ts.getParsedCommandLineOfConfigFile(
  CONFIG,
  {},
  {
    ...ts.sys,
    onUnRecoverableConfigFileDiagnostic: (d) => {
      throw new Error(ts.flattenDiagnosticMessageText(d.messageText, "\n"));
    },
  },
);
const compilerOptions = {
  ...options,
  module: ts.ModuleKind.CommonJS,
  noEmit: false,
  sourceMap: false,
  inlineSourceMap: true,
  inlineSources: true,
};

module.exports = {
  process(source, filename) {
    return { code: ts.transpileModule(source, { fileName: filename, compilerOptions }).outputText };
  },
  getCacheKey(source, filename) {
    return createHash("sha256")
      .update(`${ts.version}\0${JSON.stringify(compilerOptions)}\0${filename}\0${source}`)
      .digest("hex");
  },
};
