import type * as ts from "typescript";
import type { JSONSchemaObject } from "../core/types";
import { TS } from "./compiler";
import { isLibrarySymbol, NOT_JSON } from "./type-walk";

/**
 * The fields that make an object a content part at run time, per `type`, one list per form
 * (as the runtime's `isToolContent` checks them).
 */
const PART_FIELDS: Readonly<Record<string, ReadonlyArray<readonly string[]>>> = {
  text: [["text"]],
  image: [["data", "mimeType"], ["url"]],
  audio: [["data", "mimeType"]],
  file: [
    ["data", "mimeType"],
    ["url", "mimeType"],
  ],
  resource_link: [["uri"]],
};

/** Keywords whose value is data, not schema. */
const DATA_KEYWORDS = new Set(["enum", "const", "default", "examples", "required"]);

/**
 * The type a tool's results are made from: the method's declared or inferred return type,
 * awaited (`Promise<T>`, `PromiseLike<T>` and other thenables give `T`, as the runtime awaits them).
 */
export function resultTypeOf(method: ts.MethodDeclaration, checker: ts.TypeChecker): ts.Type | undefined {
  const signature = checker.getSignatureFromDeclaration(method);
  if (signature === undefined) return undefined;
  const returned = checker.getReturnTypeOfSignature(signature);
  return checker.getAwaitedType(returned) ?? returned;
}

/**
 * Whether the runtime makes a value of `type` a structured result: an object (an interface, an
 * alias of one, a class instance, an object literal type) or a union of objects. Not strings,
 * numbers, `void`, `unknown`, `any`, arrays, bytes (`Buffer`, `Uint8Array`), library objects
 * JSON writes as something else (`Date`, `Map`, anything with `toJSON`), and not what the
 * runtime takes as it is: a `ToolResult` or content parts (`ToolContent`, `image(...)`, ...).
 * Those are recognized by shape, as the runtime recognizes them, so a union with one of them
 * is not structured either: such a tool gets no output schema.
 */
export function isStructuredResult(type: ts.Type, checker: ts.TypeChecker, program: ts.Program): boolean {
  if (type.isUnion()) return type.types.every((member) => isStructuredResult(member, checker, program));
  return (
    isPlainObjectType(type, checker, program) &&
    checker.getPropertyOfType(type, "toJSON") === undefined &&
    !isToolResultLike(type, checker) &&
    !isPartLike(type, checker)
  );
}

/** An object type that is neither an array, a function, a class constructor nor a library object without JSON form. */
function isPlainObjectType(type: ts.Type, checker: ts.TypeChecker, program: ts.Program): boolean {
  if (type.isIntersection()) return type.types.every((member) => isPlainObjectType(member, checker, program));
  if (!(type.flags & TS.TypeFlags.Object) || checker.isArrayType(type) || checker.isTupleType(type)) return false;
  if (
    checker.getSignaturesOfType(type, TS.SignatureKind.Call).length > 0 ||
    checker.getSignaturesOfType(type, TS.SignatureKind.Construct).length > 0
  )
    return false;
  const symbol = type.getSymbol();
  return !(
    symbol !== undefined &&
    (NOT_JSON.has(symbol.name) || symbol.name === "Date") &&
    isLibrarySymbol(symbol, program)
  );
}

/** `{ output: string; isError: boolean }`: the runtime takes such a value as the result itself. */
function isToolResultLike(type: ts.Type, checker: ts.TypeChecker): boolean {
  const output = propertyType(type, "output", checker);
  const isError = propertyType(type, "isError", checker);
  return (
    output !== undefined &&
    isError !== undefined &&
    (output.flags & TS.TypeFlags.StringLike) !== 0 &&
    (isError.flags & TS.TypeFlags.BooleanLike) !== 0
  );
}

/** A content part: a `type` the runtime knows with the fields of one of its forms. */
function isPartLike(type: ts.Type, checker: ts.TypeChecker): boolean {
  const kind = propertyType(type, "type", checker);
  if (kind === undefined) return false;
  const kinds = (kind.isUnion() ? kind.types : [kind])
    .filter((member) => member.isStringLiteral())
    .map((member) => (member as ts.StringLiteralType).value);
  return kinds.some((name) =>
    PART_FIELDS[name]?.some((fields) => fields.every((field) => checker.getPropertyOfType(type, field) !== undefined)),
  );
}

function propertyType(type: ts.Type, name: string, checker: ts.TypeChecker): ts.Type | undefined {
  const property = checker.getPropertyOfType(type, name);
  return property === undefined ? undefined : checker.getTypeOfSymbol(property);
}

/**
 * An output schema with its objects left open (`additionalProperties: false` dropped), the one
 * way it differs from a parameter's. A value may carry more than its TypeScript type names (a
 * class's private fields, a row spread into a narrower interface), and a result is checked for
 * what the type promises, not refused for what else it holds. `additionalProperties` of an
 * index signature (`Record<string, X>`) is kept.
 */
export function withOpenObjects(schema: JSONSchemaObject): JSONSchemaObject {
  return openNode(schema) as JSONSchemaObject;
}

function openNode(node: unknown): unknown {
  if (Array.isArray(node)) return node.map(openNode);
  if (typeof node !== "object" || node === null) return node;
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(node)) {
    if (key === "additionalProperties" && value === false) continue;
    if (DATA_KEYWORDS.has(key)) out[key] = value;
    else if (key === "properties" && typeof value === "object" && value !== null) {
      out[key] = Object.fromEntries(Object.entries(value).map(([name, sub]) => [name, openNode(sub)]));
    } else out[key] = openNode(value);
  }
  return out;
}
