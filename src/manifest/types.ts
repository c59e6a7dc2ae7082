import type { JSONSchemaObject } from "../core/types";

/**
 * The format version this toolnexus reads and `toolnexus generate` writes. Still 1 with
 * `<file>#Class.method` keys and `compiledFile`: both are additions, so every manifest written
 * before them loads unchanged. (A toolnexus older than them refuses a manifest with `#` keys,
 * which only a project with two same-named tool classes has; it refused such projects anyway.)
 */
export const MANIFEST_VERSION = 1;

/**
 * The file name `toolnexus generate` writes by default, and the one looked for, when no manifest
 * is named, from the directory of the file defining each `@Tool` class up to its package root
 * (see src/manifest/find.ts).
 */
export const MANIFEST_FILE = "toolnexus.manifest.json";

/**
 * Environment variable naming the manifest file to use when none is passed (instead of looking for one); a relative
 * path is resolved from the working directory.
 */
export const MANIFEST_ENV = "TOOLNEXUS_MANIFEST";

/**
 * What `toolnexus generate` writes: the facts the TypeScript compiler knows about every `@Tool`
 * method and that runtime metadata cannot carry (unions, literal types, element types,
 * optionality, JSDoc). Plain JSON, keys in a fixed order, tools sorted by key, so it diffs well.
 */
export interface ToolnexusManifest {
  manifestVersion: typeof MANIFEST_VERSION;
  /** Hash of every tool's `hash`: changes exactly when what the tools were generated from changes. */
  hash: string;
  /**
   * Keyed `"ClassName.methodName"`, the class that declares the method. When tool classes of one
   * name are declared in several files of the project, their keys are `"<file>#ClassName.methodName"`
   * (`<file>` is the entry's `file`), and at run time the class's defining file picks the entry.
   */
  tools: Record<string, ManifestTool>;
}

export interface ManifestTool {
  /** The tool's name when the source states it as a literal (`@Tool({ name })`, else the method name). */
  name?: string;
  /** The file declaring the class, relative to the project (tsconfig) directory, with `/`. */
  file: string;
  /**
   * The JavaScript file the compiler emits for `file` (from the tsconfig's `outDir`/`rootDir`),
   * relative to the same directory; absent when the project emits nothing (`noEmit`,
   * `emitDeclarationOnly`). Matched against a class's defining file to tell same-named classes apart.
   */
  compiledFile?: string;
  /**
   * Hash of what this entry was generated from: the method's signature with its decorators and
   * JSDoc, and every type declaration its parameters reach (bodies of methods left out).
   */
  hash: string;
  /** The method's JSDoc summary. `@Tool({ description })` wins over it. */
  description?: string;
  /**
   * `@Tool({ input })` gives the tool's whole input (the method takes `(args, ctx)`): `parameters`
   * is empty, the input is the option's. Absent otherwise (and in manifests written before the option).
   */
  input?: true;
  /**
   * One entry per parameter, by position (`this` parameters left out). An undecorated parameter
   * is a `param` named as in the source, or the `ctx` when typed `ToolContext` (or
   * `ToolCallContext`): how the parameters of code compiled with standard (TC39) decorators,
   * which have no parameter decorators, are told apart.
   */
  parameters: ManifestParameter[];
  /** The schema of the method's result (a `Promise` unwrapped), when it is an object type: the tool's output schema. */
  output?: JSONSchemaObject;
}

/** How the argument is turned into what the method receives (see `convert`). */
export type ManifestConversion = "date" | "date[]" | "class" | "class[]";

export type ManifestParameter =
  | {
      kind: "param";
      /** `@Param("name")` when given as a literal, else the name in the source. */
      name?: string;
      /** `?`, a default value, or a type that admits `undefined`. */
      optional: boolean;
      /** Self-contained JSON Schema of the parameter's type (absent when `@Param({ schema })` states it). */
      schema?: JSONSchemaObject;
      /** The value is a `Date` / an instance of `className` (or an array of them). */
      convert?: ManifestConversion;
      className?: string;
    }
  | {
      kind: "args";
      name?: string;
      /** Schema of the whole argument object. */
      schema?: JSONSchemaObject;
      className?: string;
    }
  | { kind: "ctx"; name?: string };
