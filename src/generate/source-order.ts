import type * as ts from "typescript";
import { TS } from "./compiler";

/**
 * The literal values a type annotation spells out, in the order it spells them: union members
 * (`"b" | "a"`), the members of enums it names (in declaration order), and through aliases,
 * arrays, tuples and type arguments (`Array<"x" | "y">`, `Record<string, Mode>`). Not into
 * object types: their properties have annotations of their own.
 *
 * The checker orders a union's members by when their types were created, and
 * typescript-json-schema sorts enum values; this is the order the author wrote.
 */
export function literalOrder(node: ts.TypeNode, checker: ts.TypeChecker): unknown[] {
  const values: unknown[] = [];
  const seen = new Set<ts.Node>();
  const add = (value: unknown) => {
    if (!values.includes(value)) values.push(value);
  };
  const visit = (node: ts.Node | undefined): void => {
    if (node === undefined || seen.has(node)) return;
    seen.add(node);
    if (
      TS.isParenthesizedTypeNode(node) ||
      TS.isTypeOperatorNode(node) ||
      TS.isOptionalTypeNode(node) ||
      TS.isRestTypeNode(node) ||
      TS.isNamedTupleMember(node)
    ) {
      return visit(node.type);
    }
    if (TS.isUnionTypeNode(node) || TS.isIntersectionTypeNode(node)) return node.types.forEach(visit);
    if (TS.isArrayTypeNode(node)) return visit(node.elementType);
    if (TS.isTupleTypeNode(node)) return node.elements.forEach(visit);
    if (TS.isLiteralTypeNode(node)) {
      const value = literalValue(node.literal);
      if (value !== undefined) add(value.value);
      return;
    }
    if (TS.isTypeReferenceNode(node)) {
      node.typeArguments?.forEach(visit);
      let symbol = checker.getSymbolAtLocation(node.typeName);
      if (symbol !== undefined && symbol.flags & TS.SymbolFlags.Alias) symbol = checker.getAliasedSymbol(symbol);
      for (const declaration of symbol?.declarations ?? []) {
        if (TS.isTypeAliasDeclaration(declaration)) visit(declaration.type);
        else if (TS.isEnumDeclaration(declaration)) declaration.members.forEach((member) => addConstant(member));
        else if (TS.isEnumMember(declaration)) addConstant(declaration);
      }
    }
  };
  const addConstant = (member: ts.EnumMember) => {
    const value = checker.getConstantValue(member);
    if (value !== undefined) add(value);
  };
  visit(node);
  return values;
}

/** `values` reordered as `order` has them; values it lacks keep their order, after the others. */
export function inOrder(values: readonly unknown[], order: readonly unknown[]): unknown[] {
  const rank = (value: unknown) => {
    const index = order.indexOf(value);
    return index === -1 ? order.length : index;
  };
  return values
    .map((value, index) => ({ value, index }))
    .sort((a, b) => rank(a.value) - rank(b.value) || a.index - b.index)
    .map(({ value }) => value);
}

function literalValue(literal: ts.LiteralTypeNode["literal"]): { value: unknown } | undefined {
  if (TS.isStringLiteral(literal) || TS.isNoSubstitutionTemplateLiteral(literal)) return { value: literal.text };
  if (TS.isNumericLiteral(literal)) return { value: Number(literal.text) };
  if (
    TS.isPrefixUnaryExpression(literal) &&
    literal.operator === TS.SyntaxKind.MinusToken &&
    TS.isNumericLiteral(literal.operand)
  ) {
    return { value: -Number(literal.operand.text) };
  }
  if (literal.kind === TS.SyntaxKind.TrueKeyword) return { value: true };
  if (literal.kind === TS.SyntaxKind.FalseKeyword) return { value: false };
  if (literal.kind === TS.SyntaxKind.NullKeyword) return { value: null };
  return undefined;
}
