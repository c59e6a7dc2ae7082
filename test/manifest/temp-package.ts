import { mkdirSync, mkdtempSync, realpathSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import * as ts from "typescript";
import type { ToolnexusManifest } from "../../src/manifest";

/** Throwaway directories made by `tempTree`, removed by `removeTempTrees`. */
const made: string[] = [];

/**
 * A directory in the OS temp directory with `files` in it (paths relative to it; objects are
 * written as JSON, `.ts` sources as tsc would compile them to CommonJS `.js`, so the class's
 * defining file is the `.js`). Returns its real path.
 */
export function tempTree(files: Record<string, string | object>, compilerOptions: ts.CompilerOptions = {}): string {
  const dir = realpathSync(mkdtempSync(join(tmpdir(), "toolnexus-lookup-")));
  made.push(dir);
  writeTree(dir, files, compilerOptions);
  return dir;
}

/** Adds `files` to a directory as `tempTree` writes them. */
export function writeTree(
  dir: string,
  files: Record<string, string | object>,
  compilerOptions: ts.CompilerOptions = {},
): void {
  for (const [path, content] of Object.entries(files)) {
    const compiled = path.endsWith(".ts") ? path.replace(/\.ts$/, ".js") : path;
    const file = join(dir, compiled);
    mkdirSync(dirname(file), { recursive: true });
    if (typeof content !== "string") writeFileSync(file, JSON.stringify(content, null, 2));
    else writeFileSync(file, path.endsWith(".ts") ? compile(content, file, compilerOptions) : content);
  }
}

export function removeTempTrees(): void {
  for (const dir of made.splice(0)) rmSync(dir, { recursive: true, force: true });
}

/** tsc's CommonJS output for one file, without decorator metadata unless asked (what esbuild, tsx or swc give). */
export function compile(source: string, fileName: string, compilerOptions: ts.CompilerOptions = {}): string {
  return ts.transpileModule(source, {
    fileName: fileName.replace(/\.js$/, ".ts"),
    compilerOptions: {
      module: ts.ModuleKind.CommonJS,
      target: ts.ScriptTarget.ES2022,
      experimentalDecorators: true,
      emitDecoratorMetadata: false,
      esModuleInterop: true,
      ...compilerOptions,
    },
  }).outputText;
}

/** A manifest with one tool, `Class.method` taking `city` (a string), described by `description`. */
export function cityManifest(key: string, description: string, file = "src/weather.ts"): ToolnexusManifest {
  return {
    manifestVersion: 1,
    hash: "sha256:00000000000000000000000000000000",
    tools: {
      [key]: {
        name: key.slice(key.lastIndexOf(".") + 1),
        file,
        hash: "sha256:11111111111111111111111111111111",
        description,
        parameters: [
          { kind: "param", name: "city", optional: false, schema: { type: "string", description: "The city." } },
        ],
      },
    },
  };
}

/** A `@Tool` class whose only facts are in a manifest (no description, no metadata). */
export const WEATHER_SOURCE = `
import { Tool } from "toolnexus";
export class Weather {
  @Tool()
  forecast(city: string) {
    return city;
  }
}
`;
