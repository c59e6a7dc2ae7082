// ESLint flat config. The aim is catching real problems (import cycles, runtime layering,
// code built from strings, the usual correctness rules), not style: formatting belongs to
// Prettier (eslint-config-prettier, last, turns off every rule that would fight it).
import js from "@eslint/js";
import prettier from "eslint-config-prettier";
import { createTypeScriptImportResolver } from "eslint-import-resolver-typescript";
import { importX } from "eslint-plugin-import-x";
import { defineConfig, globalIgnores } from "eslint/config";
import globals from "globals";
import tseslint from "typescript-eslint";

const root = import.meta.dirname;

export default defineConfig([
  globalIgnores([
    "**/node_modules/",
    "dist/",
    "coverage/",
    "test/fixtures/**/dist/",
    // Written by test/docs/readme-snippets.test.ts from the README's code blocks (gitignored).
    "test/docs/.readme-snippets/",
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
      "import-x/resolver-next": [createTypeScriptImportResolver({ project: `${root}/tsconfig.json`, alwaysTryTypes: true })],
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
        { argsIgnorePattern: "^_", varsIgnorePattern: "^_", caughtErrorsIgnorePattern: "^_", destructuredArrayIgnorePattern: "^_", ignoreRestSiblings: true },
      ],
    },
  },

  {
    // Layering: the runtime (validation, coercion, invocation) depends only on the shared
    // types and errors, never on the toolkit, the providers or the scanners above it.
    // Checked on resolved paths (import, export ... from, import()), so `../x`, `../../src/x`
    // and the `toolnexus` alias all count; require() is not checked.
    name: "toolnexus/runtime-layering",
    files: ["src/runtime/**"],
    rules: {
      "import-x/no-restricted-paths": [
        "error",
        {
          basePath: root,
          zones: [
            {
              target: "src/runtime",
              from: "src",
              except: ["runtime", "types.ts", "errors.ts", "subschemas.ts"],
              message: "src/runtime/ may import only src/runtime/, src/types.ts, src/errors.ts and src/subschemas.ts.",
            },
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
