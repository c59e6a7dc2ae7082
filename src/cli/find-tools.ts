import { toolMethodsOf } from "../decorators/metadata";
import { isTool, Toolkit, type ToolSource } from "../toolkit";
import { CliError, messageOf, withFix } from "./errors";

/** Anything shaped like a Toolkit (also one from another copy of toolnexus). */
export interface ToolkitLike {
  tools(): ReturnType<Toolkit["tools"]>;
  get: Toolkit["get"];
  execute: Toolkit["execute"];
  register(...items: ToolSource[]): unknown;
}

export function isToolkitLike(value: unknown): value is ToolkitLike {
  if (value instanceof Toolkit) return true;
  const kit = value as Partial<ToolkitLike> | null;
  return (
    typeof kit === "object" &&
    kit !== null &&
    typeof kit.tools === "function" &&
    typeof kit.get === "function" &&
    typeof kit.execute === "function" &&
    typeof kit.register === "function"
  );
}

/** True when the prototype chain declares at least one `@Tool` method. */
function hasToolMethods(prototype: unknown): boolean {
  return toolMethodsOf(prototype).length > 0;
}

const isDecoratedClass = (value: unknown): value is new () => object =>
  typeof value === "function" && hasToolMethods((value as { prototype?: unknown }).prototype);
const isDecoratedInstance = (value: unknown): value is object =>
  typeof value === "object" && value !== null && hasToolMethods(Object.getPrototypeOf(value));

/**
 * The toolkit a module offers. A module may export a `Toolkit` (used as it is: other exports
 * are then ignored), `Tool`s (from `defineTool`), decorated instances, decorated classes
 * (instantiated with no arguments, unless an instance of the class is exported too), or arrays
 * of these; `export default` counts. `pick` names the one export to use.
 */
export function toolkitFromModule(moduleExports: unknown, specifier: string, pick?: string): ToolkitLike {
  const entries = exportEntries(moduleExports);
  const named = entries.map(([name]) => name);
  let candidates = entries;
  if (pick !== undefined) {
    const found = entries.find(([name]) => name === pick);
    if (found === undefined) {
      throw new CliError(`${specifier} has no export named "${pick}". Its exports: ${named.join(", ") || "(none)"}.`);
    }
    candidates = [found];
  }

  const toolkits = candidates.filter(([, value]) => isToolkitLike(value));
  if (toolkits.length === 1) return toolkits[0]![1] as ToolkitLike;
  if (toolkits.length > 1) {
    throw new CliError(
      `${specifier} exports ${toolkits.length} toolkits (${toolkits.map(([name]) => name).join(", ")}). Pick one ` +
        "with --export <name>.",
    );
  }

  const tools: unknown[] = [];
  const instances: object[] = [];
  const classes: Array<[string, new () => object]> = [];
  const visit = (name: string, value: unknown): void => {
    if (isTool(value)) tools.push(value);
    else if (isDecoratedClass(value)) classes.push([name, value]);
    else if (isDecoratedInstance(value)) instances.push(value);
    else if (Array.isArray(value))
      for (const item of value)
        if (isTool(item) || isDecoratedInstance(item) || isDecoratedClass(item)) visit(name, item);
  };
  const seen = new Set<unknown>();
  for (const [name, value] of candidates) {
    if (seen.has(value)) continue;
    seen.add(value);
    visit(name, value);
  }

  const sources: ToolSource[] = [...(tools as ToolSource[]), ...instances];
  for (const [name, Class] of classes) {
    if (instances.some((instance) => instance instanceof Class)) continue; // the exported instance is the one to use
    if (sources.some((source) => source === Class)) continue;
    try {
      sources.push(new Class());
    } catch (error) {
      throw new CliError(
        `cannot use ${specifier}: new ${Class.name || name}() failed: ` +
          withFix(
            messageOf(error),
            `Export an instance instead (export const ${lowerFirst(Class.name || name)} = new ` +
              `${Class.name || name}(...)), or give its constructor parameters defaults.`,
          ),
        2,
        { cause: error },
      );
    }
  }
  if (sources.length === 0) {
    const what =
      pick !== undefined
        ? `its export "${pick}" is not a tool source`
        : `it exports no tools (exports: ${named.join(", ") || "none"})`;
    throw new CliError(
      `${specifier}: ${what}. Export a Toolkit, Tools made with defineTool, or classes with @Tool methods.`,
    );
  }
  try {
    return new Toolkit(sources);
  } catch (error) {
    throw new CliError(`cannot use ${specifier}: ${messageOf(error)}`, 2, { cause: error });
  }
}

/** [name, value] pairs of a CommonJS `module.exports` or an ES module namespace. */
function exportEntries(moduleExports: unknown): Array<[string, unknown]> {
  if (moduleExports === null || moduleExports === undefined) return [];
  // `module.exports = X` where X is itself a tool source.
  if (
    typeof moduleExports === "function" ||
    isToolkitLike(moduleExports) ||
    isTool(moduleExports) ||
    Array.isArray(moduleExports) ||
    isDecoratedInstance(moduleExports)
  ) {
    return [["default", moduleExports]];
  }
  if (typeof moduleExports !== "object") return [];
  const entries: Array<[string, unknown]> = [];
  for (const name of Object.keys(moduleExports)) {
    if (name === "__esModule") continue;
    entries.push([name, (moduleExports as Record<string, unknown>)[name]]);
  }
  // An ES module importing CommonJS: `default` is module.exports itself; look inside it too.
  const fallback = (moduleExports as { default?: unknown }).default;
  if (
    fallback !== null &&
    typeof fallback === "object" &&
    !isToolkitLike(fallback) &&
    !isTool(fallback) &&
    !Array.isArray(fallback) &&
    !isDecoratedInstance(fallback)
  ) {
    for (const name of Object.keys(fallback)) {
      if (name !== "__esModule" && !entries.some(([known]) => known === name))
        entries.push([name, (fallback as Record<string, unknown>)[name]]);
    }
  }
  return entries;
}

function lowerFirst(text: string): string {
  return text.charAt(0).toLowerCase() + text.slice(1);
}
