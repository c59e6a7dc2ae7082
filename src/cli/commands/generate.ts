import { existsSync, mkdirSync, readFileSync, statSync, writeFileSync } from "node:fs";
import { dirname, join, relative, resolve } from "node:path";
import type { Command } from "commander";
import type * as Generate from "../../generate";
import { MANIFEST_FILE } from "../../manifest/types";

export interface GenerateCommandOptions {
  /** tsconfig.json of the project. Default `tsconfig.json`. */
  project?: string;
  /** Manifest path. Default `toolnexus.manifest.json` next to the tsconfig. */
  out?: string;
  /** Write nothing; exit 1 when the manifest is missing or stale. */
  check?: boolean;
  /** No progress on stderr. */
  quiet?: boolean;
  /** A machine-readable summary on stdout. */
  json?: boolean;
  /** Keep running: rewrite the manifest whenever a file of the project changes. */
  watch?: boolean;
}

export interface GenerateIO {
  stdout: { write(text: string): unknown };
  stderr: { write(text: string): unknown };
  cwd: string;
}

/** Exit codes: 0 written / up to date, 1 stale (`--check`), 2 errors (type errors, unsupported types, bad options). */
export const EXIT = { ok: 0, stale: 1, error: 2 } as const;

/** `toolnexus generate`: the manifest from the project's TypeScript types and JSDoc. */
export function registerGenerate(program: Command): Command {
  return program
    .command("generate")
    .description(
      "write toolnexus.manifest.json: parameter schemas and descriptions from the TypeScript types and JSDoc of " +
        "every @Tool method",
    )
    .option("-p, --project <tsconfig>", "the project's tsconfig.json", "tsconfig.json")
    .option("-o, --out <file>", `where the manifest goes (default: ${MANIFEST_FILE} next to the tsconfig)`)
    .option(
      "--check",
      "write nothing; exit 1 when the manifest is missing or stale, naming the tools that changed (for CI)",
    )
    .option("-q, --quiet", "no progress on stderr")
    .option("--json", "print a machine-readable summary on stdout")
    .option(
      "-w, --watch",
      "keep running and rewrite the manifest whenever a file of the project changes (one line per rewrite; Ctrl-C " +
        "ends)",
    )
    .action(async (options: GenerateCommandOptions) => {
      process.exitCode = await runGenerate(options, {
        stdout: process.stdout,
        stderr: process.stderr,
        cwd: process.cwd(),
      });
    });
}

interface Summary {
  ok: boolean;
  mode: "generate" | "check";
  project: string;
  manifest: string;
  /** generate: the file was (re)written; false when it already had this content. */
  written?: boolean;
  /** check: the manifest matches the sources. */
  upToDate?: boolean;
  reason?: string;
  /** The TypeScript generation ran on, and the project's own when it differs. */
  compiler?: string;
  files?: number;
  tools?: number;
  classes?: number;
  durationMs: number;
  timings?: Record<string, number>;
  changes: Generate.ToolChange[];
  errors: Generate.SourceProblem[];
  warnings: string[];
}

/** The command itself, for the bin and for tests: returns the exit code. */
export async function runGenerate(options: GenerateCommandOptions, io: GenerateIO): Promise<number> {
  const started = performance.now();
  // Like tsc -p, a directory stands for the tsconfig.json in it.
  const given = options.project ?? "tsconfig.json";
  const project =
    existsSync(resolve(io.cwd, given)) && statSync(resolve(io.cwd, given)).isDirectory()
      ? join(given, "tsconfig.json")
      : given;
  const mode = options.check ? "check" : "generate";
  const progress = (text: string) => {
    if (!options.quiet) io.stderr.write(`toolnexus generate: ${text}\n`);
  };
  const summary: Summary = {
    ok: false,
    mode,
    project,
    manifest: options.out ?? "",
    durationMs: 0,
    changes: [],
    errors: [],
    warnings: [],
  };
  const finish = (code: number): number => {
    summary.durationMs = Math.round(performance.now() - started);
    if (options.json) {
      // A fixed key order, whatever order the fields were filled in.
      const order: Array<keyof Summary> = [
        "ok",
        "mode",
        "project",
        "manifest",
        "written",
        "upToDate",
        "reason",
        "compiler",
        "files",
        "tools",
        "classes",
        "durationMs",
        "timings",
        "changes",
        "errors",
        "warnings",
      ];
      const ordered = Object.fromEntries(
        order.filter((key) => summary[key] !== undefined).map((key) => [key, summary[key]]),
      );
      io.stdout.write(`${JSON.stringify(ordered, null, 2)}\n`);
    }
    return code;
  };
  const fail = (problems: Generate.SourceProblem[], format: (p: Generate.SourceProblem) => string): number => {
    summary.errors = problems;
    io.stderr.write(`${problems.map(format).join("\n")}\n`);
    io.stderr.write(
      `toolnexus generate: failed with ${problems.length} ` +
        `error${problems.length === 1 ? "" : "s"}` +
        `${mode === "check" ? "; the manifest was not checked" : "; nothing was written"}.\n`,
    );
    return finish(EXIT.error);
  };

  let generate: typeof Generate;
  try {
    generate = loadGenerator();
  } catch (error) {
    return fail([{ message: (error as Error).message }], (p) => `toolnexus generate: ${p.message}`);
  }
  if (!existsSync(resolve(io.cwd, project))) {
    return fail(
      [{ message: `there is no ${project} in ${io.cwd}. Point at the project's tsconfig with --project <path>.` }],
      (p) => `toolnexus generate: ${p.message}`,
    );
  }
  if (options.watch && (options.check || options.json)) {
    return fail(
      [
        {
          message:
            "--watch rewrites the manifest as files change; it cannot be combined with " +
            `${options.check ? "--check" : "--json"}.`,
        },
      ],
      (p) => `toolnexus generate: ${p.message}`,
    );
  }
  if (options.watch) return watchGenerate(generate, project, options, io);

  let result: Generate.GenerateResult;
  try {
    result = generate.generateManifest({
      project,
      cwd: io.cwd,
      onProgress: (event) => {
        if (event.phase === "program")
          progress(
            `${project}: ${event.files} source file${event.files === 1 ? "" : "s"}, ${event.compiler} (program in ` +
              `${ms(event.ms)})`,
          );
        else if (event.phase === "typecheck") progress(`type-checked in ${ms(event.ms)}`);
        else
          progress(
            `scanned ${event.files} file${event.files === 1 ? "" : "s"}: ${event.tools} ` +
              `tool${event.tools === 1 ? "" : "s"} in ${event.classes} class${event.classes === 1 ? "" : "es"} ` +
              `(${ms(event.ms)})`,
          );
      },
    });
  } catch (error) {
    if (error instanceof generate.GenerateError) return fail(error.problems, generate.formatProblem);
    return fail([{ message: (error as Error).message ?? String(error) }], (p) => `toolnexus generate: ${p.message}`);
  }

  const out = options.out !== undefined ? resolve(io.cwd, options.out) : join(result.directory, MANIFEST_FILE);
  const shownOut = displayed(out, io.cwd);
  Object.assign(summary, {
    manifest: shownOut,
    compiler: result.compiler,
    files: result.stats.files,
    tools: result.stats.tools,
    classes: result.stats.classes,
    timings: Object.fromEntries(
      Object.entries(result.stats.timings).map(([phase, value]) => [phase, Math.round(value)]),
    ),
    warnings: result.warnings,
  });
  // Warnings are shown even with --quiet: they are about the project, not progress.
  for (const warning of result.warnings) io.stderr.write(`toolnexus generate: warning: ${warning}\n`);

  const existing = existsSync(out) ? readFileSync(out, "utf8") : undefined;
  if (mode === "check") {
    const comparison = generate.compareManifests(existing, result.manifest, result.text);
    summary.upToDate = comparison.upToDate;
    summary.changes = comparison.changes;
    if (comparison.reason !== undefined) summary.reason = comparison.reason;
    summary.ok = comparison.upToDate;
    if (comparison.upToDate) {
      progress(`${shownOut} is up to date (${result.stats.tools} tools) in ${ms(performance.now() - started)}`);
      return finish(EXIT.ok);
    }
    const count = comparison.changes.length;
    const lines = [
      `toolnexus generate --check: ${shownOut} is ` +
        `stale${comparison.reason !== undefined ? `: ${comparison.reason}` : ""}` +
        `${count > 0 ? ` (${count} tool${count === 1 ? "" : "s"} changed)` : ""}.`,
      ...comparison.changes.map(describeChange),
      "Run `npx toolnexus generate` and commit the manifest.",
    ];
    io.stderr.write(`${lines.join("\n")}\n`);
    return finish(EXIT.stale);
  }

  summary.written = existing !== result.text;
  if (summary.written) {
    try {
      mkdirSync(dirname(out), { recursive: true });
      writeFileSync(out, result.text);
    } catch (error) {
      return fail(
        [{ message: `cannot write ${shownOut}: ${(error as Error).message}` }],
        (p) => `toolnexus generate: ${p.message}`,
      );
    }
  }
  summary.ok = true;
  progress(
    `${summary.written ? "wrote" : "unchanged:"} ${shownOut} (${result.stats.tools} tools) in ` +
      `${ms(performance.now() - started)}`,
  );
  return finish(EXIT.ok);
}

/**
 * The generator needs the optional peer typescript-json-schema (and runs on the TypeScript it
 * loads): loaded only when this command runs; its absence is an error saying what to install.
 */
function loadGenerator(): typeof Generate {
  return require("../../generate") as typeof Generate;
}

/**
 * `--watch`: the manifest is written after the first run and rewritten after every change,
 * one line each; errors are printed and the manifest is left as it was until they are fixed.
 * Ends, with exit code 0, on Ctrl-C (SIGINT) or SIGTERM.
 */
function watchGenerate(
  generate: typeof Generate,
  project: string,
  options: GenerateCommandOptions,
  io: GenerateIO,
): Promise<number> {
  const out =
    options.out !== undefined ? resolve(io.cwd, options.out) : join(dirname(resolve(io.cwd, project)), MANIFEST_FILE);
  const shownOut = displayed(out, io.cwd);
  const line = (text: string) =>
    io.stderr.write(`toolnexus generate: [${new Date().toLocaleTimeString("en-GB")}] ${text}\n`);
  let runs = 0;
  let shownWarnings = new Set<string>();
  const watcher = generate.watchManifest({
    project,
    cwd: io.cwd,
    onRun: (run) => {
      const first = runs++ === 0;
      const watching = first ? "; watching for changes (Ctrl-C ends)" : "";
      if ("error" in run) {
        const problems =
          run.error instanceof generate.GenerateError
            ? run.error.problems
            : [{ message: (run.error as Error)?.message ?? String(run.error) }];
        io.stderr.write(`${problems.map(generate.formatProblem).join("\n")}\n`);
        line(
          `failed with ${problems.length} error${problems.length === 1 ? "" : "s"}; ${shownOut} was left as it ` +
            `was${watching}`,
        );
        return;
      }
      const { result } = run;
      // Each warning once, not again on every rewrite.
      for (const warning of result.warnings)
        if (!shownWarnings.has(warning)) io.stderr.write(`toolnexus generate: warning: ${warning}\n`);
      shownWarnings = new Set(result.warnings);
      const { tools, reused, timings } = result.stats;
      const counts = `${tools} tool${tools === 1 ? "" : "s"}${first ? "" : `, ${tools - reused} regenerated`}`;
      const existing = existsSync(out) ? readFileSync(out, "utf8") : undefined;
      if (existing === result.text) {
        line(`unchanged: ${shownOut} (${counts}) in ${ms(timings.total)}${watching}`);
        return;
      }
      try {
        mkdirSync(dirname(out), { recursive: true });
        writeFileSync(out, result.text);
      } catch (error) {
        line(`cannot write ${shownOut}: ${(error as Error).message}${watching}`);
        return;
      }
      line(
        `${first ? "wrote" : "rewrote"} ${shownOut} (${counts}) in ` +
          `${ms(timings.total)}${first ? `, ${result.compiler}` : ""}${watching}`,
      );
    },
  });
  return new Promise((resolveExit) => {
    const stop = () => {
      process.off("SIGINT", stop);
      process.off("SIGTERM", stop);
      watcher.close();
      io.stderr.write("toolnexus generate: stopped watching\n");
      resolveExit(EXIT.ok);
    };
    process.on("SIGINT", stop);
    process.on("SIGTERM", stop);
  });
}

function describeChange(change: Generate.ToolChange): string {
  const name = change.tool !== undefined && change.tool !== change.key.split(".")[1] ? ` (tool "${change.tool}")` : "";
  if (change.change === "added") return `  + ${change.key}${name}: not in the manifest`;
  if (change.change === "removed") return `  - ${change.key}${name}: no longer in the source`;
  return `  ~ ${change.key}${name}: ${change.details.join("; ")}`;
}

function ms(value: number): string {
  return value >= 1000 ? `${(value / 1000).toFixed(2)} s` : `${Math.round(value)} ms`;
}

function displayed(path: string, cwd: string): string {
  const relativePath = relative(cwd, path);
  return relativePath === "" || relativePath.startsWith("..") ? path : relativePath;
}
