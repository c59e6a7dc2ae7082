import type * as ts from "typescript";
import { TS } from "./compiler";

/** A part of a parameter's type that has no JSON Schema equivalent. */
export interface TypeProblem {
  /** Where inside the parameter: "" for the parameter itself, else `options.onDone`, `items[]`, ... */
  path: string;
  /** The offending type as TypeScript prints it. */
  typeText: string;
  /** Why it cannot be a schema, e.g. "a function has no JSON Schema equivalent". */
  what: string;
  /** The declaration of the property at `path` (absent for the parameter itself). */
  declaredAt?: ts.Node;
}

/** Library types that are objects in TypeScript but have no JSON form. */
export const NOT_JSON: ReadonlySet<string> = new Set([
  "Promise",
  "PromiseLike",
  "Map",
  "ReadonlyMap",
  "WeakMap",
  "Set",
  "ReadonlySet",
  "WeakSet",
  "WeakRef",
  "RegExp",
  "Function",
  "CallableFunction",
  "NewableFunction",
  "Error",
  "Symbol",
  "BigInt",
  "ArrayBuffer",
  "SharedArrayBuffer",
  "DataView",
  "Int8Array",
  "Uint8Array",
  "Uint8ClampedArray",
  "Int16Array",
  "Uint16Array",
  "Int32Array",
  "Uint32Array",
  "Float32Array",
  "Float64Array",
  "BigInt64Array",
  "BigUint64Array",
  "Iterator",
  "IterableIterator",
  "AsyncIterator",
  "AsyncIterableIterator",
  "Iterable",
  "AsyncIterable",
  "Generator",
  "AsyncGenerator",
  "Buffer",
  "Blob",
  "ReadableStream",
  "WritableStream",
  "EventEmitter",
]);

/**
 * Walks a parameter's type the way the schema generator will, before it does: finds what JSON
 * cannot carry (functions, symbols, bigints, type parameters, `Map`/`Promise`/..., types that
 * refer to themselves) and collects every type declaration reached (for the tool's hash).
 */
export class TypeWalker {
  readonly declarations = new Set<ts.Declaration>();
  /**
   * The project files declaring the object types visited, anonymous ones too (an inferred type's shape is written where
   * its value is).
   */
  readonly files = new Set<string>();
  readonly #stack: ts.Type[] = [];
  readonly #done = new Set<ts.Type>();

  constructor(
    private readonly checker: ts.TypeChecker,
    private readonly program: ts.Program,
    /** What the walked type is for, in problems: "(tool arguments are JSON)". */
    private readonly values = "tool arguments",
  ) {}

  /** The first problem in `type`, or `undefined` when all of it has a JSON Schema. */
  check(type: ts.Type, location: ts.Node): TypeProblem | undefined {
    if (type.flags & (TS.TypeFlags.Undefined | TS.TypeFlags.Void))
      return { path: "", typeText: this.checker.typeToString(type), what: "it stands for no value" };
    return this.#walk(type, "", location, undefined);
  }

  #walk(type: ts.Type, path: string, location: ts.Node, declaredAt: ts.Node | undefined): TypeProblem | undefined {
    const { checker } = this;
    const flags = type.flags;
    const problem = (what: string): TypeProblem => ({
      path,
      typeText: checker.typeToString(type),
      what,
      ...(declaredAt ? { declaredAt } : {}),
    });
    const noSchema = (thing: string, why = "") =>
      problem(`${thing} has no JSON Schema equivalent${why} (${this.values} are JSON)`);
    this.#collect(type.aliasSymbol);
    if (
      flags &
      (TS.TypeFlags.Any | TS.TypeFlags.Unknown | TS.TypeFlags.Undefined | TS.TypeFlags.Void | TS.TypeFlags.Null)
    )
      return undefined;
    if (flags & TS.TypeFlags.Never) return problem("no value has this type");
    if (flags & TS.TypeFlags.ESSymbolLike) return noSchema("a symbol");
    if (flags & TS.TypeFlags.BigIntLike) return noSchema("a bigint", " (JSON numbers cannot hold one)");
    if (flags & TS.TypeFlags.TypeParameter)
      return problem("a type parameter is only known where the method is called, so it has no JSON Schema");
    if (
      flags &
      (TS.TypeFlags.Index | TS.TypeFlags.IndexedAccess | TS.TypeFlags.Conditional | TS.TypeFlags.Substitution)
    )
      return problem("a type that depends on a type parameter has no JSON Schema");
    if (
      flags &
      (TS.TypeFlags.StringLike | TS.TypeFlags.NumberLike | TS.TypeFlags.BooleanLike | TS.TypeFlags.EnumLike)
    ) {
      if (flags & TS.TypeFlags.EnumLike)
        this.#collect(
          type.symbol?.flags & TS.SymbolFlags.EnumMember ? (type.symbol as { parent?: ts.Symbol }).parent : type.symbol,
        );
      return undefined;
    }
    if (type.isUnionOrIntersection()) {
      for (const member of type.types) {
        const found = this.#walk(member, path, location, declaredAt);
        if (found) return found;
      }
      return undefined;
    }
    if (!(flags & TS.TypeFlags.Object)) return noSchema("this type");
    if (this.#done.has(type)) return undefined;
    const symbol = type.getSymbol();
    if (this.#isLibrary(symbol) && symbol!.name === "Date") return undefined;
    if (this.#stack.includes(type)) {
      const names = [...this.#stack.slice(this.#stack.indexOf(type)), type].map((t) => checker.typeToString(t));
      return problem(
        `it refers to itself (${names.join(" → ")}), and recursive types cannot be inlined into a tool schema`,
      );
    }
    if (checker.getSignaturesOfType(type, TS.SignatureKind.Construct).length > 0)
      return noSchema("a class (not an instance of it)");
    if (checker.getSignaturesOfType(type, TS.SignatureKind.Call).length > 0) return noSchema("a function");
    if (symbol !== undefined && NOT_JSON.has(symbol.name) && this.#isLibrary(symbol))
      return noSchema(`a ${symbol.name}`);
    this.#collect(symbol);
    this.#collectFiles(symbol);
    this.#stack.push(type);
    try {
      if (checker.isArrayType(type) || checker.isTupleType(type)) {
        for (const element of checker.getTypeArguments(type as ts.TypeReference)) {
          const found = this.#walk(element, `${path}[]`, location, declaredAt);
          if (found) return found;
        }
        return undefined;
      }
      for (const property of checker.getPropertiesOfType(type)) {
        if (property.flags & (TS.SymbolFlags.Method | TS.SymbolFlags.Prototype) || isPrivate(property)) continue;
        const declaration = property.valueDeclaration ?? property.declarations?.[0];
        // A property inherited from a base class or interface: its declaration (JSDoc) counts too.
        if (
          declaration !== undefined &&
          !declaration.getSourceFile().isDeclarationFile &&
          this.#isShape(declaration.parent)
        )
          this.declarations.add(declaration.parent as ts.Declaration);
        const propertyType = checker.getTypeOfSymbolAtLocation(property, declaration ?? location);
        const found = this.#walk(
          propertyType,
          path === "" ? property.name : `${path}.${property.name}`,
          location,
          declaration,
        );
        if (found) return found;
      }
      for (const info of checker.getIndexInfosOfType(type)) {
        const found = this.#walk(
          info.type,
          `${path}[${checker.typeToString(info.keyType)}]`,
          location,
          info.declaration ?? declaredAt,
        );
        if (found) return found;
      }
      return undefined;
    } finally {
      this.#stack.pop();
      this.#done.add(type);
    }
  }

  /** Records the declarations of a user or package type (not of TypeScript's own lib). */
  #collect(symbol: ts.Symbol | undefined): void {
    if (symbol === undefined || this.#isLibrary(symbol)) return;
    for (const declaration of symbol.declarations ?? []) {
      if (this.#isShape(declaration) || TS.isEnumDeclaration(declaration)) {
        this.declarations.add(declaration);
      }
    }
  }

  /** Records the files a project type is declared in, anonymous ones (type and object literals) too. */
  #collectFiles(symbol: ts.Symbol | undefined): void {
    if (symbol === undefined || this.#isLibrary(symbol)) return;
    for (const declaration of symbol.declarations ?? []) this.files.add(declaration.getSourceFile().fileName);
  }

  #isShape(node: ts.Node | undefined): boolean {
    return (
      node !== undefined && (TS.isClassLike(node) || TS.isInterfaceDeclaration(node) || TS.isTypeAliasDeclaration(node))
    );
  }

  #isLibrary(symbol: ts.Symbol | undefined): boolean {
    return isLibrarySymbol(symbol, this.program);
  }
}

/** Declared in TypeScript's default lib or in a declaration file (a package's types). */
export function isLibrarySymbol(symbol: ts.Symbol | undefined, program: ts.Program): boolean {
  const source = symbol?.declarations?.[0]?.getSourceFile();
  return source !== undefined && (program.isSourceFileDefaultLibrary(source) || source.isDeclarationFile);
}

function isPrivate(property: ts.Symbol): boolean {
  return (property.declarations ?? []).some(
    (d) =>
      (TS.getCombinedModifierFlags(d) & TS.ModifierFlags.Private) !== 0 ||
      (TS.isPropertyDeclaration(d) && TS.isPrivateIdentifier(d.name)),
  );
}
