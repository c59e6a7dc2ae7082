import { createHash } from "node:crypto";
import type * as ts from "typescript";
import { TS } from "./compiler";

/** Bump when the generator's output for unchanged sources changes: every tool's hash changes with it. */
export const GENERATOR_REVISION = "2";

export function digest(parts: readonly string[]): string {
  const hash = createHash("sha256");
  for (const part of parts) hash.update(`${part.length}:${part}`);
  return `sha256:${hash.digest("hex").slice(0, 32)}`;
}

/** JSDoc blocks attached to `node`, as written. */
function jsDocText(node: ts.Node): string {
  return TS.getJSDocCommentsAndTags(node)
    .filter((doc) => doc.kind === TS.SyntaxKind.JSDoc)
    .map((doc) => doc.getText())
    .join("\n");
}

/** `node`'s text without its decorators (they feed the runtime, not the manifest). */
function withoutDecorators(node: ts.Node): string {
  const decorators = TS.canHaveDecorators(node) ? TS.getDecorators(node) : undefined;
  const source = node.getSourceFile();
  if (decorators === undefined || decorators.length === 0) return node.getText(source);
  return source.text.slice(decorators[decorators.length - 1]!.end, node.end).trim();
}

/**
 * What a tool's entry is generated from, in the method: its JSDoc, its decorators (names and
 * options), name, type parameters and parameters. The body and the return type are left out,
 * so editing what the method does never makes the manifest stale (the return type counts, with
 * `resultTypeText`, for a tool with an output schema only).
 */
export function methodSignatureText(method: ts.MethodDeclaration): string {
  const source = method.getSourceFile();
  const decorators = (TS.getDecorators(method) ?? []).map((d) => d.getText(source));
  return [
    jsDocText(method),
    ...decorators,
    method.name.getText(source),
    method.typeParameters?.map((p) => p.getText(source)).join(",") ?? "",
    ...method.parameters.map((p) => p.getText(source)),
  ].join("\n");
}

/**
 * What a tool's output schema is generated from in the method: its result type as the checker
 * reads it (written or inferred from the body, a `Promise` unwrapped), named types by name (their
 * declarations count like those parameters reach). A body that changes what it returns changes
 * the hash; one that does not, or `Weather` rewritten as `Promise<Weather>`, leaves it.
 */
export function resultTypeText(type: ts.Type, checker: ts.TypeChecker): string {
  return checker.typeToString(type, undefined, TS.TypeFormatFlags.NoTruncation);
}

/**
 * What a reached type declaration contributes: interfaces, aliases and enums as written (with
 * JSDoc); classes only as far as their shape goes (heritage, properties and accessors with
 * their JSDoc, without decorators or method bodies).
 */
export function declarationText(declaration: ts.Declaration): string {
  const source = declaration.getSourceFile();
  if (TS.isClassLike(declaration)) {
    const parts = [
      `class ${declaration.name?.getText(source) ?? ""}`,
      ...(declaration.heritageClauses ?? []).map((h) => h.getText(source)),
    ];
    for (const member of declaration.members) {
      if (
        TS.isPropertyDeclaration(member) ||
        TS.isGetAccessorDeclaration(member) ||
        TS.isSetAccessorDeclaration(member)
      ) {
        parts.push(
          jsDocText(member) +
            (TS.isPropertyDeclaration(member)
              ? withoutDecorators(member)
              : `${member.name.getText(source)}:${member.type?.getText(source) ?? ""}`),
        );
      } else if (TS.isConstructorDeclaration(member)) {
        for (const parameter of member.parameters) {
          if (TS.isParameterPropertyDeclaration(parameter, member)) parts.push(withoutDecorators(parameter));
        }
      }
    }
    return parts.join("\n");
  }
  return `${jsDocText(declaration)}${declaration.getText(source)}`;
}
