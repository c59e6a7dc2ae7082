import { relative, sep } from "node:path";
import type * as ts from "typescript";
import { MANIFEST_VERSION, type ManifestParameter, type ManifestTool, type ToolnexusManifest } from "../manifest/types";
import { canonicalSchema } from "../schema/canonical";
import { describesObjects } from "../schema/describes-objects";
import type { JSONSchemaObject } from "../core/types";
import { compilerDescription, TS } from "./compiler";
import { defaultValue } from "./default-value";
import type { EntryCache, ProgramEntryCache } from "./entry-cache";
import { formatProblem, GenerateError, locationOf, type SourceProblem } from "./errors";
import { DecoratorResolver, findToolMethods, type FoundTool } from "./find-tools";
import { declarationText, digest, GENERATOR_REVISION, methodSignatureText, resultTypeText } from "./hash";
import { compiledFileOf } from "./compiled-file";
import { ContextTypeResolver } from "./context-type";
import { keyEntries, type KeyedEntry } from "./keys";
import { isStructuredResult, resultTypeOf, withOpenObjects } from "./output";
import { compileErrors, openProject, splitTypeErrors, type DiagnosticSource, type Project } from "./project";
import { SchemaGenerator } from "./schemas";
import { parameterDecoratorProblem } from "./standard-decorators";
import { TypeWalker } from "./type-walk";

export interface GenerateOptions {
  /** The project's tsconfig.json, relative to `cwd`. Default `tsconfig.json`. */
  project?: string;
  /** Where relative paths start and what error locations are relative to. Default `process.cwd()`. */
  cwd?: string;
  /** Called after each phase (for progress output). */
  onProgress?: (event: GenerateProgress) => void;
}

export type GenerateProgress =
  | { phase: "program"; files: number; ms: number; compiler: string }
  | { phase: "typecheck"; ms: number }
  | { phase: "scan"; files: number; tools: number; classes: number; ms: number };

export interface GenerateStats {
  /** The project's own source files, all scanned. */
  files: number;
  tools: number;
  classes: number;
  /** Entries taken unchanged from the previous run (`--watch`): none of their files changed. */
  reused: number;
  /** Milliseconds per phase and in all. */
  timings: { program: number; typecheck: number; scan: number; total: number };
}

export interface GenerateResult {
  manifest: ToolnexusManifest;
  /** The manifest as `toolnexus generate` writes it. */
  text: string;
  /** Absolute path of the tsconfig, and its directory (manifest paths are relative to it). */
  configFile: string;
  directory: string;
  /**
   * The TypeScript generation ran on, e.g. "TypeScript 5.9.3 (toolnexus's compiler; the project has typescript 7.0.2)".
   */
  compiler: string;
  stats: GenerateStats;
  /** Things worth knowing that did not stop generation (type errors in files no tool depends on among them). */
  warnings: string[];
}

/**
 * Reads every `@Tool` method of a TypeScript project with ONE compiler program and writes what
 * runtime metadata cannot know into a manifest: parameter schemas from the types
 * (typescript-json-schema), descriptions from JSDoc, optionality, conversions, and output
 * schemas from the return types of tools whose results are objects. Throws `GenerateError`
 * with `file:line:col` for type errors in the files the tools depend on and for parameter types
 * without a JSON Schema; type errors elsewhere are warnings.
 */
export function generateManifest(options: GenerateOptions = {}): GenerateResult {
  const cwd = options.cwd ?? process.cwd();
  const started = performance.now();
  const project = openProject(options.project ?? "tsconfig.json", cwd);
  return generateFromProgram({ ...project, diagnostics: project.program }, { ...options, cwd }, started);
}

/** A project's program as generation reads it: from `openProject`, or rebuilt by `watchManifest`. */
export interface ProgramInput extends Project {
  diagnostics: DiagnosticSource;
}

/**
 * The manifest of one program. `started` is when making the program began (its time counts);
 * `cache` (watch) keeps the entries of earlier programs and gives back those whose files did not change.
 */
export function generateFromProgram(
  project: ProgramInput,
  options: GenerateOptions & { cwd: string },
  started: number,
  cache?: EntryCache<Built>,
): GenerateResult {
  const { program } = project;
  const { cwd } = options;
  // Parsing and binding happen lazily; asking for the checker makes the program whole.
  const checker = program.getTypeChecker();
  const programMs = performance.now() - started;
  const compiler = compilerDescription(project.projectTypeScript);
  options.onProgress?.({ phase: "program", files: project.sourceFiles.length, ms: programMs, compiler });

  const checkStarted = performance.now();
  const diagnostics = compileErrors(project.diagnostics);
  const typecheckMs = performance.now() - checkStarted;
  options.onProgress?.({ phase: "typecheck", ms: typecheckMs });

  const scanStarted = performance.now();
  const resolver = new DecoratorResolver(checker);
  const found: FoundTool[] = [];
  for (const fileName of project.sourceFiles) {
    const file = program.getSourceFile(fileName);
    if (file !== undefined) found.push(...findToolMethods(file, resolver));
  }
  const builder = new EntryBuilder(program, checker, resolver, project.directory, cwd, cache?.for(program));
  const built: KeyedEntry[] = [];
  // Tool classes by name and file: one name in several files is fine, twice in one file is not.
  const classes = new Map<string, ts.ClassLikeDeclaration>();
  const compiledFiles = new Map<string, string | undefined>();
  const problems: SourceProblem[] = [];
  for (const tool of found) {
    const result = builder.build(tool);
    if ("problems" in result) {
      problems.push(...result.problems);
      continue;
    }
    const sourceFile = tool.classNode.getSourceFile().fileName;
    const other = classes.get(`${sourceFile}#${tool.className!}`);
    if (other !== undefined && other !== tool.classNode) {
      const at = locationOf(other.name ?? other, cwd);
      problems.push({
        ...locationOf(tool.classNode.name ?? tool.classNode, cwd),
        className: tool.className,
        message:
          `${tool.className}: another class named ${tool.className} with @Tool methods is declared in the ` +
          `same file, at ${at.file}:${at.line}:${at.column}. Tools are found by class name and file at run time: ` +
          "rename one of them.",
      });
      continue;
    }
    classes.set(`${sourceFile}#${tool.className!}`, tool.classNode);
    if (!compiledFiles.has(sourceFile))
      compiledFiles.set(sourceFile, compiledFileOf(project.commandLine, sourceFile, project.directory));
    const compiledFile = compiledFiles.get(sourceFile);
    const entry = compiledFile === undefined ? result.tool : withCompiledFile(result.tool, compiledFile);
    // The key `build` gives is `ClassName.method`.
    built.push({ className: tool.className!, methodName: result.key.slice(tool.className!.length + 1), tool: entry });
  }

  const compilerOptions = program.getCompilerOptions();
  const typeErrors = splitTypeErrors(
    diagnostics,
    (fileName) => builder.dependsOn(fileName),
    cwd,
    (diagnostic) => parameterDecoratorProblem(diagnostic, compilerOptions, resolver, cwd),
  );
  if (typeErrors.errors.length > 0) throw new GenerateError(typeErrors.errors);
  if (problems.length > 0) throw new GenerateError(problems);
  const entries = keyEntries(built);
  const scanMs = performance.now() - scanStarted;
  options.onProgress?.({
    phase: "scan",
    files: project.sourceFiles.length,
    tools: entries.size,
    classes: classes.size,
    ms: scanMs,
  });

  const warnings = [...project.warnings, ...typeErrors.warnings, ...builder.warnings];
  builder.commit();
  if (entries.size === 0) {
    warnings.push(
      `found no @Tool methods in the ${project.sourceFiles.length} source files of ` +
        `${options.project ?? "tsconfig.json"} (the tsconfig's "include"/"files"): is it the right project?`,
    );
  }
  const keys = [...entries.keys()].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
  const tools: Record<string, ManifestTool> = {};
  for (const key of keys) tools[key] = entries.get(key)!;
  const manifest: ToolnexusManifest = {
    manifestVersion: MANIFEST_VERSION,
    hash: digest([GENERATOR_REVISION, ...keys.map((key) => `${key}=${tools[key]!.hash}`)]),
    tools,
  };
  return {
    manifest,
    text: renderManifest(manifest),
    configFile: project.configFile,
    directory: project.directory,
    compiler,
    stats: {
      files: project.sourceFiles.length,
      tools: keys.length,
      classes: classes.size,
      reused: builder.reused,
      timings: { program: programMs, typecheck: typecheckMs, scan: scanMs, total: performance.now() - started },
    },
    warnings,
  };
}

/** `compiledFile` right after `file`, where it reads best. */
function withCompiledFile(tool: ManifestTool, compiledFile: string): ManifestTool {
  const { name, file, ...rest } = tool;
  return { ...(name !== undefined ? { name } : {}), file, compiledFile, ...rest };
}

/** The manifest's file text: two-space JSON, keys in a fixed order, a final newline. */
export function renderManifest(manifest: ToolnexusManifest): string {
  return `${JSON.stringify(manifest, null, 2)}\n`;
}

/** One `@Tool` method made into an entry, or why it cannot be. */
export type Built = { key: string; tool: ManifestTool } | { problems: SourceProblem[] };

/** A tool's output schema and what it was generated from. */
interface InferredOutput {
  schema: JSONSchemaObject;
  /** The return type as the hash covers it (see `resultTypeText`). */
  typeText: string;
  declarations: ReadonlySet<ts.Declaration>;
  /** Files the result type's shape is written in, anonymous types' too. */
  files: ReadonlySet<string>;
}

/**
 * Makes one manifest entry per `@Tool` method (or takes it from `cache` when none of its files
 * changed), and keeps which files the entries depend on.
 */
class EntryBuilder {
  readonly #schemas: SchemaGenerator;
  readonly #contextTypes: ContextTypeResolver;
  /**
   * Its own generator: named types come out differently as results (see `describeWrittenValues`).
   * Made on first use; its warnings (about initializers) are not passed on.
   */
  #resultSchemas: SchemaGenerator | undefined;
  readonly #dependencies = new Set<string>();
  /** The type declarations the parameters (and output) of the entry being built reach. */
  #reached: ReadonlySet<ts.Declaration> = new Set();
  /** Other files the entry being built depends on: where its inferred result type is written. */
  #reachedFiles: ReadonlySet<string> = new Set();
  /** Warnings of this builder's own (a result type without an output schema). */
  readonly #warnings: string[] = [];
  /** Warnings of the entries taken from the cache. */
  readonly #reusedWarnings: string[] = [];
  reused = 0;

  constructor(
    private readonly program: ts.Program,
    private readonly checker: ts.TypeChecker,
    private readonly resolver: DecoratorResolver,
    private readonly directory: string,
    private readonly cwd: string,
    private readonly cache?: ProgramEntryCache<Built>,
  ) {
    this.#schemas = new SchemaGenerator(checker);
    this.#contextTypes = new ContextTypeResolver(checker);
  }

  get warnings(): string[] {
    return [...this.#reusedWarnings, ...this.#schemas.warnings, ...this.#warnings];
  }

  /**
   * Whether a type error in `fileName` can make the manifest wrong: the file declares a tool
   * class or a type some tool's parameters or output schema reach, or it may declare tools the
   * errors hide (it imports toolnexus and uses decorators).
   */
  dependsOn(fileName: string): boolean {
    if (this.#dependencies.has(fileName)) return true;
    const text = this.program.getSourceFile(fileName)?.text ?? "";
    return text.includes("@") && /["']toolnexus(?:\/[^"']*)?["']/.test(text);
  }

  build(tool: FoundTool): Built {
    const file = tool.method.getSourceFile().fileName;
    const id = `${file}:${tool.method.getStart()}`;
    this.#dependencies.add(file);
    const cached = this.cache?.get(id);
    if (cached !== undefined) {
      for (const dependency of cached.files) this.#dependencies.add(dependency);
      this.#reusedWarnings.push(...cached.warnings);
      this.reused++;
      return cached.value;
    }
    const warningsBefore = this.#schemas.warnings.length;
    const ownWarningsBefore = this.#warnings.length;
    this.#reached = new Set();
    this.#reachedFiles = new Set();
    const built = this.#generate(tool);
    const files = new Set([
      file,
      ...[...this.#reached].map((declaration) => declaration.getSourceFile().fileName),
      ...this.#reachedFiles,
    ]);
    for (const dependency of files) this.#dependencies.add(dependency);
    const warnings = [...this.#schemas.warnings.slice(warningsBefore), ...this.#warnings.slice(ownWarningsBefore)];
    if (!("problems" in built)) this.cache?.set(id, built, files, warnings);
    return built;
  }

  /** Makes what the cache keeps once generation succeeded. */
  commit(): void {
    this.cache?.commit();
  }

  #generate({ classNode, className, method, decorator }: FoundTool): Built {
    const { checker } = this;
    const methodName =
      TS.isIdentifier(method.name) || TS.isStringLiteral(method.name) || TS.isNumericLiteral(method.name)
        ? method.name.text
        : undefined;
    const at = (node: ts.Node, fields: Omit<SourceProblem, "file" | "line" | "column">): SourceProblem => ({
      ...locationOf(node, this.cwd),
      ...fields,
    });
    if (className === undefined) {
      return {
        problems: [
          at(classNode, {
            message: "a class with @Tool methods needs a name: tools are found by class name at run time.",
          }),
        ],
      };
    }
    if (methodName === undefined) {
      return {
        problems: [
          at(method.name, {
            className,
            message: `${className}: @Tool methods need a plain name (not computed or #private).`,
          }),
        ],
      };
    }
    const where = `${className}.${methodName}`;
    const walker = new TypeWalker(checker, this.program);
    const problems: SourceProblem[] = [];
    const parameters: ManifestParameter[] = [];
    // `@Tool({ input })` is the tool's whole input: the method's (args, ctx) are not tool parameters.
    const input = this.#declaresInput(decorator);

    for (const parameter of input ? [] : method.parameters) {
      if (TS.isIdentifier(parameter.name) && parameter.name.text === "this") continue;
      const index = parameters.length;
      const found = this.resolver.find(parameter, ["Param", "Ctx", "Args"]);
      // Undecorated and typed ToolContext: the context, as @Ctx() says (standard decorators have no parameter decorators).
      const kind =
        found?.kind === "Ctx" || (found === undefined && this.#contextTypes.isContextParameter(parameter))
          ? "ctx"
          : found?.kind === "Args"
            ? "args"
            : "param";
      const sourceName = TS.isIdentifier(parameter.name) ? parameter.name.text : undefined;
      const options = kind === "param" && found !== undefined ? this.#paramOptions(found.decorator) : {};
      const name = options.name ?? sourceName;
      const fail = (message: string) =>
        problems.push(
          at(parameter.name, {
            className,
            method: methodName,
            ...(name !== undefined ? { parameter: name } : {}),
            message: `${where}, parameter ${index}${name !== undefined ? ` ("${name}")` : ""}: ${message}`,
          }),
        );
      if (kind === "ctx") {
        // Told by its type alone, it keeps its name, so messages about the entry can show it.
        parameters.push(
          found === undefined && sourceName !== undefined ? { kind: "ctx", name: sourceName } : { kind: "ctx" },
        );
        continue;
      }
      if (parameter.dotDotDotToken !== undefined) {
        fail("a rest parameter cannot be a tool argument (arguments are named). Take an array instead.");
        continue;
      }
      if (kind === "param" && name === undefined && !options.nameIsComputed) {
        fail('its name cannot be read from the source (destructuring). Name it: @Param("name").');
        continue;
      }
      const type = checker.getTypeAtLocation(parameter);
      let schema: JSONSchemaObject | undefined;
      if (!options.explicitSchema) {
        const problem = walker.check(type, parameter);
        if (problem !== undefined) {
          const subject =
            problem.path === ""
              ? "it"
              : "its property " +
                `"${problem.path}"${problem.declaredAt !== undefined ? this.#declaredAt(problem.declaredAt) : ""}`;
          fail(
            `${subject} has type "${problem.typeText}": ${problem.what}. Use a JSON type (string, number, boolean, ` +
              "literal unions, arrays, plain objects), or state the schema with @Param({ schema: {...} }).",
          );
          continue;
        }
        try {
          schema = this.#schemas.schemaOf(
            type,
            kind === "param" ? checker.getSymbolAtLocation(parameter.name) : undefined,
          );
        } catch (error) {
          fail(
            `its type "${checker.typeToString(type)}" cannot be turned into a JSON Schema: ` +
              `${(error as Error).message}. Give the parameter an explicit schema with @Param({ schema: {...} }).`,
          );
          continue;
        }
        const initial = parameter.initializer !== undefined ? defaultValue(parameter.initializer, checker) : undefined;
        if (initial !== undefined && schema.default === undefined)
          schema = canonicalSchema({ ...schema, default: initial.value });
      }
      const conversion = this.#conversion(type);
      if (kind === "args") {
        parameters.push({
          kind: "args",
          ...(conversion?.className !== undefined ? { className: conversion.className } : {}),
          ...(schema !== undefined ? { schema } : {}),
        });
        continue;
      }
      parameters.push({
        kind: "param",
        ...(name !== undefined ? { name } : {}),
        optional: parameter.questionToken !== undefined || parameter.initializer !== undefined || admitsUndefined(type),
        ...(conversion !== undefined
          ? {
              convert: conversion.convert,
              ...(conversion.className !== undefined ? { className: conversion.className } : {}),
            }
          : {}),
        ...(schema !== undefined ? { schema } : {}),
      });
    }
    this.#reached = walker.declarations;
    if (problems.length > 0) return { problems };

    const output = this.#output(method, where, decorator);
    if (output !== undefined) {
      this.#reached = new Set([...walker.declarations, ...output.declarations]);
      this.#reachedFiles = output.files;
    }
    const toolName = this.#toolName(decorator, methodName);
    const description = this.#summary(method);
    const source = method.getSourceFile();
    // The return type counts only where it gives an output schema: other entries keep their hashes.
    const resultParts = output !== undefined ? [output.typeText] : [];
    const hash = digest([
      GENERATOR_REVISION,
      where,
      methodSignatureText(method),
      ...resultParts,
      ...[...this.#reached].map(declarationText).sort(),
    ]);
    return {
      key: where,
      tool: {
        ...(toolName !== undefined ? { name: toolName } : {}),
        file: relative(this.directory, source.fileName).split(sep).join("/"),
        hash,
        ...(description !== undefined ? { description } : {}),
        ...(input ? { input } : {}),
        parameters,
        ...(output !== undefined ? { output: output.schema } : {}),
      },
    };
  }

  /**
   * The output schema of a method whose results are objects (see `isStructuredResult`), made as
   * parameter schemas are. A result type with no JSON form (a function or `Map` property, a
   * recursive type) gives none, with a warning unless `@Tool({ output })` states the schema:
   * results are not structured then, which fails nothing.
   */
  #output(method: ts.MethodDeclaration, where: string, decorator: ts.Decorator): InferredOutput | undefined {
    const { checker } = this;
    const type = resultTypeOf(method, checker);
    if (type === undefined || !isStructuredResult(type, checker, this.program)) return undefined;
    const without = (why: string): undefined => {
      if (this.#declaresOutput(decorator)) return undefined;
      const message =
        `${where}: its result type "${checker.typeToString(type)}" gives no output schema: ${why}. ` +
        "State one with @Tool({ output }), or return a JSON type.";
      this.#warnings.push(formatProblem({ ...locationOf(method.name, this.cwd), message }));
      return undefined;
    };
    const walker = new TypeWalker(checker, this.program, "structured results");
    const problem = walker.check(type, method);
    if (problem !== undefined) {
      const subject =
        problem.path === ""
          ? "it"
          : "its property " +
            `"${problem.path}"${problem.declaredAt !== undefined ? this.#declaredAt(problem.declaredAt) : ""}`;
      return without(`${subject} has type "${problem.typeText}": ${problem.what}`);
    }
    let schema: JSONSchemaObject;
    try {
      this.#resultSchemas ??= new SchemaGenerator(checker, "results");
      schema = withOpenObjects(this.#resultSchemas.schemaOf(type, undefined));
    } catch (error) {
      return without((error as Error).message);
    }
    // The scanner refuses an output schema of anything else; better none than a tool that fails to load.
    if (!describesObjects(schema)) return undefined;
    return { schema, typeText: resultTypeText(type, checker), declarations: walker.declarations, files: walker.files };
  }

  /** Whether `@Tool({ output })` states the tool's output schema (it wins at run time). */
  #declaresOutput(decorator: ts.Decorator): boolean {
    const call = decorator.expression;
    const options = TS.isCallExpression(call) ? call.arguments[0] : undefined;
    if (options === undefined || this.checker.getTypeAtLocation(options).flags & TS.TypeFlags.StringLike) return false;
    return this.#optionValue(options, "output") !== undefined;
  }

  /**
   * Whether `@Tool({ input })` gives the tool's whole input. An options object whose type only
   * may have `input` (a variable typed `ToolOptions`, a spread of one) does not say so: its
   * parameters are recorded, which a method taking `(args, ctx)` allows.
   */
  #declaresInput(decorator: ts.Decorator): boolean {
    const call = decorator.expression;
    const options = TS.isCallExpression(call) ? call.arguments[0] : undefined;
    if (options === undefined || this.checker.getTypeAtLocation(options).flags & TS.TypeFlags.StringLike) return false;
    const input = this.#optionValue(options, "input");
    if (input === undefined) return false;
    if (input !== "unknown") return !admitsUndefined(input);
    const property = this.checker.getPropertyOfType(this.checker.getTypeAtLocation(options), "input");
    return property !== undefined && !(property.flags & TS.SymbolFlags.Optional);
  }

  /** ` (declared at file:line:col)` for a property declared in the project. */
  #declaredAt(node: ts.Node): string {
    if (node.getSourceFile().isDeclarationFile) return "";
    const where = locationOf(
      TS.isPropertySignature(node) || TS.isPropertyDeclaration(node) ? node.name : node,
      this.cwd,
    );
    return ` (declared at ${where.file}:${where.line}:${where.column})`;
  }

  /** The method's JSDoc text, tags left out. */
  #summary(method: ts.MethodDeclaration): string | undefined {
    const symbol = this.checker.getSymbolAtLocation(method.name);
    const text =
      symbol !== undefined ? TS.displayPartsToString(symbol.getDocumentationComment(this.checker)).trim() : "";
    return text === "" ? undefined : text;
  }

  /**
   * `@Tool({ name: "x" })` → "x"; `@Tool("...")` or no name → the method name; a name that is not a literal →
   * unknown.
   */
  #toolName(decorator: ts.Decorator, methodName: string): string | undefined {
    const call = decorator.expression;
    const options = TS.isCallExpression(call) ? call.arguments[0] : undefined;
    if (options === undefined) return methodName;
    if (this.checker.getTypeAtLocation(options).flags & TS.TypeFlags.StringLike) return methodName;
    const name = this.#optionValue(options, "name");
    if (name === undefined) return methodName;
    return name !== "unknown" && name.isStringLiteral() ? name.value : undefined;
  }

  /**
   * The type of `key` in an options argument: read from the object literal's own property (so
   * `{ name: "x" }` gives the literal "x", not the declared `string`), else from the argument's
   * type. `undefined` when there is no such key; "unknown" when the literal spreads something.
   */
  #optionValue(options: ts.Expression, key: string): ts.Type | "unknown" | undefined {
    if (TS.isObjectLiteralExpression(options)) {
      let spread = false;
      for (const property of options.properties) {
        if (TS.isSpreadAssignment(property)) spread = true;
        else if (
          property.name !== undefined &&
          (TS.isIdentifier(property.name) || TS.isStringLiteral(property.name)) &&
          property.name.text === key
        ) {
          if (TS.isPropertyAssignment(property)) return this.checker.getTypeAtLocation(property.initializer);
          if (TS.isShorthandPropertyAssignment(property)) return this.checker.getTypeAtLocation(property.name);
          return "unknown";
        }
      }
      return spread ? "unknown" : undefined;
    }
    const property = this.checker.getPropertyOfType(this.checker.getTypeAtLocation(options), key);
    return property === undefined ? undefined : this.checker.getTypeOfSymbolAtLocation(property, options);
  }

  /** What `@Param(...)` states that the manifest records: a literal name, and whether it gives its own schema. */
  #paramOptions(decorator: ts.Decorator): { name?: string; nameIsComputed?: boolean; explicitSchema?: boolean } {
    const call = decorator.expression;
    if (!TS.isCallExpression(call)) return {};
    const [first, second] = call.arguments;
    let name: string | undefined;
    let nameIsComputed = false;
    let options = first;
    if (first !== undefined) {
      const type = this.checker.getTypeAtLocation(first);
      if (type.flags & TS.TypeFlags.StringLike) {
        if (type.isStringLiteral()) name = type.value;
        else nameIsComputed = true;
        options = second;
      }
    }
    let explicitSchema = false;
    if (options !== undefined) {
      const schema = this.#optionValue(options, "schema");
      explicitSchema = schema !== undefined && (schema === "unknown" || !(schema.flags & TS.TypeFlags.Undefined));
    }
    return {
      ...(name !== undefined ? { name } : {}),
      ...(nameIsComputed ? { nameIsComputed } : {}),
      ...(explicitSchema ? { explicitSchema } : {}),
    };
  }

  /** `Date`s and class instances are made from the JSON before the call: which, and of what class. */
  #conversion(type: ts.Type): { convert: "date" | "date[]" | "class" | "class[]"; className?: string } | undefined {
    const { checker } = this;
    const value = checker.getNonNullableType(type);
    const single = (t: ts.Type) => {
      const symbol = t.getSymbol();
      if (!(t.flags & TS.TypeFlags.Object) || symbol === undefined) return undefined;
      const file = symbol.declarations?.[0]?.getSourceFile();
      if (symbol.name === "Date" && file !== undefined && this.program.isSourceFileDefaultLibrary(file))
        return { date: true as const };
      if (symbol.flags & TS.SymbolFlags.Class && file !== undefined && !this.program.isSourceFileDefaultLibrary(file))
        return { className: symbol.name };
      return undefined;
    };
    const own = single(value);
    if (own !== undefined) return "date" in own ? { convert: "date" } : { convert: "class", className: own.className };
    if (checker.isArrayType(value)) {
      const element = single(checker.getNonNullableType(checker.getTypeArguments(value as ts.TypeReference)[0]!));
      if (element !== undefined)
        return "date" in element ? { convert: "date[]" } : { convert: "class[]", className: element.className };
    }
    return undefined;
  }
}

/** `string | undefined` (without `?`) may be left out as well. */
function admitsUndefined(type: ts.Type): boolean {
  if (type.flags & (TS.TypeFlags.Undefined | TS.TypeFlags.Void)) return true;
  return (
    type.isUnion() && type.types.some((member) => (member.flags & (TS.TypeFlags.Undefined | TS.TypeFlags.Void)) !== 0)
  );
}
