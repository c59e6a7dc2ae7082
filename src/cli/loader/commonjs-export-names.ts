import { readFileSync } from "node:fs";
import { dirname, resolve } from "node:path";
import type * as TS from "typescript";
import { isFile } from "../../core/is-file";
import { isTypeScriptFile, TYPESCRIPT_EXTENSIONS } from "./module-format";
import { isPathSpecifier, typeScriptAlternatives } from "./resolution";
import { typeScriptFor } from "./typescript-compiler";

/**
 * The names a CommonJS TypeScript file exports, read from its syntax: what an ES module that
 * imports it may name (`import { WeatherService } from "./services.cjs"`), as Node's export
 * detection gives them for CommonJS JavaScript. `export *` from another TypeScript file adds
 * that file's names; from JavaScript or a package, those names stay reachable through the
 * default import (the whole `module.exports`). `export =` and `export default` add none.
 */
export function commonJsExportNames(filename: string, seen: Set<string> = new Set()): Set<string> {
  const names = new Set<string>();
  if (seen.has(filename)) return names;
  seen.add(filename);
  const ts = typeScriptFor(dirname(filename));
  const file = ts.createSourceFile(filename, readFileSync(filename, "utf8"), ts.ScriptTarget.Latest, false);
  for (const statement of file.statements) {
    if (ts.isExportDeclaration(statement)) {
      if (statement.isTypeOnly) continue;
      const clause = statement.exportClause;
      if (clause === undefined) {
        const target =
          statement.moduleSpecifier !== undefined && ts.isStringLiteral(statement.moduleSpecifier)
            ? typeScriptFileFor(statement.moduleSpecifier.text, filename)
            : undefined;
        if (target !== undefined) for (const name of commonJsExportNames(target, seen)) names.add(name);
      } else if (ts.isNamespaceExport(clause)) {
        names.add(clause.name.text);
      } else {
        for (const element of clause.elements) if (!element.isTypeOnly) names.add(element.name.text);
      }
      continue;
    }
    const modifiers = ts.canHaveModifiers(statement) ? (ts.getModifiers(statement) ?? []) : [];
    const has = (kind: TS.SyntaxKind) => modifiers.some((modifier) => modifier.kind === kind);
    if (!has(ts.SyntaxKind.ExportKeyword) || has(ts.SyntaxKind.DefaultKeyword) || has(ts.SyntaxKind.DeclareKeyword))
      continue;
    if (ts.isVariableStatement(statement)) {
      for (const declaration of statement.declarationList.declarations) addBindingNames(ts, declaration.name, names);
    } else if (
      (ts.isFunctionDeclaration(statement) ||
        ts.isClassDeclaration(statement) ||
        ts.isEnumDeclaration(statement) ||
        ts.isImportEqualsDeclaration(statement)) &&
      statement.name !== undefined
    ) {
      names.add(statement.name.text);
    } else if (ts.isModuleDeclaration(statement) && ts.isIdentifier(statement.name)) {
      names.add(statement.name.text);
    }
  }
  names.delete("default");
  return names;
}

function addBindingNames(ts: typeof TS, name: TS.BindingName, names: Set<string>): void {
  if (ts.isIdentifier(name)) {
    names.add(name.text);
    return;
  }
  for (const element of name.elements) if (!ts.isOmittedExpression(element)) addBindingNames(ts, element.name, names);
}

/** The TypeScript file a relative `export * from` names, with or without its extension. */
function typeScriptFileFor(specifier: string, importer: string): string | undefined {
  if (!isPathSpecifier(specifier)) return undefined;
  const path = resolve(dirname(importer), specifier);
  const candidates = [
    path,
    ...typeScriptAlternatives(path),
    ...TYPESCRIPT_EXTENSIONS.map((extension) => `${path}${extension}`),
  ];
  return candidates.find((candidate) => isTypeScriptFile(candidate) && isFile(candidate));
}
