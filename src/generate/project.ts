import { dirname, resolve } from "node:path";
import type * as ts from "typescript";
import { projectTypeScript, type ProjectTypeScript } from "../core/project-typescript";
import { TS } from "./compiler";
import { displayPath, formatProblem, GenerateError, problemOfDiagnostic, type SourceProblem } from "./errors";

export interface Project {
  /** Absolute path of the tsconfig. */
  configFile: string;
  /** Its directory: manifest paths are relative to it. */
  directory: string;
  /** The project's own source files (the tsconfig's `files`/`include`), declaration files left out. */
  sourceFiles: string[];
  program: ts.Program;
  /** Config problems that did not stop it (options toolnexus's compiler does not know). */
  warnings: string[];
  /** The tsconfig as parsed, its own options (the program's force noEmit): where files are emitted. */
  commandLine: ts.ParsedCommandLine;
  /** The project's own `typescript` package, if it has one (generation never runs on it). */
  projectTypeScript: ProjectTypeScript | undefined;
}

/**
 * Compiler options that make generation check without writing anything: whatever the tsconfig
 * says about output (declarations, build info), nothing is emitted.
 */
export const CHECK_ONLY: ts.CompilerOptions = {
  noEmit: true,
  declaration: false,
  declarationMap: false,
  emitDeclarationOnly: false,
  composite: false,
  incremental: false,
  tsBuildInfoFile: undefined,
};

/**
 * Unknown option, unknown option with a suggestion, option value not among the allowed ones, `ignoreDeprecations`
 * value.
 */
const NEWER_OPTION_CODES = new Set([5023, 5025, 6046, 5103]);

/**
 * Reads the tsconfig (with `extends`) and creates the ONE program every tool is read from.
 * Nothing is emitted. Config errors are `GenerateError`s.
 */
export function openProject(configPath: string, cwd: string): Project {
  const configFile = resolve(cwd, configPath);
  const configErrors: ts.Diagnostic[] = [];
  // Parsed as written (emit options included: they say where compiled files go); the program below never emits.
  const parsed = TS.getParsedCommandLineOfConfigFile(
    configFile,
    {},
    {
      ...TS.sys,
      onUnRecoverableConfigFileDiagnostic: (diagnostic) => void configErrors.push(diagnostic),
    },
  );
  if (parsed === undefined || configErrors.length > 0) {
    const problems = configErrors.map((d) => problemOfDiagnostic(d, cwd));
    throw new GenerateError(
      problems.length > 0 ? problems : [{ message: `Cannot read the TypeScript project ${configPath}.` }],
    );
  }
  const directory = dirname(configFile);
  const typescript = projectTypeScript(directory);
  const { errors, warnings } = configProblems(parsed.errors, typescript, cwd);
  if (errors.length > 0) throw new GenerateError(errors);
  const options: ts.CompilerOptions = { ...withProjectDefaults(parsed.options, typescript), ...CHECK_ONLY };
  const program = TS.createProgram({
    rootNames: parsed.fileNames,
    options,
    projectReferences: parsed.projectReferences,
    configFileParsingDiagnostics: parsed.errors,
  });
  return {
    configFile,
    directory,
    sourceFiles: ownSourceFiles(parsed.fileNames),
    program,
    warnings,
    commandLine: parsed,
    projectTypeScript: typescript,
  };
}

/** The root files that are the project's own sources (declaration files left out). */
export function ownSourceFiles(rootNames: readonly string[]): string[] {
  return rootNames.filter((file) => !/\.d\.[cm]?ts$/.test(file));
}

/**
 * The tsconfig's errors. When the project itself is on a newer TypeScript (`project`) than
 * toolnexus's compiler, options (or option values) only the newer one knows are warnings: they
 * are ignored, as an older tsc would.
 */
export function configProblems(
  diagnostics: readonly ts.Diagnostic[],
  project: ProjectTypeScript | undefined,
  cwd: string,
): { errors: SourceProblem[]; warnings: string[] } {
  const errors: SourceProblem[] = [];
  const warnings: string[] = [];
  const newer = newerVersion(project);
  for (const diagnostic of diagnostics) {
    if (diagnostic.category !== TS.DiagnosticCategory.Error) continue;
    const problem = problemOfDiagnostic(diagnostic, cwd);
    if (newer !== undefined && NEWER_OPTION_CODES.has(diagnostic.code)) {
      warnings.push(
        `${formatProblem(problem)} (the project has typescript ${newer}; toolnexus reads it with TypeScript ` +
          `${TS.version}, which ignores this option)`,
      );
    } else errors.push(problem);
  }
  return { errors, warnings };
}

/**
 * `options` with the defaults of the project's own TypeScript (`project`) where they differ from
 * toolnexus's and change what the checker says about parameters: from TypeScript 6 on, `strict`
 * is on unless the tsconfig turns it off (without it, `string | null` would read as `string`).
 */
export function withProjectDefaults(
  options: ts.CompilerOptions,
  project: ProjectTypeScript | undefined,
): ts.CompilerOptions {
  if (options.strict !== undefined) return options;
  const newer = newerVersion(project);
  return newer !== undefined && Number.parseInt(newer, 10) >= 6 ? { ...options, strict: true } : options;
}

/** The project's TypeScript version when its major version is newer than toolnexus's compiler's. */
function newerVersion(project: ProjectTypeScript | undefined): string | undefined {
  if (project === undefined) return undefined;
  const major = (version: string) => Number.parseInt(version, 10);
  return major(project.version) > major(TS.version) ? project.version : undefined;
}

/**
 * Where a program's diagnostics come from: the program itself, or a builder program (watch) that keeps those of
 * unchanged files.
 */
export interface DiagnosticSource {
  getOptionsDiagnostics(): readonly ts.Diagnostic[];
  getGlobalDiagnostics(): readonly ts.Diagnostic[];
  getSyntacticDiagnostics(): readonly ts.Diagnostic[];
  getSemanticDiagnostics(): readonly ts.Diagnostic[];
}

/**
 * Every error `tsc --noEmit` reports beyond the tsconfig's own (see `configProblems`), sorted
 * and without duplicates. Semantic errors are looked for even where the syntax is broken (tsc
 * stops there): a syntax error in a file no tool depends on must not hide a type error in one.
 */
export function compileErrors(source: DiagnosticSource): ts.Diagnostic[] {
  const all = [
    ...source.getOptionsDiagnostics(),
    ...source.getSyntacticDiagnostics(),
    ...source.getGlobalDiagnostics(),
    ...source.getSemanticDiagnostics(),
  ];
  return [...TS.sortAndDeduplicateDiagnostics(all.filter((d) => d.category === TS.DiagnosticCategory.Error))];
}

/**
 * Type errors split by what they can break: those in a file the tools depend on (or of the
 * whole project) stop generation; those elsewhere are warnings, the manifest does not depend
 * on them. `explain` says in toolnexus's terms what some errors mean (a toolnexus decorator
 * the project's decorators cannot apply): those always stop generation, once each.
 */
export function splitTypeErrors(
  diagnostics: readonly ts.Diagnostic[],
  dependsOn: (fileName: string) => boolean,
  cwd: string,
  explain: (diagnostic: ts.Diagnostic) => SourceProblem | undefined = () => undefined,
): { errors: SourceProblem[]; warnings: string[] } {
  const errors: SourceProblem[] = [];
  const warnings: string[] = [];
  const explained = new Set<string>();
  for (const diagnostic of diagnostics) {
    const explanation = explain(diagnostic);
    if (explanation !== undefined) {
      // TypeScript may report one decorator twice (TS1241 and TS1270): one explanation is enough.
      const text = formatProblem(explanation);
      if (!explained.has(text)) errors.push(explanation);
      explained.add(text);
      continue;
    }
    const problem = problemOfDiagnostic(diagnostic, cwd);
    if (diagnostic.file === undefined || dependsOn(diagnostic.file.fileName)) errors.push(problem);
    else
      warnings.push(
        `${formatProblem(problem)} (no tool depends on ${displayPath(diagnostic.file.fileName, cwd)}: the manifest ` +
          "was generated)",
      );
  }
  return { errors, warnings };
}
