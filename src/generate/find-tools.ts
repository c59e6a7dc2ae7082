import type * as ts from "typescript";
import { TS } from "./compiler";

export type DecoratorKind = "Tool" | "Param" | "Ctx" | "Args";
/**
 * Each decorator toolnexus exports, by its exported name: `ToolParam` is `@Param` under a name that does not clash with
 * NestJS's.
 */
const KIND_OF_NAME = new Map<string, DecoratorKind>([
  ["Tool", "Tool"],
  ["Param", "Param"],
  ["ToolParam", "Param"],
  ["Ctx", "Ctx"],
  ["Args", "Args"],
]);

/** The file each toolnexus decorator is declared in (source or built `.d.ts`). */
const DECORATOR_FILE = /[\\/]decorators[\\/](tool|param|ctx|args)\.decorator\.(d\.)?[cm]?ts$/;
/** Import specifiers that are toolnexus itself. */
const TOOLNEXUS_MODULE = /^toolnexus(\/|$)/;

export interface FoundTool {
  classNode: ts.ClassLikeDeclaration;
  /** The name the class has at run time (`constructor.name`). */
  className: string | undefined;
  method: ts.MethodDeclaration;
  decorator: ts.Decorator;
}

/**
 * Recognizes toolnexus's decorators by what they resolve to (through re-exports and renamed
 * imports), falling back to the import specifier when the declaration cannot be followed.
 */
export class DecoratorResolver {
  readonly #cache = new Map<ts.Symbol, DecoratorKind | undefined>();

  constructor(private readonly checker: ts.TypeChecker) {}

  kindOf(decorator: ts.Decorator): DecoratorKind | undefined {
    let callee = decorator.expression;
    if (TS.isCallExpression(callee)) callee = callee.expression;
    const nameNode = TS.isPropertyAccessExpression(callee) ? callee.name : TS.isIdentifier(callee) ? callee : undefined;
    if (nameNode === undefined) return undefined;
    const symbol = this.checker.getSymbolAtLocation(nameNode);
    if (symbol === undefined) return undefined;
    if (this.#cache.has(symbol)) return this.#cache.get(symbol);
    const kind = this.#resolve(symbol, TS.isPropertyAccessExpression(callee) ? callee.expression : undefined);
    this.#cache.set(symbol, kind);
    return kind;
  }

  #resolve(symbol: ts.Symbol, namespace: ts.Expression | undefined): DecoratorKind | undefined {
    const resolved = symbol.flags & TS.SymbolFlags.Alias ? this.checker.getAliasedSymbol(symbol) : symbol;
    const declaration = resolved.declarations?.[0];
    const declaredKind = KIND_OF_NAME.get(resolved.name);
    if (
      declaration !== undefined &&
      declaredKind !== undefined &&
      DECORATOR_FILE.test(declaration.getSourceFile().fileName)
    )
      return declaredKind;
    // `import { Tool as T } from "toolnexus"`, or `import * as tn from "toolnexus"` + `@tn.Tool()`.
    for (const candidate of symbol.declarations ?? []) {
      if (TS.isImportSpecifier(candidate)) {
        const from = candidate.parent.parent.parent.moduleSpecifier;
        const importedKind = KIND_OF_NAME.get((candidate.propertyName ?? candidate.name).text);
        if (TS.isStringLiteral(from) && TOOLNEXUS_MODULE.test(from.text) && importedKind !== undefined)
          return importedKind;
      }
    }
    const memberKind = KIND_OF_NAME.get(symbol.name);
    if (namespace !== undefined && TS.isIdentifier(namespace) && memberKind !== undefined) {
      const ns = this.checker.getSymbolAtLocation(namespace);
      for (const candidate of ns?.declarations ?? []) {
        if (TS.isNamespaceImport(candidate)) {
          const from = candidate.parent.parent.moduleSpecifier;
          if (TS.isStringLiteral(from) && TOOLNEXUS_MODULE.test(from.text)) return memberKind;
        }
      }
    }
    return undefined;
  }

  /** The toolnexus decorator of `node` of one of `kinds`, if it has one. */
  find(node: ts.Node, kinds: readonly DecoratorKind[]): { decorator: ts.Decorator; kind: DecoratorKind } | undefined {
    if (!TS.canHaveDecorators(node)) return undefined;
    for (const decorator of TS.getDecorators(node) ?? []) {
      const kind = this.kindOf(decorator);
      if (kind !== undefined && kinds.includes(kind)) return { decorator, kind };
    }
    return undefined;
  }
}

/** Every method decorated with `@Tool` in `file`, in source order (classes nested anywhere included). */
export function findToolMethods(file: ts.SourceFile, resolver: DecoratorResolver): FoundTool[] {
  const found: FoundTool[] = [];
  if (!file.text.includes("@")) return found;
  const visit = (node: ts.Node): void => {
    if (TS.isClassLike(node)) {
      for (const member of node.members) {
        if (!TS.isMethodDeclaration(member)) continue;
        const tool = resolver.find(member, ["Tool"]);
        if (tool !== undefined)
          found.push({ classNode: node, className: runtimeClassName(node), method: member, decorator: tool.decorator });
      }
    }
    TS.forEachChild(node, visit);
  };
  visit(file);
  return found;
}

/** `constructor.name` as the class will have it: its own name, the variable it is assigned to, or "default". */
export function runtimeClassName(node: ts.ClassLikeDeclaration): string | undefined {
  if (node.name !== undefined) return node.name.text;
  if (TS.isClassDeclaration(node) && node.modifiers?.some((m) => m.kind === TS.SyntaxKind.DefaultKeyword))
    return "default";
  const parent = node.parent;
  if (TS.isVariableDeclaration(parent) && TS.isIdentifier(parent.name)) return parent.name.text;
  return undefined;
}
