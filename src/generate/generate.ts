import { relative, sep } from "node:path";
import * as ts from "typescript";
import { MANIFEST_VERSION, type ManifestParameter, type ManifestTool, type ToolnexusManifest } from "../manifest/types";
import { canonicalSchema } from "../schema/canonical";
import type { JSONSchemaObject } from "../types";
import { GenerateError, locationOf, type SourceProblem } from "./errors";
import { DecoratorResolver, findToolMethods, type FoundTool } from "./find-tools";
import { declarationText, digest, GENERATOR_REVISION, methodSignatureText } from "./hash";
import { compiledFileOf } from "./compiled-file";
import { keyEntries, type KeyedEntry } from "./keys";
import { openProject, typeErrors } from "./project";
import { SchemaGenerator } from "./schemas";
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
  { phase: "program"; files: number; ms: number } | { phase: "typecheck"; ms: number } | { phase: "scan"; files: number; tools: number; classes: number; ms: number };

export interface GenerateStats {
  /** The project's own source files, all scanned. */
  files: number;
  tools: number;
  classes: number;
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
  stats: GenerateStats;
  /** Things worth knowing that did not stop generation. */
  warnings: string[];
}

/**
 * Reads every `@Tool` method of a TypeScript project with ONE compiler program and writes what
 * runtime metadata cannot know into a manifest: parameter schemas from the types
 * (typescript-json-schema), descriptions from JSDoc, optionality, conversions. Throws
 * `GenerateError` with `file:line:col` for type errors and for types without a JSON Schema.
 */
export function generateManifest(options: GenerateOptions = {}): GenerateResult {
  const cwd = options.cwd ?? process.cwd();
  const started = performance.now();
  const project = openProject(options.project ?? "tsconfig.json", cwd);
  const { program } = project;
  // Parsing and binding happen lazily; asking for the checker makes the program whole.
  const checker = program.getTypeChecker();
  const programMs = performance.now() - started;
  options.onProgress?.({ phase: "program", files: project.sourceFiles.length, ms: programMs });

  const checkStarted = performance.now();
  const failed = typeErrors(program, cwd);
  const typecheckMs = performance.now() - checkStarted;
  if (failed !== undefined) throw failed;
  options.onProgress?.({ phase: "typecheck", ms: typecheckMs });

  const scanStarted = performance.now();
  const resolver = new DecoratorResolver(checker);
  const found: FoundTool[] = [];
  for (const fileName of project.sourceFiles) {
    const file = program.getSourceFile(fileName);
    if (file !== undefined) found.push(...findToolMethods(file, resolver));
  }
  const builder = new EntryBuilder(program, checker, resolver, project.directory, cwd);
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
        message: `${tool.className}: another class named ${tool.className} with @Tool methods is declared in the same file, at ${at.file}:${at.line}:${at.column}. Tools are found by class name and file at run time: rename one of them.`,
      });
      continue;
    }
    classes.set(`${sourceFile}#${tool.className!}`, tool.classNode);
    if (!compiledFiles.has(sourceFile)) compiledFiles.set(sourceFile, compiledFileOf(project.commandLine, sourceFile, project.directory));
    const compiledFile = compiledFiles.get(sourceFile);
    const entry = compiledFile === undefined ? result.tool : withCompiledFile(result.tool, compiledFile);
    // The key `build` gives is `ClassName.method`.
    built.push({ className: tool.className!, methodName: result.key.slice(tool.className!.length + 1), tool: entry });
  }
  if (problems.length > 0) throw new GenerateError(problems);
  const entries = keyEntries(built);
  const scanMs = performance.now() - scanStarted;
  options.onProgress?.({ phase: "scan", files: project.sourceFiles.length, tools: entries.size, classes: classes.size, ms: scanMs });

  if (entries.size === 0) {
    builder.warnings.push(
      `found no @Tool methods in the ${project.sourceFiles.length} source files of ${options.project ?? "tsconfig.json"} (the tsconfig's "include"/"files"): is it the right project?`,
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
    stats: {
      files: project.sourceFiles.length,
      tools: keys.length,
      classes: classes.size,
      timings: { program: programMs, typecheck: typecheckMs, scan: scanMs, total: performance.now() - started },
    },
    warnings: builder.warnings,
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

type Built = { key: string; tool: ManifestTool } | { problems: SourceProblem[] };

/** Makes one manifest entry per `@Tool` method. */
class EntryBuilder {
  readonly #schemas: SchemaGenerator;

  constructor(
    private readonly program: ts.Program,
    private readonly checker: ts.TypeChecker,
    private readonly resolver: DecoratorResolver,
    private readonly directory: string,
    private readonly cwd: string,
  ) {
    this.#schemas = new SchemaGenerator(checker);
  }

  get warnings(): string[] {
    return this.#schemas.warnings;
  }

  build({ classNode, className, method, decorator }: FoundTool): Built {
    const { checker } = this;
    const methodName = ts.isIdentifier(method.name) || ts.isStringLiteral(method.name) || ts.isNumericLiteral(method.name) ? method.name.text : undefined;
    const at = (node: ts.Node, fields: Omit<SourceProblem, "file" | "line" | "column">): SourceProblem => ({ ...locationOf(node, this.cwd), ...fields });
    if (className === undefined) {
      return { problems: [at(classNode, { message: "a class with @Tool methods needs a name: tools are found by class name at run time." })] };
    }
    if (methodName === undefined) {
      return { problems: [at(method.name, { className, message: `${className}: @Tool methods need a plain name (not computed or #private).` })] };
    }
    const where = `${className}.${methodName}`;
    const walker = new TypeWalker(checker, this.program);
    const problems: SourceProblem[] = [];
    const parameters: ManifestParameter[] = [];

    for (const parameter of method.parameters) {
      if (ts.isIdentifier(parameter.name) && parameter.name.text === "this") continue;
      const index = parameters.length;
      const found = this.resolver.find(parameter, ["Param", "Ctx", "Args"]);
      const kind = found?.kind === "Ctx" ? "ctx" : found?.kind === "Args" ? "args" : "param";
      const sourceName = ts.isIdentifier(parameter.name) ? parameter.name.text : undefined;
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
        parameters.push({ kind: "ctx" });
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
          const subject = problem.path === "" ? "it" : `its property "${problem.path}"${problem.declaredAt !== undefined ? this.#declaredAt(problem.declaredAt) : ""}`;
          fail(
            `${subject} has type "${problem.typeText}": ${problem.what}. Use a JSON type (string, number, boolean, literal unions, arrays, plain objects), or state the schema with @Param({ schema: {...} }).`,
          );
          continue;
        }
        try {
          schema = this.#schemas.schemaOf(type, kind === "param" ? checker.getSymbolAtLocation(parameter.name) : undefined);
        } catch (error) {
          fail(
            `its type "${checker.typeToString(type)}" cannot be turned into a JSON Schema: ${(error as Error).message}. Give the parameter an explicit schema with @Param({ schema: {...} }).`,
          );
          continue;
        }
        const initial = parameter.initializer !== undefined ? this.#literal(parameter.initializer) : undefined;
        if (initial !== undefined && schema.default === undefined) schema = canonicalSchema({ ...schema, default: initial.value });
      }
      const conversion = this.#conversion(type);
      if (kind === "args") {
        parameters.push({ kind: "args", ...(conversion?.className !== undefined ? { className: conversion.className } : {}), ...(schema !== undefined ? { schema } : {}) });
        continue;
      }
      parameters.push({
        kind: "param",
        ...(name !== undefined ? { name } : {}),
        optional: parameter.questionToken !== undefined || parameter.initializer !== undefined || admitsUndefined(type),
        ...(conversion !== undefined ? { convert: conversion.convert, ...(conversion.className !== undefined ? { className: conversion.className } : {}) } : {}),
        ...(schema !== undefined ? { schema } : {}),
      });
    }
    if (problems.length > 0) return { problems };

    const toolName = this.#toolName(decorator, methodName);
    const description = this.#summary(method);
    const source = method.getSourceFile();
    const hash = digest([GENERATOR_REVISION, where, methodSignatureText(method), ...[...walker.declarations].map(declarationText).sort()]);
    return {
      key: where,
      tool: {
        ...(toolName !== undefined ? { name: toolName } : {}),
        file: relative(this.directory, source.fileName).split(sep).join("/"),
        hash,
        ...(description !== undefined ? { description } : {}),
        parameters,
      },
    };
  }

  /** ` (declared at file:line:col)` for a property declared in the project. */
  #declaredAt(node: ts.Node): string {
    if (node.getSourceFile().isDeclarationFile) return "";
    const where = locationOf(ts.isPropertySignature(node) || ts.isPropertyDeclaration(node) ? node.name : node, this.cwd);
    return ` (declared at ${where.file}:${where.line}:${where.column})`;
  }

  /** The method's JSDoc text, tags left out. */
  #summary(method: ts.MethodDeclaration): string | undefined {
    const symbol = this.checker.getSymbolAtLocation(method.name);
    const text = symbol !== undefined ? ts.displayPartsToString(symbol.getDocumentationComment(this.checker)).trim() : "";
    return text === "" ? undefined : text;
  }

  /** `@Tool({ name: "x" })` → "x"; `@Tool("...")` or no name → the method name; a name that is not a literal → unknown. */
  #toolName(decorator: ts.Decorator, methodName: string): string | undefined {
    const call = decorator.expression;
    const options = ts.isCallExpression(call) ? call.arguments[0] : undefined;
    if (options === undefined) return methodName;
    if (this.checker.getTypeAtLocation(options).flags & ts.TypeFlags.StringLike) return methodName;
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
    if (ts.isObjectLiteralExpression(options)) {
      let spread = false;
      for (const property of options.properties) {
        if (ts.isSpreadAssignment(property)) spread = true;
        else if (property.name !== undefined && (ts.isIdentifier(property.name) || ts.isStringLiteral(property.name)) && property.name.text === key) {
          if (ts.isPropertyAssignment(property)) return this.checker.getTypeAtLocation(property.initializer);
          if (ts.isShorthandPropertyAssignment(property)) return this.checker.getTypeAtLocation(property.name);
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
    if (!ts.isCallExpression(call)) return {};
    const [first, second] = call.arguments;
    let name: string | undefined;
    let nameIsComputed = false;
    let options = first;
    if (first !== undefined) {
      const type = this.checker.getTypeAtLocation(first);
      if (type.flags & ts.TypeFlags.StringLike) {
        if (type.isStringLiteral()) name = type.value;
        else nameIsComputed = true;
        options = second;
      }
    }
    let explicitSchema = false;
    if (options !== undefined) {
      const schema = this.#optionValue(options, "schema");
      explicitSchema = schema !== undefined && (schema === "unknown" || !(schema.flags & ts.TypeFlags.Undefined));
    }
    return { ...(name !== undefined ? { name } : {}), ...(nameIsComputed ? { nameIsComputed } : {}), ...(explicitSchema ? { explicitSchema } : {}) };
  }

  /** A parameter's default value when the source states it as a literal (documents it in the schema). */
  #literal(expression: ts.Expression): { value: unknown } | undefined {
    if (ts.isParenthesizedExpression(expression) || ts.isAsExpression(expression) || ts.isSatisfiesExpression(expression) || ts.isTypeAssertionExpression(expression)) {
      return this.#literal(expression.expression);
    }
    if (ts.isArrayLiteralExpression(expression)) {
      const values: unknown[] = [];
      for (const element of expression.elements) {
        const value = ts.isSpreadElement(element) ? undefined : this.#literal(element);
        if (value === undefined) return undefined;
        values.push(value.value);
      }
      return { value: values };
    }
    if (ts.isObjectLiteralExpression(expression)) {
      const value: Record<string, unknown> = {};
      for (const property of expression.properties) {
        if (!ts.isPropertyAssignment(property) || !(ts.isIdentifier(property.name) || ts.isStringLiteral(property.name))) return undefined;
        const inner = this.#literal(property.initializer);
        if (inner === undefined) return undefined;
        value[property.name.text] = inner.value;
      }
      return { value };
    }
    if (expression.kind === ts.SyntaxKind.NullKeyword) return { value: null };
    if (expression.kind === ts.SyntaxKind.TrueKeyword) return { value: true };
    if (expression.kind === ts.SyntaxKind.FalseKeyword) return { value: false };
    const type = this.checker.getTypeAtLocation(expression);
    if (type.isStringLiteral() || type.isNumberLiteral()) return { value: type.value };
    return undefined;
  }

  /** `Date`s and class instances are made from the JSON before the call: which, and of what class. */
  #conversion(type: ts.Type): { convert: "date" | "date[]" | "class" | "class[]"; className?: string } | undefined {
    const { checker } = this;
    const value = checker.getNonNullableType(type);
    const single = (t: ts.Type) => {
      const symbol = t.getSymbol();
      if (!(t.flags & ts.TypeFlags.Object) || symbol === undefined) return undefined;
      const file = symbol.declarations?.[0]?.getSourceFile();
      if (symbol.name === "Date" && file !== undefined && this.program.isSourceFileDefaultLibrary(file)) return { date: true as const };
      if (symbol.flags & ts.SymbolFlags.Class && file !== undefined && !this.program.isSourceFileDefaultLibrary(file)) return { className: symbol.name };
      return undefined;
    };
    const own = single(value);
    if (own !== undefined) return "date" in own ? { convert: "date" } : { convert: "class", className: own.className };
    if (checker.isArrayType(value)) {
      const element = single(checker.getNonNullableType(checker.getTypeArguments(value as ts.TypeReference)[0]!));
      if (element !== undefined) return "date" in element ? { convert: "date[]" } : { convert: "class[]", className: element.className };
    }
    return undefined;
  }
}

/** `string | undefined` (without `?`) may be left out as well. */
function admitsUndefined(type: ts.Type): boolean {
  if (type.flags & (ts.TypeFlags.Undefined | ts.TypeFlags.Void)) return true;
  return type.isUnion() && type.types.some((member) => (member.flags & (ts.TypeFlags.Undefined | ts.TypeFlags.Void)) !== 0);
}
