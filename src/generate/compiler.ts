import { createRequire } from "node:module";
import { dirname } from "node:path";
import type * as TypeScript from "typescript";
import type * as TypeScriptJsonSchema from "typescript-json-schema";
import type { ProjectTypeScript } from "../core/project-typescript";

/**
 * The compiler API generation runs on: the `typescript` that typescript-json-schema itself
 * loads, so the program, its checker and the schema generator are one TypeScript instance
 * whatever TypeScript the project has (TypeScript 7's `typescript` package has no JS API).
 * Files of this folder take values of the API from `TS` and use `ts` for types only.
 */
export interface Compiler {
  ts: typeof TypeScript;
  tjs: typeof TypeScriptJsonSchema;
  /** The `typescript` package directory it was loaded from. */
  typescriptDirectory: string;
}

export function loadCompiler(): Compiler {
  let tjsEntry: string;
  try {
    tjsEntry = require.resolve("typescript-json-schema");
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== "MODULE_NOT_FOUND") throw error;
    throw new Error(
      "toolnexus generate needs typescript-json-schema (an optional peer dependency of toolnexus), which is not " +
        "installed. Install it with `npm install --save-dev typescript-json-schema`.",
    );
  }
  const fromTjs = createRequire(tjsEntry);
  const typescriptDirectory = dirname(fromTjs.resolve("typescript/package.json"));
  const ts = fromTjs("typescript") as typeof TypeScript;
  if (typeof ts.createProgram !== "function") {
    throw new Error(
      `typescript-json-schema loads typescript ${ts.version} from ${typescriptDirectory}, which has no compiler API. ` +
        "Reinstall typescript-json-schema (npm install --save-dev typescript-json-schema) so it gets the TypeScript " +
        "5 it depends on.",
    );
  }
  return { ts, tjs: require(tjsEntry) as typeof TypeScriptJsonSchema, typescriptDirectory };
}

const compiler = loadCompiler();
/** The compiler API's values (functions, enums, `sys`). */
export const TS = compiler.ts;
/** typescript-json-schema, running on `TS`. */
export const TJS = compiler.tjs;
export const TYPESCRIPT_DIRECTORY = compiler.typescriptDirectory;

/** "TypeScript 5.9.3 (toolnexus's compiler; the project has typescript 7.0.2)", for the summary. */
export function compilerDescription(project: ProjectTypeScript | undefined): string {
  const own = `TypeScript ${TS.version}`;
  if (project === undefined) return `${own} (toolnexus's compiler; the project has no typescript package)`;
  if (project.directory === TYPESCRIPT_DIRECTORY) return `${own} (the project's)`;
  return `${own} (toolnexus's compiler; the project has typescript ${project.version})`;
}
