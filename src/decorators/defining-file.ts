import { isAbsolute } from "node:path";
import { fileURLToPath } from "node:url";
import { standardMetadataOf } from "./decorator-mode";

/**
 * Where each `@Tool` class was defined: the file whose code ran the decorator. The scanner looks
 * for `toolnexus.manifest.json` next to it (src/manifest/find.ts) and tells classes of the same
 * name in different files apart by it.
 *
 * Captured once per class, when its first `@Tool` decorator runs, from V8's structured stack:
 * `Error.captureStackTrace` with a temporary `Error.prepareStackTrace` that returns the CallSites'
 * file names (nothing is formatted). The stack starts above the decorator function itself, so
 * toolnexus's own frames are never in it (toolnexus never applies `@Tool` itself), which also
 * holds when toolnexus is bundled with the application. Then the decorator helpers a compiler
 * calls through are skipped (tslib's `__decorate`, reflect-metadata's `Reflect.decorate`, SWC's,
 * Babel's and Oxc's helpers (Vite 8 serves Oxc's as a virtual module), NestJS's `applyDecorators`), and so are the built-ins they call through
 * (Babel's `_applyDecoratedDescriptor` applies decorators with `Array.prototype.reduce`, a frame
 * without a file); the next frame is the defining code. ES
 * modules' `file://` URLs become paths; code without a file (eval) has none. Code bundled into
 * one file gets the bundle's path.
 */
const definingFiles = new WeakMap<object, string | undefined>();

/** Files of the decorator helpers that call a decorator on behalf of the code defining a class. */
const HELPER_FILE =
  /[\\/]node_modules[\\/](?:tslib|reflect-metadata|@swc[\\/]helpers|@babel[\\/]runtime(?:-corejs\d)?|@oxc-project[\\/]runtime|@nestjs[\\/]common)[\\/]|^\0?@oxc-project\+runtime@/;
/** Enough frames to pass the helpers (each adds one or two) and reach the defining code; each costs an allocation. */
const FRAMES = 10;

/**
 * Records, once per class, the file defining it. The class is known by its prototype (legacy
 * decorators) or by its standard decorators' metadata object (the class itself does not exist
 * yet when they run). `decorator` is the decorator function running now: it and what it calls
 * are left out.
 */
export function recordDefiningFile(classKey: object, decorator: Function): void {
  if (!definingFiles.has(classKey)) definingFiles.set(classKey, callerFile(decorator));
}

/** The absolute path of the file that defined the class of `prototype`, when its `@Tool` decorators recorded one. */
export function definingFileOf(prototype: object): string | undefined {
  if (definingFiles.has(prototype)) return definingFiles.get(prototype);
  const metadata = standardMetadataOf(prototype);
  return metadata === undefined ? undefined : definingFiles.get(metadata);
}

function callerFile(decorator: Function): string | undefined {
  for (const file of stackFiles(decorator)) {
    if (file === BUILT_IN || (file !== undefined && HELPER_FILE.test(file))) continue;
    const path = file?.startsWith("file://") ? fileURLToPath(file) : file;
    // Eval'd code and the like have no directory to look in (and their caller did not define the class).
    return path !== undefined && isAbsolute(path) ? path : undefined;
  }
  return undefined;
}

/** Stands for a frame of a built-in function (`Array.prototype.reduce`): native code, without a file. */
const BUILT_IN = Symbol("built-in");

/** The file names of the frames that called `decorator`, innermost first; `undefined` for eval'd code. */
function stackFiles(decorator: Function): ReadonlyArray<string | typeof BUILT_IN | undefined> {
  const prepare = Error.prepareStackTrace;
  const limit = Error.stackTraceLimit;
  const holder: { stack?: unknown } = {};
  try {
    Error.prepareStackTrace = (_error, sites) =>
      sites.map((site) => {
        const file = site.getFileName() ?? undefined;
        return site.isNative() || (file === undefined && !site.isEval()) ? BUILT_IN : file;
      });
    Error.stackTraceLimit = FRAMES;
    Error.captureStackTrace(holder, decorator);
    // V8 builds the stack when it is first read: read it while this prepareStackTrace is in place.
    const files = holder.stack;
    return Array.isArray(files) ? (files as Array<string | typeof BUILT_IN | undefined>) : [];
  } finally {
    Error.prepareStackTrace = prepare;
    Error.stackTraceLimit = limit;
  }
}
