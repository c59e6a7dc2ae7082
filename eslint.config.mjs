// ESLint flat config. The aim is catching real problems (import cycles, layering,
// code built from strings, the usual correctness rules), not style: formatting belongs to
// Prettier (eslint-config-prettier, last, turns off every rule that would fight it).
import js from "@eslint/js";
import prettier from "eslint-config-prettier";
import { createTypeScriptImportResolver } from "eslint-import-resolver-typescript";
import { importX } from "eslint-plugin-import-x";
import { defineConfig, globalIgnores } from "eslint/config";
import globals from "globals";
import tseslint from "typescript-eslint";
import layers from "./eslint/rules/layers.mjs";

const root = import.meta.dirname;

export default defineConfig([
  globalIgnores([
    "**/node_modules/",
    "dist/",
    "coverage/",
    "test/fixtures/**/dist/",
    // Written by test/docs/readme-snippets.test.ts from the README's code blocks (gitignored).
    "test/docs/.readme-snippets/",
    // The documentation site's generated files (npm run docs; gitignored).
    "docs/api/",
    "docs/examples/",
    "docs/.vitepress/dist/",
    "docs/.vitepress/cache/",
    "test/docs/.artifacts/",
  ]),

  js.configs.recommended,
  tseslint.configs.recommended,

  {
    name: "toolnexus/base",
    linterOptions: { reportUnusedDisableDirectives: "error" },
    languageOptions: {
      sourceType: "module",
      globals: { ...globals.node },
    },
    plugins: { "import-x": importX },
    settings: {
      "import-x/extensions": [".ts", ".mts", ".cts", ".js", ".mjs", ".cjs"],
      "import-x/external-module-folders": ["node_modules", "node_modules/@types"],
      "import-x/parsers": { "@typescript-eslint/parser": [".ts", ".mts", ".cts"] },
      // Resolves like tsc: extensionless relative imports of .ts files and the `toolnexus` /
      // `toolnexus/nestjs` paths of tsconfig.json (so a cycle through them is seen too).
      "import-x/resolver-next": [
        createTypeScriptImportResolver({ project: `${root}/tsconfig.json`, alwaysTryTypes: true }),
      ],
    },
    rules: {
      // A cycle between modules makes load order decide what an import sees (undefined at
      // first use, decorator metadata missing). `import type` cycles are erased and not reported.
      "import-x/no-cycle": ["error", { ignoreExternal: true }],
      // Code built from strings; a deliberate use must say why with an eslint-disable comment.
      "no-new-func": "error",

      // Turned off: they only flag patterns this codebase uses on purpose.
      // - `Function` is the type of a class as a metadata target: reflect-metadata's
      //   design:paramtypes, class-validator/class-transformer type functions, NestJS handlers
      //   (TypeScript's own ClassDecorator/MethodDecorator use it the same way).
      "@typescript-eslint/no-unsafe-function-type": "off",
      // - require() is how optional peers (typescript, @modelcontextprotocol/sdk) and the
      //   generator are loaded lazily, how the CLI loads user modules, how tests load the built
      //   package or fresh copies in jest.isolateModules; each is typed with `as typeof import(...)`.
      "@typescript-eslint/no-require-imports": "off",
      // Relaxed, not off: `_`-prefixed names are deliberately unused (placeholders in
      // signatures, `const { $ref: _ref, ...rest }`); anything else unused is still an error.
      "@typescript-eslint/no-unused-vars": [
        "error",
        {
          argsIgnorePattern: "^_",
          varsIgnorePattern: "^_",
          caughtErrorsIgnorePattern: "^_",
          destructuredArrayIgnorePattern: "^_",
          ignoreRestSiblings: true,
        },
      ],
    },
  },

  {
    // Layering: the table below, bottom layer first. A module may import only its own layer
    // and the layers below it (`reaches` lowers that ceiling). The folders of an `apart` layer
    // are separate units: one reaches another only through its public entry, its index.ts. A
    // file of src/ in no folder of the table is an error: a new folder goes in the lowest layer
    // that holds everything it imports (CONTRIBUTING.md, "Layers").
    //
    // Checked by a local rule (eslint/rules/layers.mjs) on resolved paths, so `../x`,
    // `../../src/x` and the `toolnexus` aliases all count, for import, import type,
    // export ... from, import(), require(), require.resolve() and `typeof import()` alike
    // (import-x/no-restricted-paths sees neither require.resolve nor `typeof import()`).
    // What resolves outside src/ (packages, lazily required optional peers) is not checked.
    name: "toolnexus/layers",
    files: ["src/**"],
    plugins: { toolnexus: { rules: { layers } } },
    rules: {
      "toolnexus/layers": [
        "error",
        {
          root,
          scope: "src",
          layers: [
            // Types, errors, names, definition checks, timers, small fs helpers: imports nothing of ours above.
            { name: "core", folders: ["src/core"] },
            // The call primitives: argument acceptance, validation, coercion, invocation, results.
            { name: "runtime", folders: ["src/runtime"] },
            // Decorators: they only record metadata.
            { name: "record", folders: ["src/decorators"] },
            // Tools from classes and functions: schemas, the manifest, the scanner, defineTool.
            { name: "build", folders: ["src/schema", "src/manifest", "src/scanner", "src/define"] },
            // The seams: visibility, authorization, approval, middleware, retries, executor, tracing, deadlines.
            { name: "control", folders: ["src/control"] },
            // One call end to end: the call pipeline, failure reports, the unknown-tool answer.
            { name: "pipeline", folders: ["src/pipeline"] },
            // Each provider's declarations, calls and replies.
            { name: "providers", folders: ["src/providers"] },
            // The Toolkit, the pieces several edges share (the task store), and the limits the root entry gathers.
            { name: "toolkit", folders: ["src/toolkit", "src/tasks", "src/limits"] },
            // The edges (optional entry points) and the tooling (CLI, generate): one reaches another through its index.ts only.
            {
              name: "edges",
              folders: [
                "src/mcp",
                "src/nestjs",
                "src/ai-sdk",
                "src/langchain",
                "src/openai-agents",
                "src/bullmq",
                "src/cli",
                "src/generate",
              ],
              apart: true,
            },
            // The root entry point: anything below the edges, never an edge (they have their own entry points).
            { name: "entry", folders: ["src/index.ts"], reaches: "toolkit" },
          ],
        },
      ],
    },
  },

  {
    // Plain CommonJS JavaScript (CLI fixtures loaded with require()), except the fixture
    // package whose package.json says "type": "module".
    name: "toolnexus/commonjs",
    files: ["**/*.js", "**/*.cjs"],
    ignores: ["test/fixtures/cli/esm-package/**"],
    languageOptions: { sourceType: "commonjs" },
  },

  prettier,
]);
