import { dirname, resolve } from "node:path";
import type * as ts from "typescript";
import { projectTypeScript, type ProjectTypeScript } from "../core/project-typescript";
import { TS } from "./compiler";
import { EntryCache } from "./entry-cache";
import { GenerateError, problemOfDiagnostic } from "./errors";
import { generateFromProgram, type Built, type GenerateOptions, type GenerateResult } from "./generate";
import { CHECK_ONLY, configProblems, ownSourceFiles, withProjectDefaults } from "./project";

/** What one run of a watch gave: a result, or the error that stopped it (the watch goes on). */
export type WatchRun = { result: GenerateResult } | { error: unknown };

export interface WatchOptions extends GenerateOptions {
  /** Called after the first run and after every change of the project's files or tsconfig. */
  onRun: (run: WatchRun) => void;
}

export interface ManifestWatcher {
  /** Stops watching (closes every file watcher). */
  close(): void;
}

/**
 * Generates the manifest, then again whenever a file of the project (or its tsconfig) changes,
 * on TypeScript's watch: each new program reuses the unchanged files of the previous one, their
 * diagnostics are kept (a builder program), and the entries of tools none of whose files changed
 * are taken as they were. Changes within 250 ms make one run (TypeScript's own delay).
 */
export function watchManifest(options: WatchOptions): ManifestWatcher {
  const cwd = options.cwd ?? process.cwd();
  const configFile = resolve(cwd, options.project ?? "tsconfig.json");
  const directory = dirname(configFile);
  const cache = new EntryCache<Built>();
  const fail = (diagnostic: ts.Diagnostic) =>
    options.onRun({ error: new GenerateError([problemOfDiagnostic(diagnostic, cwd)]) });
  const host = TS.createWatchCompilerHost(
    configFile,
    CHECK_ONLY,
    TS.sys,
    TS.createSemanticDiagnosticsBuilderProgram,
    fail,
    () => {},
  );
  // A run's time starts when TypeScript starts making its program (after its 250 ms delay).
  let started = performance.now();
  // Read once per run: the project's typescript may be installed or upgraded while watching.
  let typescript: ProjectTypeScript | undefined;
  const createProgram = host.createProgram;
  // One object per tsconfig reading, so the entry cache sees the options change only when they do.
  const withDefaults = new WeakMap<ts.CompilerOptions, ts.CompilerOptions>();
  host.createProgram = (rootNames, options, ...rest) => {
    started = performance.now();
    typescript = projectTypeScript(directory);
    if (options !== undefined && !withDefaults.has(options))
      withDefaults.set(options, withProjectDefaults(options, typescript));
    return createProgram(rootNames, options && withDefaults.get(options), ...rest);
  };
  host.afterProgramCreate = (builder) => {
    try {
      const program = builder.getProgram();
      const config = configProblems(builder.getConfigFileParsingDiagnostics(), typescript, cwd);
      if (config.errors.length > 0) throw new GenerateError(config.errors);
      const commandLine = asWritten(configFile, program);
      const sourceFiles = ownSourceFiles(program.getRootFileNames());
      const project = {
        configFile,
        directory,
        sourceFiles,
        program,
        warnings: config.warnings,
        diagnostics: builder,
        commandLine,
        projectTypeScript: typescript,
      };
      options.onRun({ result: generateFromProgram(project, { ...options, cwd }, started, cache) });
    } catch (error) {
      options.onRun({ error });
    }
  };
  const watch = TS.createWatchProgram(host);
  return { close: () => watch.close() };
}

/** The tsconfig as written (the program's options force `noEmit`): where compiled files go. */
function asWritten(configFile: string, program: ts.Program): ts.ParsedCommandLine {
  const parsed = TS.getParsedCommandLineOfConfigFile(
    configFile,
    {},
    { ...TS.sys, onUnRecoverableConfigFileDiagnostic: () => {} },
  );
  return parsed ?? { options: program.getCompilerOptions(), fileNames: [...program.getRootFileNames()], errors: [] };
}
