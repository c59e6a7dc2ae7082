import { execFile } from "node:child_process";
import { mkdirSync, mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { requireBuild } from "../support/built-package";

export const root = join(__dirname, "..", "..");
/** The built CLI: these tests run it the way users do. */
export const bin = join(root, "dist", "cjs", "cli", "main.js");
export const fixtures = join(root, "test", "fixtures", "generate");
/** A fixture's tsconfig as a user would type it: relative to the repository root. */
export const fixtureProject = (name: string): string => `test/fixtures/generate/${name}/tsconfig.json`;

export const assertBuilt = (): void => requireBuild("these tests run the built bin");

export interface BinRun {
  code: number | null;
  stdout: string;
  stderr: string;
}

/** Runs `toolnexus <args>` from the built package (or the bin at `binPath`), in `cwd` (the repository root by default). */
export function runBin(args: string[], cwd = root, binPath = bin): Promise<BinRun> {
  return new Promise((resolve, reject) => {
    const child = execFile(
      process.execPath,
      [binPath, ...args],
      { cwd, encoding: "utf8", maxBuffer: 16 * 1024 * 1024 },
      (error, stdout, stderr) => {
        if (error && typeof error.code !== "number") return reject(error);
        resolve({ code: error ? (error.code as number) : 0, stdout, stderr });
      },
    );
    child.stdin?.end();
  });
}

/** Declarations standing in for the toolnexus package, so a temporary project type-checks alone (fast). */
export const TOOLNEXUS_STUB = `
export declare function Tool(descriptionOrOptions?: string | { name?: string; description?: string; input?: object; output?: object }): MethodDecorator;
export declare function Param(nameOrOptions?: string | Record<string, unknown>, options?: Record<string, unknown>): ParameterDecorator;
export declare function Ctx(): ParameterDecorator;
export declare function Args(type?: Function): ParameterDecorator;
export interface ToolContext { callId?: string; state?: Record<string, unknown>; reportProgress?: (progress: number) => void }
export interface ToolCallContext extends ToolContext { reportProgress: (progress: number) => void }
`;

/** Stands in for toolnexus/nestjs: `ToolParam`, the alias of `@Param` for NestJS code. */
export const TOOLNEXUS_NESTJS_STUB = `import type { Param } from "./toolnexus";
export declare const ToolParam: typeof Param;
`;

/**
 * A throwaway TypeScript project in the OS temp directory: `files` under it (paths relative to
 * it), a tsconfig including `src`, and "toolnexus" resolved to the stub. Returns its directory.
 */
export function tempProject(files: Record<string, string>, compilerOptions: Record<string, unknown> = {}): string {
  const dir = mkdtempSync(join(tmpdir(), "toolnexus-generate-"));
  const all: Record<string, string> = {
    "toolnexus.d.ts": TOOLNEXUS_STUB,
    "toolnexus-nestjs.d.ts": TOOLNEXUS_NESTJS_STUB,
    "tsconfig.json": JSON.stringify({
      compilerOptions: {
        target: "ES2022",
        lib: ["ES2022"],
        module: "commonjs",
        strict: true,
        experimentalDecorators: true,
        emitDecoratorMetadata: true,
        skipLibCheck: true,
        noEmit: true,
        types: [],
        baseUrl: ".",
        paths: { toolnexus: ["./toolnexus.d.ts"], "toolnexus/nestjs": ["./toolnexus-nestjs.d.ts"] },
        ...compilerOptions,
      },
      include: ["src"],
    }),
    ...files,
  };
  for (const [path, text] of Object.entries(all)) {
    const file = join(dir, path);
    mkdirSync(dirname(file), { recursive: true });
    writeFileSync(file, text);
  }
  return dir;
}
