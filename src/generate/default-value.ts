import type * as ts from "typescript";
import { TS } from "./compiler";

/**
 * A parameter's default as JSON, when the source states it as a constant: literals (`"fast"`,
 * `10`, `-1`, `false`, `null`), enum members (`Units.Celsius`), and arrays and objects of
 * those. Anything the compiler cannot evaluate on its own (calls, variables, `undefined`,
 * spreads, computed keys, non-finite numbers) gives `undefined`: the parameter has no
 * documented default (it stays optional).
 */
export function defaultValue(expression: ts.Expression, checker: ts.TypeChecker): { value: unknown } | undefined {
  if (
    TS.isParenthesizedExpression(expression) ||
    TS.isAsExpression(expression) ||
    TS.isSatisfiesExpression(expression) ||
    TS.isTypeAssertionExpression(expression)
  ) {
    return defaultValue(expression.expression, checker);
  }
  if (TS.isStringLiteral(expression) || TS.isNoSubstitutionTemplateLiteral(expression))
    return { value: expression.text };
  if (TS.isNumericLiteral(expression)) return finite(Number(expression.text));
  if (TS.isPrefixUnaryExpression(expression) && TS.isNumericLiteral(expression.operand)) {
    if (expression.operator === TS.SyntaxKind.MinusToken) return finite(-Number(expression.operand.text));
    if (expression.operator === TS.SyntaxKind.PlusToken) return finite(Number(expression.operand.text));
    return undefined;
  }
  if (expression.kind === TS.SyntaxKind.NullKeyword) return { value: null };
  if (expression.kind === TS.SyntaxKind.TrueKeyword) return { value: true };
  if (expression.kind === TS.SyntaxKind.FalseKeyword) return { value: false };
  if (TS.isPropertyAccessExpression(expression) || TS.isElementAccessExpression(expression)) {
    // Only members of an enum: its values are constants the compiler computes.
    const symbol = checker.getSymbolAtLocation(
      TS.isPropertyAccessExpression(expression) ? expression.name : expression.argumentExpression,
    );
    const member = symbol?.valueDeclaration;
    if (member === undefined || !TS.isEnumMember(member)) return undefined;
    const value = checker.getConstantValue(member);
    return value === undefined ? undefined : typeof value === "number" ? finite(value) : { value };
  }
  if (TS.isArrayLiteralExpression(expression)) {
    const values: unknown[] = [];
    for (const element of expression.elements) {
      const value =
        TS.isSpreadElement(element) || TS.isOmittedExpression(element) ? undefined : defaultValue(element, checker);
      if (value === undefined) return undefined;
      values.push(value.value);
    }
    return { value: values };
  }
  if (TS.isObjectLiteralExpression(expression)) {
    const entries: Array<[string, unknown]> = [];
    for (const property of expression.properties) {
      if (!TS.isPropertyAssignment(property)) return undefined;
      const { name } = property;
      if (!(
        TS.isIdentifier(name) ||
        TS.isStringLiteral(name) ||
        TS.isNumericLiteral(name) ||
        TS.isNoSubstitutionTemplateLiteral(name)
      ))
        return undefined;
      const inner = defaultValue(property.initializer, checker);
      if (inner === undefined) return undefined;
      entries.push([name.text, inner.value]);
    }
    // Own properties even for a key such as "__proto__".
    return { value: Object.fromEntries(entries) };
  }
  return undefined;
}

/** JSON has no NaN or Infinity. */
function finite(value: number): { value: number } | undefined {
  return Number.isFinite(value) ? { value } : undefined;
}
