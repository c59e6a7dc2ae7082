import { dirname, resolve } from "node:path";
import * as ts from "typescript";
import { GenerateError, problemOfDiagnostic } from "./errors";

export interface Project {
  /** Absolute path of the tsconfig. */
  configFile: string;
  /** Its directory: manifest paths are relative to it. */
  directory: string;
  /** The project's own source files (the tsconfig's `files`/`include`), declaration files left out. */
  sourceFiles: string[];
  program: ts.Program;
  /** The tsconfig as parsed, its own options (the program's force noEmit): where files are emitted. */
  commandLine: ts.ParsedCommandLine;
}

/**
 * Reads the tsconfig (with `extends`) and creates the ONE program every tool is read from.
 * Nothing is emitted. Config errors are `GenerateError`s.
 */
export function openProject(configPath: string, cwd: string): Project {
  const configFile = resolve(cwd, configPath);
  const configErrors: ts.Diagnostic[] = [];
  // Parsed as written (emit options included: they say where compiled files go); the program below never emits.
  const parsed = ts.getParsedCommandLineOfConfigFile(
    configFile,
    {},
    {
      ...ts.sys,
      onUnRecoverableConfigFileDiagnostic: (diagnostic) => void configErrors.push(diagnostic),
    },
  );
  if (parsed === undefined || configErrors.length > 0) {
    const problems = configErrors.map((d) => problemOfDiagnostic(d, cwd));
    throw new GenerateError(problems.length > 0 ? problems : [{ message: `Cannot read the TypeScript project ${configPath}.` }]);
  }
  const errors = parsed.errors.filter((d) => d.category === ts.DiagnosticCategory.Error);
  if (errors.length > 0) throw new GenerateError(errors.map((d) => problemOfDiagnostic(d, cwd)));
  const options: ts.CompilerOptions = {
    ...parsed.options,
    noEmit: true,
    declaration: false,
    declarationMap: false,
    emitDeclarationOnly: false,
    composite: false,
    incremental: false,
  };
  delete options.tsBuildInfoFile;
  const program = ts.createProgram({ rootNames: parsed.fileNames, options, projectReferences: parsed.projectReferences, configFileParsingDiagnostics: parsed.errors });
  const sourceFiles = parsed.fileNames.filter((file) => !/\.d\.[cm]?ts$/.test(file));
  return { configFile, directory: dirname(configFile), sourceFiles, program, commandLine: parsed };
}

/** Every type error, as `tsc --noEmit` would report them (the manifest is only as right as the types). */
export function typeErrors(program: ts.Program, cwd: string): GenerateError | undefined {
  const diagnostics = ts.getPreEmitDiagnostics(program).filter((d) => d.category === ts.DiagnosticCategory.Error);
  return diagnostics.length > 0 ? new GenerateError(diagnostics.map((d) => problemOfDiagnostic(d, cwd))) : undefined;
}
