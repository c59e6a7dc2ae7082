import { isObject } from "../core/types";
import { ManifestError } from "./errors";
import { manifestKey, parseManifestKey } from "./keys";
import { MANIFEST_VERSION, type ManifestParameter, type ManifestTool, type ToolnexusManifest } from "./types";

const CONVERSIONS = new Set(["date", "date[]", "class", "class[]"]);
const KINDS = new Set(["param", "args", "ctx"]);

/**
 * Checks that `value` has the shape of a manifest and returns it typed. `source` names it in
 * errors (a path, or "given in the options"). Unknown keys are allowed, so a newer
 * generator's additions do not break an older runtime within one format version.
 */
export function validateManifest(value: unknown, source: string): ToolnexusManifest {
  const fail = (pointer: string, problem: string): never => {
    throw new ManifestError(
      `The toolnexus manifest ${source} is invalid: ${pointer || "the root"} ${problem}. Regenerate it with ` +
        `\`npx toolnexus generate\`.`,
    );
  };
  if (!isObject(value)) return fail("", "must be an object");
  const version = value.manifestVersion;
  if (version !== MANIFEST_VERSION) {
    if (typeof version === "number" && version > MANIFEST_VERSION) {
      throw new ManifestError(
        `The toolnexus manifest ${source} has format version ${version}, written by a newer toolnexus; this one ` +
          `reads version ${MANIFEST_VERSION}. Upgrade toolnexus, or regenerate the manifest with this version's ` +
          `\`npx toolnexus generate\`.`,
      );
    }
    return fail("/manifestVersion", `must be ${MANIFEST_VERSION}`);
  }
  if (typeof value.hash !== "string") fail("/hash", "must be a string");
  if (!isObject(value.tools)) return fail("/tools", 'must be an object keyed by "Class.method"');
  const plainKeys = new Set(Object.keys(value.tools).filter((key) => !key.includes("#")));
  for (const [key, tool] of Object.entries(value.tools)) {
    const at = `/tools/${escapePointer(key)}`;
    const parts = parseManifestKey(key);
    if (parts === undefined) return fail(at, 'must be keyed "ClassName.methodName" (or "<file>#ClassName.methodName")');
    checkTool(tool, at, fail);
    if (parts.file !== undefined) {
      if (parts.file !== tool.file)
        fail(at, `must be keyed with its own file ("${tool.file}#${parts.className}.${parts.methodName}")`);
      // Else which entry a class of that name gets would depend on the lookup order.
      const plain = manifestKey(parts.className, parts.methodName);
      if (plainKeys.has(plain))
        fail(at, `cannot be listed with "${plain}" too: a class name is keyed with its file everywhere or nowhere`);
    }
  }
  return value as unknown as ToolnexusManifest;
}

function checkTool(
  tool: unknown,
  at: string,
  fail: (pointer: string, problem: string) => never,
): asserts tool is ManifestTool {
  if (!isObject(tool)) fail(at, "must be an object");
  const entry = tool as Record<string, unknown>;
  for (const key of ["file", "hash"]) if (typeof entry[key] !== "string") fail(`${at}/${key}`, "must be a string");
  for (const key of ["name", "description", "compiledFile"])
    if (entry[key] !== undefined && typeof entry[key] !== "string")
      fail(`${at}/${key}`, "must be a string when present");
  if (entry.input !== undefined && entry.input !== true) fail(`${at}/input`, "must be true when present");
  if (!Array.isArray(entry.parameters)) fail(`${at}/parameters`, "must be an array");
  (entry.parameters as unknown[]).forEach((parameter, index) =>
    checkParameter(parameter, `${at}/parameters/${index}`, fail),
  );
  // Whether it describes an object is the scanner's to say (with the tool's name), as for `@Tool({ output })`.
  if (entry.output !== undefined && !isObject(entry.output))
    fail(`${at}/output`, "must be a JSON Schema object when present");
}

function checkParameter(
  parameter: unknown,
  at: string,
  fail: (pointer: string, problem: string) => never,
): asserts parameter is ManifestParameter {
  if (!isObject(parameter)) fail(at, "must be an object");
  const entry = parameter as Record<string, unknown>;
  if (typeof entry.kind !== "string" || !KINDS.has(entry.kind)) fail(`${at}/kind`, 'must be "param", "args" or "ctx"');
  if (entry.name !== undefined && typeof entry.name !== "string") fail(`${at}/name`, "must be a string when present");
  if (entry.kind === "ctx") return;
  if (entry.schema !== undefined && !isObject(entry.schema))
    fail(`${at}/schema`, "must be a JSON Schema object when present");
  if (entry.className !== undefined && typeof entry.className !== "string")
    fail(`${at}/className`, "must be a string when present");
  if (entry.kind === "args") return;
  if (typeof entry.optional !== "boolean") fail(`${at}/optional`, "must be true or false");
  if (entry.convert !== undefined && !CONVERSIONS.has(entry.convert as string))
    fail(`${at}/convert`, 'must be "date", "date[]", "class" or "class[]" when present');
  if ((entry.convert === "class" || entry.convert === "class[]") && typeof entry.className !== "string")
    fail(`${at}/className`, `must name the class when convert is "${entry.convert as string}"`);
}

function escapePointer(key: string): string {
  return key.replace(/~/g, "~0").replace(/\//g, "~1");
}
