import type * as ts from "typescript";
import { TS } from "./compiler";
import { locationOf, type SourceProblem } from "./errors";
import { runtimeClassName, type DecoratorResolver } from "./find-tools";

/**
 * What TypeScript reports for a decorator that standard (TC39) decorators cannot apply: one on a
 * parameter (TS1206 "Decorators are not valid here"), or one typed for legacy decorators only
 * (TS1241 "Unable to resolve signature ...", TS1270 "Decorator function return type ...").
 */
const STANDARD_DECORATOR_ERRORS: ReadonlySet<number> = new Set([1206, 1241, 1270]);

/**
 * The compiler's error for `@Param`, `@Ctx` or `@Args` in a project compiled with standard
 * decorators (its tsconfig does not set `experimentalDecorators`), said as what it means for
 * toolnexus: which parameter, and the ways forward. `undefined` for every other diagnostic.
 */
export function parameterDecoratorProblem(
  diagnostic: ts.Diagnostic,
  options: ts.CompilerOptions,
  resolver: DecoratorResolver,
  cwd: string,
): SourceProblem | undefined {
  if (options.experimentalDecorators === true || !STANDARD_DECORATOR_ERRORS.has(diagnostic.code)) return undefined;
  if (diagnostic.file === undefined || diagnostic.start === undefined) return undefined;
  const decorator = decoratorAt(diagnostic.file, diagnostic.start);
  if (decorator === undefined || !TS.isParameter(decorator.parent)) return undefined;
  const kind = resolver.kindOf(decorator);
  if (kind !== "Param" && kind !== "Ctx" && kind !== "Args") return undefined;

  const parameter = decorator.parent;
  const method = parameter.parent;
  const className = TS.isClassLike(method.parent) ? runtimeClassName(method.parent) : undefined;
  const methodName = TS.isConstructorDeclaration(method)
    ? "constructor"
    : method.name !== undefined
      ? method.name.getText()
      : undefined;
  const index = method.parameters
    .filter((each) => !(TS.isIdentifier(each.name) && each.name.text === "this"))
    .indexOf(parameter);
  const name = TS.isIdentifier(parameter.name) ? parameter.name.text : undefined;
  const callee = TS.isCallExpression(decorator.expression) ? decorator.expression.expression : decorator.expression;
  const written = `@${callee.getText()}`;
  const reported = TS.flattenDiagnosticMessageText(diagnostic.messageText, " ");
  const where = `${className ?? "(anonymous class)"}.${methodName ?? "(computed name)"}, parameter ${index}${
    name !== undefined ? ` ("${name}")` : ""
  }`;
  const keepStandard =
    kind === "Ctx"
      ? `remove ${written}() and type the parameter ToolContext (imported from toolnexus): \`toolnexus generate\` ` +
        "records it as the parameter that receives the call's context"
      : `remove ${written}: \`toolnexus generate\` records the parameter from its name and type in the manifest ` +
        "(a parameter typed ToolContext receives the call's context)";
  return {
    ...locationOf(decorator, cwd),
    ...(className !== undefined ? { className } : {}),
    ...(methodName !== undefined ? { method: methodName } : {}),
    ...(name !== undefined ? { parameter: name } : {}),
    message:
      `${where}: ${written} is not available with standard (TC39) decorators, which this project compiles with ` +
      `(its tsconfig does not set "experimentalDecorators"; TypeScript reports error TS${diagnostic.code}: ` +
      `${reported}). Either keep standard decorators and ${keepStandard}, or give the tool its whole input with ` +
      "@Tool({ input }) (a Standard Schema, a JSON Schema or a DTO class; the method then takes (args, ctx)); or " +
      'set "experimentalDecorators": true and "emitDecoratorMetadata": true in tsconfig.json to use @Param, @Ctx ' +
      "and @Args.",
  };
}

/** The innermost decorator whose text holds `position`. */
function decoratorAt(file: ts.SourceFile, position: number): ts.Decorator | undefined {
  let found: ts.Decorator | undefined;
  const visit = (node: ts.Node): void => {
    if (position < node.pos || position >= node.end) return;
    if (TS.isDecorator(node)) found = node;
    TS.forEachChild(node, visit);
  };
  TS.forEachChild(file, visit);
  return found;
}
