import type { default as Ajv, ErrorObject, ValidateFunction } from "ajv";
import type { RegExpEngine } from "ajv/dist/types";
import { mapSubschemas } from "../core/subschemas";
import { isSchemaObject, type JSONSchemaObject } from "../core/types";
import { describeValue } from "./arguments";
import { problemsTogether, problemTexts, type ArgumentProblem } from "./argument-problems";
import { knowFormatsOf } from "./formats";
import { linearPattern, testLinear } from "./linear-regexp";
import { unsafeValues, withoutValuesAt } from "./refused-values";
import { cutText, MAX_ECHOED_PATH } from "./result";
import { lengthKeywords } from "./string-length";

/**
 * How a tool's `pattern`s may run: on RE2 only (the default), or on JavaScript's backtracking engine where RE2 cannot.
 */
export interface PatternOptions {
  /**
   * Run the patterns RE2 cannot (backreferences, lookahead) on JavaScript's own engine. Such a
   * pattern can take exponential time on input a model chooses: opt in only for patterns you
   * have checked, on strings with a small `maxLength`.
   */
  backtrackingPatterns?: boolean;
}

/**
 * Strings checked against a pattern are at most this long unless the schema's own `maxLength`
 * says otherwise: RE2 is linear, and this keeps one pattern check to about a millisecond.
 */
export const PATTERN_INPUT_LIMIT = 16_384;

/** Thrown when a schema holds a pattern RE2 cannot run and the tool did not opt in to backtracking. */
export class BacktrackingPatternError extends Error {
  constructor(
    readonly pattern: string,
    readonly reason: string,
  ) {
    super(`the pattern ${JSON.stringify(pattern)} cannot run in linear time: ${reason}`);
  }
}

function linearEngineFor(backtracking: boolean): RegExpEngine {
  const engine = (pattern: string) => {
    const linear = linearPattern(pattern);
    if (linear.ok) return { test: (text: string) => testLinear(linear.regexp, text), toString: () => `/${pattern}/` };
    if (backtracking) return new RegExp(pattern);
    throw new BacktrackingPatternError(pattern, linear.reason);
  };
  return Object.assign(engine, { code: "toolnexus.linearRegExp" });
}

/**
 * Ajv is a compiler and a cache of compiled validators, holding no per-call state: one per
 * pattern policy for the process, made (and Ajv loaded) when the first schema is compiled or
 * checked. `verbose` keeps the offending data and schema in each error so messages can say
 * what came and what was expected.
 */
const sharedAjv = new Map<boolean, Ajv>();
function ajv(backtracking = false): Ajv {
  let instance = sharedAjv.get(backtracking);
  if (instance === undefined) {
    const { default: AjvClass } = require("ajv") as typeof import("ajv");
    // unicodeRegExp off: `pattern`s mean what they mean to JavaScript and class-validator.
    // ownProperties: an argument named "toString" that was not sent is missing, not a function.
    instance = new AjvClass({
      allErrors: true,
      strict: false,
      verbose: true,
      validateFormats: true,
      strictNumbers: true,
      unicodeRegExp: false,
      ownProperties: true,
      code: { regExp: linearEngineFor(backtracking) },
    });
    // String lengths decided by `.length` where it can: a huge string is refused without being walked.
    for (const definition of lengthKeywords())
      instance.removeKeyword(definition.keyword as string).addKeyword(definition);
    sharedAjv.set(backtracking, instance);
  }
  return instance;
}

/** Returns the problems with `args` (empty when valid). */
export type ArgumentsValidator = (args: Record<string, unknown>) => string[];

/**
 * `schema` compiled now (a schema Ajv cannot compile, or a pattern RE2 cannot run without the
 * opt-in, throws here); the validator returns each problem as a sentence.
 */
export function compileValidator(schema: JSONSchemaObject, options: PatternOptions = {}): ArgumentsValidator {
  const findingsOf = compileSchemaCheck(schema, options);
  return (args) => problemTexts(findingsOf(args)?.problems ?? []);
}

/** What the schema found wrong with a call's arguments. */
export interface SchemaFindings {
  problems: ArgumentProblem[];
  /**
   * The arguments without the values the schema refused as unsafe to read further (see refused-values): what other
   * checks may still look at.
   */
  checkable: Record<string, unknown>;
}

/** Returns what is wrong with `args`, or `undefined` when they are valid. */
export type SchemaCheck = (args: Record<string, unknown>) => SchemaFindings | undefined;

/** `schema` compiled now, as `compileValidator` compiles it; the check says where each problem is. */
export function compileSchemaCheck(schema: JSONSchemaObject, options: PatternOptions = {}): SchemaCheck {
  const phases = compilePhases(schema, options);
  return (args) => {
    for (const [index, phase] of phases.entries()) {
      if (phase(args)) continue;
      let problems = phaseProblems(phase);
      let checkable = withoutValuesAt(args, (phase.errors ?? []).flatMap(unsafeValues));
      // The later phases (the patterns) on what is left, so every problem comes in one answer.
      for (const later of phases.slice(index + 1)) {
        if (later(checkable)) continue;
        problems = problemsTogether(problems, phaseProblems(later));
        checkable = withoutValuesAt(checkable, (later.errors ?? []).flatMap(unsafeValues));
      }
      return { problems, checkable };
    }
    return undefined;
  };
}

function phaseProblems(phase: ValidateFunction): ArgumentProblem[] {
  return (phase.errors ?? []).map((error) => ({ path: problemPath(error), text: describeAjvError(error) }));
}

/** Whether a value fits `schema`, checked as `compileValidator` checks it. */
export function compileCheck(schema: JSONSchemaObject, options: PatternOptions = {}): (value: unknown) => boolean {
  const phases = compilePhases(schema, options);
  return (value) => phases.every((phase) => phase(value) === true);
}

/**
 * Patterns and formats run last, on strings already known to be short enough: a schema with
 * patterns, or with formats on strings of bounded length, is checked first without them (types,
 * enums, lengths, with every patterned string capped at its `maxLength` or
 * `PATTERN_INPUT_LIMIT`), and only then in full.
 */
function compilePhases(schema: JSONSchemaObject, options: PatternOptions): ValidateFunction[] {
  const full = compileSchema(schema, options);
  const bounded = withoutScans(schema);
  return bounded === schema ? [full] : [compileSchema(bounded, options), full];
}

export function compileSchema(schema: JSONSchemaObject, options: PatternOptions = {}): ValidateFunction {
  // `$schema` would make Ajv look up a meta-schema by URI (the dialect is always the same
  // here), and an `$id` would be registered process-wide, clashing with the next tool that has it.
  // A copy: Ajv writes into some schemas it compiles (`nullable` beside a type list gains "null").
  const { $schema: _schema, $id: _id, ...rest } = JSON.parse(JSON.stringify(draft7Tuples(schema))) as JSONSchemaObject;
  const compiler = ajv(options.backtrackingPatterns === true);
  knowFormatsOf(compiler, rest);
  const validate = compiler.compile(rest);
  // The compiled function is ours to keep; Ajv's own cache would only grow (never hit: each
  // tool compiles once).
  compiler.removeSchema(rest);
  return validate;
}

/** Marks a `maxLength` that only bounds a pattern's input, so its error can say so. */
const PATTERN_LIMIT_MARK = "x-toolnexus-pattern-input-limit";

/**
 * `schema` without the checks that read a whole string: every `pattern` replaced by the length
 * it may be run on, every `patternProperties` by a bound on key lengths (with the
 * `additionalProperties` that depends on it), and every `format` of a string whose length is
 * bounded left out (a string refused for its length is never read by a format). The same
 * schema itself when it has none of these.
 */
export function withoutScans(schema: JSONSchemaObject): JSONSchemaObject {
  return mapSubschemas(schema, (node) => {
    if (!isSchemaObject(node)) return node;
    const { pattern, patternProperties, ...rest } = node;
    const boundedFormat =
      typeof rest.format === "string" && (typeof rest.maxLength === "number" || typeof pattern === "string");
    if (typeof pattern !== "string" && patternProperties === undefined && !boundedFormat) return node;
    const bounded: JSONSchemaObject = rest;
    if (boundedFormat) delete bounded.format;
    if (typeof pattern !== "string" && pattern !== undefined) bounded.pattern = pattern;
    else if (typeof pattern === "string" && typeof rest.maxLength !== "number")
      Object.assign(bounded, { maxLength: PATTERN_INPUT_LIMIT, [PATTERN_LIMIT_MARK]: true });
    if (patternProperties !== undefined) {
      delete bounded.additionalProperties;
      delete bounded.unevaluatedProperties;
      bounded.propertyNames ??= { maxLength: PATTERN_INPUT_LIMIT };
    }
    return bounded;
  }) as JSONSchemaObject;
}

/** Not even JavaScript can compile it: not a question of engines (the validator's compile reports it). */
function isRegExpSource(pattern: string): boolean {
  try {
    new RegExp(pattern);
    return true;
  } catch {
    return false;
  }
}

/** The patterns in `schema` RE2 cannot run, each with where it is (a JSON pointer) and a sentence saying why. */
export function backtrackingPatterns(schema: JSONSchemaObject): Array<{ pointer: string; problem: string }> {
  const found: Array<{ pointer: string; problem: string }> = [];
  const check = (pattern: unknown, pointer: string) => {
    if (typeof pattern !== "string" || !isRegExpSource(pattern)) return;
    const linear = linearPattern(pattern);
    if (!linear.ok)
      found.push({
        pointer,
        problem: `the pattern ${JSON.stringify(pattern)} (at ${pointer}) cannot run in linear time: ${linear.reason}`,
      });
  };
  mapSubschemas(schema, (node, pointer) => {
    if (!isSchemaObject(node)) return node;
    const { pattern, patternProperties } = node;
    check(pattern, `${pointer()}/pattern`);
    if (typeof patternProperties === "object" && patternProperties !== null)
      for (const key of Object.keys(patternProperties)) check(key, `${pointer()}/patternProperties`);
    return node;
  });
  return found;
}

/**
 * 2020-12 tuples (`prefixItems`, then `items` for the rest) written the draft-7 way
 * (`items: [...]`, then `additionalItems`), which is the dialect the validator speaks: a
 * tuple is enforced whichever way it was written. Copy-on-write.
 */
export function draft7Tuples(schema: unknown): unknown {
  return mapSubschemas(schema, (node) => {
    if (!isSchemaObject(node) || !Array.isArray(node.prefixItems)) return node;
    const { prefixItems, items, ...rest } = node;
    return { ...rest, items: prefixItems, ...(items !== undefined ? { additionalItems: items } : {}) };
  });
}

/** Throws with Ajv's own words when `schema` is not a valid JSON Schema. */
export function assertValidSchema(schema: JSONSchemaObject): void {
  const { $schema: _schema, $id: _id, ...rest } = draft7Tuples(schema) as JSONSchemaObject;
  if (!ajv().validateSchema(rest)) throw new Error(ajv().errorsText(ajv().errors));
}

/** Names and values echoed back to the model are cut to this many characters; lists to `MAX_LISTED` entries. */
const MAX_ECHOED_NAME = 64;
const MAX_LISTED = 20;

function listed(items: string[]): string {
  return items.length <= MAX_LISTED
    ? items.join(", ")
    : `${items.slice(0, MAX_LISTED).join(", ")} and ${items.length - MAX_LISTED} more`;
}

/** `/items/0/name` → `items[0].name`, cut to a readable length. */
export function argumentPath(instancePath: string): string {
  if (instancePath === "") return "";
  return cutText(fullArgumentPath(instancePath), MAX_ECHOED_PATH);
}

function fullArgumentPath(instancePath: string): string {
  if (instancePath === "") return "";
  return instancePath
    .slice(1)
    .split("/")
    .map((segment) => segment.replace(/~1/g, "/").replace(/~0/g, "~"))
    .reduce(
      (path, segment) => (/^\d+$/.test(segment) ? `${path}[${segment}]` : path ? `${path}.${segment}` : segment),
      "",
    );
}

/** The whole path (never cut) of what `error` is about: for a missing or unknown key, the key's own. */
function problemPath(error: ErrorObject): string {
  const path = fullArgumentPath(error.instancePath);
  const params = error.params as { missingProperty?: unknown; additionalProperty?: unknown };
  if (error.keyword === "required") return join(path, String(params.missingProperty));
  if (error.keyword === "additionalProperties") return join(path, String(params.additionalProperty));
  return path;
}

function join(parent: string, child: string): string {
  return parent ? `${parent}.${child}` : child;
}

function typeOfSchema(schema: unknown): string | undefined {
  if (typeof schema !== "object" || schema === null) return undefined;
  const { type, enum: values } = schema as JSONSchemaObject;
  if (Array.isArray(values))
    return `one of ${listed(values.map((v) => cutText(JSON.stringify(v) ?? String(v), MAX_ECHOED_NAME)))}`;
  if (typeof type === "string") return type;
  if (Array.isArray(type)) return type.join(" or ");
  return undefined;
}

/** One model-readable sentence per Ajv error: which argument, what was expected, what came. */
export function describeAjvError(error: ErrorObject): string {
  const path = argumentPath(error.instancePath);
  const where = path ? `"${path}"` : "arguments";
  const parentProperties = (error.parentSchema as JSONSchemaObject | undefined)?.properties;
  switch (error.keyword) {
    case "required": {
      const missing = (error.params as { missingProperty: string }).missingProperty;
      const expected = typeOfSchema(parentProperties?.[missing]);
      return `missing required argument "${join(path, missing)}"${expected ? ` (expected ${expected})` : ""}`;
    }
    case "additionalProperties": {
      const extra = cutText((error.params as { additionalProperty: string }).additionalProperty, MAX_ECHOED_NAME);
      const allowed = Object.keys(parentProperties ?? {});
      return (
        `unknown argument "${join(path, extra)}"; ` +
        `${allowed.length ? `expected only: ${listed(allowed)}` : "this object takes no arguments"}`
      );
    }
    case "type":
      return `${where} must be ${(error.params as { type: string }).type}, got ${describeValue(error.data)}`;
    case "enum": {
      const allowed = (error.params as { allowedValues: unknown[] }).allowedValues;
      return (
        `${where} must be one of ` +
        `${listed(allowed.map((v) => cutText(JSON.stringify(v) ?? String(v), MAX_ECHOED_NAME)))}, got ` +
        `${describeValue(error.data)}`
      );
    }
    case "maxLength":
      if ((error.parentSchema as JSONSchemaObject | undefined)?.[PATTERN_LIMIT_MARK] === true) {
        return (
          `${where} is too long to be checked against its pattern (at most ${PATTERN_INPUT_LIMIT} characters), ` +
          `got ${describeValue(error.data)}`
        );
      }
      return `${where} ${error.message ?? "is too long"}, got ${describeValue(error.data)}`;
    case "const":
      return (
        `${where} must be ${JSON.stringify((error.params as { allowedValue: unknown }).allowedValue)}, got ` +
        `${describeValue(error.data)}`
      );
    default:
      return `${where} ${error.message ?? "is invalid"}, got ${describeValue(error.data)}`;
  }
}
