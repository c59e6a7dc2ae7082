import type * as ts from "typescript";
import { TS } from "./compiler";

/** The types of the context a tool method receives: `ToolCallContext` is `ToolContext` with `reportProgress` always set. */
const CONTEXT_TYPE_NAMES: ReadonlySet<string> = new Set(["ToolContext", "ToolCallContext"]);

/** The file both are declared in (source or built `.d.ts`/`.d.mts`). */
const CONTEXT_TYPE_FILE = /[\\/]core[\\/]types\.(d\.)?[cm]?ts$/;
/** Import specifiers that are toolnexus itself. */
const TOOLNEXUS_MODULE = /^toolnexus(\/|$)/;

/**
 * Recognizes a parameter declared with toolnexus's context type: `ctx: ToolContext`, also
 * through renamed imports (`ToolContext as Context`), namespace imports (`tn.ToolContext`),
 * re-exports and type aliases (`type Ctx = ToolContext`), optional or `| undefined`. Such an
 * undecorated parameter takes the call's context: under standard (TC39) decorators, which have
 * no parameter decorators, that is what `@Ctx()` says under legacy ones.
 */
export class ContextTypeResolver {
  readonly #cache = new Map<ts.Symbol, boolean>();

  constructor(private readonly checker: ts.TypeChecker) {}

  /** Whether the parameter's declared type is `ToolContext` or `ToolCallContext` (undefined aside). */
  isContextParameter(parameter: ts.ParameterDeclaration): boolean {
    return parameter.type !== undefined && this.#isContextType(parameter.type, new Set());
  }

  #isContextType(node: ts.TypeNode, seen: Set<ts.Node>): boolean {
    if (seen.has(node)) return false;
    seen.add(node);
    if (TS.isParenthesizedTypeNode(node)) return this.#isContextType(node.type, seen);
    if (TS.isUnionTypeNode(node)) {
      const defined = node.types.filter((member) => !isUndefinedType(member));
      return defined.length > 0 && defined.every((member) => this.#isContextType(member, seen));
    }
    if (!TS.isTypeReferenceNode(node) || node.typeArguments !== undefined) return false;
    const nameNode = TS.isQualifiedName(node.typeName) ? node.typeName.right : node.typeName;
    const symbol = this.checker.getSymbolAtLocation(nameNode);
    if (symbol === undefined) return false;
    const cached = this.#cache.get(symbol);
    if (cached !== undefined) return cached;
    const namespace = TS.isQualifiedName(node.typeName) ? node.typeName.left : undefined;
    const found = this.#resolve(symbol, namespace, seen);
    this.#cache.set(symbol, found);
    return found;
  }

  #resolve(symbol: ts.Symbol, namespace: ts.EntityName | undefined, seen: Set<ts.Node>): boolean {
    const resolved = symbol.flags & TS.SymbolFlags.Alias ? this.checker.getAliasedSymbol(symbol) : symbol;
    for (const declaration of resolved.declarations ?? []) {
      if (
        TS.isInterfaceDeclaration(declaration) &&
        CONTEXT_TYPE_NAMES.has(resolved.name) &&
        CONTEXT_TYPE_FILE.test(declaration.getSourceFile().fileName)
      )
        return true;
      // `type Ctx = ToolContext`: what the alias names.
      if (TS.isTypeAliasDeclaration(declaration) && declaration.typeParameters === undefined)
        return this.#isContextType(declaration.type, seen);
    }
    // The declaration is not toolnexus's own (a stand-in module): an import or re-export from toolnexus on the way says.
    for (let alias: ts.Symbol | undefined = symbol; alias !== undefined && alias.flags & TS.SymbolFlags.Alias;) {
      if (alias.declarations?.some(importsContextType)) return true;
      alias = this.checker.getImmediateAliasedSymbol(alias);
    }
    if (namespace !== undefined && TS.isIdentifier(namespace) && CONTEXT_TYPE_NAMES.has(symbol.name)) {
      for (const declaration of this.checker.getSymbolAtLocation(namespace)?.declarations ?? []) {
        if (TS.isNamespaceImport(declaration)) {
          const from = declaration.parent.parent.moduleSpecifier;
          if (TS.isStringLiteral(from) && TOOLNEXUS_MODULE.test(from.text)) return true;
        }
      }
    }
    return false;
  }
}

/** `import { ToolContext } from "toolnexus"`, `export { ToolContext as Ctx } from "toolnexus"`, ... */
function importsContextType(declaration: ts.Declaration): boolean {
  if (!TS.isImportSpecifier(declaration) && !TS.isExportSpecifier(declaration)) return false;
  const from = TS.isImportSpecifier(declaration)
    ? declaration.parent.parent.parent.moduleSpecifier
    : declaration.parent.parent.moduleSpecifier;
  const imported = (declaration.propertyName ?? declaration.name).text;
  return (
    from !== undefined &&
    TS.isStringLiteral(from) &&
    TOOLNEXUS_MODULE.test(from.text) &&
    CONTEXT_TYPE_NAMES.has(imported)
  );
}

function isUndefinedType(node: ts.TypeNode): boolean {
  return node.kind === TS.SyntaxKind.UndefinedKeyword;
}
