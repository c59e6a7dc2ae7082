import { execFileSync } from "node:child_process";
import { mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { builtinModules } from "node:module";
import { join, relative, sep } from "node:path";
import * as ts from "typescript";
import { patience } from "../support/time";

/**
 * Every ```ts block of the README and of the site's pages (every Markdown file under docs/: the home page and the guides; not what
 * `npm run docs` generates under docs/api/ and docs/examples/, nor docs/.vitepress/) is compiled against the built package's own type
 * declarations (as a user's project would see it) and run with Node; it must succeed.
 * A block fenced as ```ts compile-only is compiled but not run; one fenced as
 * ```ts standard-decorators is compiled with standard (TC39) decorators, as TypeScript 5+ and
 * esbuild do without `experimentalDecorators`; the others with `experimentalDecorators` and
 * `emitDecoratorMetadata`. Every block also compiles in a CommonJS project as many NestJS
 * starters set one up, and every package a block imports is in one of the `npm install` commands of the README or
 * of the guides. Each snippet's file is named for its source: `readme-03` is the README's third block,
 * `guides-mcp-02` the second block of docs/guides/mcp.md.
 */
const root = join(__dirname, "..", "..");
const work = join(__dirname, ".readme-snippets");

/**
 * The Markdown files of docs/, recursively, without what `npm run docs` generates (the API reference,
 * the examples' pages: their code is run by the examples' own tests) and the site's own machinery.
 */
function markdownFilesUnder(directory: string): string[] {
  return readdirSync(directory, { withFileTypes: true }).flatMap((entry) => {
    const path = join(directory, entry.name);
    if (entry.isDirectory())
      return ["api", "examples", ".vitepress", ".typedoc", "node_modules"].includes(entry.name) &&
        directory === join(root, "docs")
        ? []
        : markdownFilesUnder(path);
    return entry.name.endsWith(".md") ? [path] : [];
  });
}

/** The README, then every page of the site, each with the prefix its snippets' files are named by. */
const sources: { prefix: string; path: string; text: string }[] = [
  join(root, "README.md"),
  ...markdownFilesUnder(join(root, "docs")).sort(),
].map((path) => ({ prefix: prefixOf(path), path, text: readFileSync(path, "utf8") }));

/** `readme` for the README; a page's path under docs/ without `.md`, its separators as `-` (`guides-mcp`). */
function prefixOf(path: string): string {
  if (path === join(root, "README.md")) return "readme";
  return relative(join(root, "docs"), path).replace(/\.md$/, "").split(sep).join("-");
}

interface Snippet {
  file: string;
  run: boolean;
  /** Compiled with standard (TC39) decorators rather than `experimentalDecorators`. */
  standard: boolean;
  code: string;
}

function snippets(): Snippet[] {
  return sources.flatMap(({ prefix, text }) =>
    [...text.matchAll(/```ts( compile-only| standard-decorators)?\n([\s\S]*?)```/g)].map((match, index) => ({
      file: `${prefix}-${String(index + 1).padStart(2, "0")}`,
      run: match[1] !== " compile-only",
      standard: match[1] === " standard-decorators",
      code: match[2]!,
    })),
  );
}

/** The options that compile standard decorators: TypeScript's default without `experimentalDecorators`. */
const STANDARD_DECORATORS = { experimentalDecorators: false, emitDecoratorMetadata: false };

/** The package an import specifier names: `@scope/name` or `name`, without its subpath. */
function packageOf(specifier: string): string {
  const parts = specifier.split("/");
  return specifier.startsWith("@") ? parts.slice(0, 2).join("/") : parts[0]!;
}

/** Every module a snippet imports (`import ... from "x"`, `import "x"`), type-only imports included. */
function importedModules(code: string): string[] {
  return [...code.matchAll(/^\s*import\s+(?:[^"']*?\s+from\s+)?["']([^"']+)["']/gm)].map((match) => match[1]!);
}

/** The packages of every `npm install` / `npm i` line of the shell blocks of the README and the guides. */
function installedPackages(): Set<string> {
  const installed = new Set<string>();
  const withInstalls = sources.filter(({ prefix }) => prefix === "readme" || prefix.startsWith("guides-"));
  for (const [, block] of withInstalls.flatMap(({ text }) => [
    ...text.matchAll(/```(?:sh|bash|shell)\n([\s\S]*?)```/g),
  ])) {
    for (const line of block!.split("\n")) {
      const command = /^\s*npm\s+(?:install|i|add)\b(.*)$/.exec(line.replace(/#.*$/, ""));
      if (command === null) continue;
      for (const word of command[1]!.trim().split(/\s+/)) {
        if (word === "" || word.startsWith("-")) continue;
        installed.add(word.replace(/(.)@[^/]*$/, "$1"));
      }
    }
  }
  return installed;
}

const isBuiltin = (specifier: string) => specifier.startsWith("node:") || builtinModules.includes(specifier);

/**
 * The compiler options of a CommonJS project as many NestJS starters have it: `module:
 * commonjs`, classic node10 resolution (package.json "exports" not read), decorators with
 * metadata. The toolnexus entries point at the built declarations.
 */
const COMMONJS_OPTIONS: ts.CompilerOptions = {
  target: ts.ScriptTarget.ES2022,
  lib: ["lib.es2022.d.ts"],
  module: ts.ModuleKind.CommonJS,
  moduleResolution: ts.ModuleResolutionKind.Node10,
  strict: true,
  experimentalDecorators: true,
  emitDecoratorMetadata: true,
  allowSyntheticDefaultImports: true,
  skipLibCheck: true,
  noEmit: true,
  types: ["node"],
  typeRoots: [join(root, "node_modules", "@types")],
  baseUrl: root,
  paths: {
    toolnexus: ["dist/cjs/index.d.ts"],
    "toolnexus/mcp": ["dist/cjs/mcp/index.d.ts"],
    "toolnexus/nestjs": ["dist/cjs/nestjs/index.d.ts"],
    "toolnexus/openai-agents": ["dist/cjs/openai-agents/index.d.ts"],
    "toolnexus/ai-sdk": ["dist/cjs/ai-sdk/index.d.ts"],
    "toolnexus/langchain": ["dist/cjs/langchain/index.d.ts"],
    "toolnexus/bullmq": ["dist/cjs/bullmq/index.d.ts"],
    "toolnexus/providers": ["dist/cjs/providers/index.d.ts"],
  },
};

/**
 * Top-level `await` (and `for await`) is for ES modules: in a CommonJS file the same lines sit inside an async
 * function, as the README says. Every other diagnostic counts.
 */
const TOP_LEVEL_AWAIT_DIAGNOSTICS = new Set([1375, 1378, 1432]);

describe("README and guides", () => {
  const blocks = snippets();

  beforeAll(() => {
    rmSync(work, { recursive: true, force: true });
    mkdirSync(join(work, "cjs"), { recursive: true });
    mkdirSync(join(work, "standard"), { recursive: true });
    for (const { file, code, standard } of blocks) {
      writeFileSync(join(work, standard ? "standard" : ".", `${file}.mts`), code);
      writeFileSync(join(work, "cjs", `${file}.ts`), code);
    }
    const project = (directory: string, decorators: object) =>
      JSON.stringify({
        extends: "../../../tsconfig.json",
        compilerOptions: {
          noEmit: false,
          outDir: "out",
          rootDir: ".",
          paths: {},
          types: ["node"],
          isolatedModules: false,
          ...decorators,
        },
        include: [`${directory}/*.mts`],
      });
    writeFileSync(join(work, "tsconfig.json"), project(".", {}));
    writeFileSync(
      join(work, "tsconfig.standard.json"),
      project("standard", { ...STANDARD_DECORATORS, rootDir: "standard" }),
    );
    // Compiled together, as ES modules (top-level await), resolving "toolnexus" to dist/: each decorator mode apart.
    for (const config of ["tsconfig.json", "tsconfig.standard.json"])
      execFileSync(process.execPath, [require.resolve("typescript/bin/tsc"), "-p", join(work, config)], {
        cwd: root,
        encoding: "utf8",
      });
  });

  afterAll(() => {
    if (!process.env.KEEP_SNIPPETS) rmSync(work, { recursive: true, force: true });
  });

  it("has code blocks to check", () => {
    expect(blocks.length).toBeGreaterThanOrEqual(2);
    expect(blocks.some(({ file }) => file.startsWith("readme-"))).toBe(true);
  });

  it.each(
    snippets()
      .filter((s) => s.run)
      .map((s) => [s.file]),
  )("%s runs", (file) => {
    // A snippet that never ends (a connection left open) fails here rather than holding the run.
    const output = execFileSync(process.execPath, [join(work, "out", `${file}.mjs`)], {
      cwd: root,
      encoding: "utf8",
      timeout: patience(60_000),
    });
    expect(output.length).toBeGreaterThan(0);
  });

  it("every snippet compiles in a CommonJS project (module commonjs, moduleResolution node10)", () => {
    const problems = [false, true].flatMap((standard) => {
      const files = blocks
        .filter((block) => block.standard === standard)
        .map(({ file }) => join(work, "cjs", `${file}.ts`));
      const program = ts.createProgram(files, { ...COMMONJS_OPTIONS, ...(standard ? STANDARD_DECORATORS : {}) });
      return ts
        .getPreEmitDiagnostics(program)
        .filter((diagnostic) => !TOP_LEVEL_AWAIT_DIAGNOSTICS.has(diagnostic.code));
    });
    const host: ts.FormatDiagnosticsHost = {
      getCanonicalFileName: (name) => name,
      getCurrentDirectory: () => work,
      getNewLine: () => "\n",
    };
    expect(ts.formatDiagnostics(problems, host)).toBe("");
  });

  it("says how to install every package a snippet imports", () => {
    const installed = installedPackages();
    const missing = new Set<string>();
    for (const { file, code } of blocks) {
      for (const specifier of importedModules(code)) {
        if (!isBuiltin(specifier) && !installed.has(packageOf(specifier)))
          missing.add(`${packageOf(specifier)} (imported by ${file})`);
      }
    }
    expect([...missing]).toEqual([]);
  });
});
