import type { JSONSchemaObject } from "../types";

/** The format version this toolnexus reads and `toolnexus generate` writes. */
export const MANIFEST_VERSION = 1;

/** The conventional file name, looked up in `process.cwd()` when no manifest is passed. */
export const MANIFEST_FILE = "toolnexus.manifest.json";

/** Environment variable naming the manifest file to load instead of the conventional one. */
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
  /** Keyed `"ClassName.methodName"`, the class that declares the method. */
  tools: Record<string, ManifestTool>;
}

export interface ManifestTool {
  /** The tool's name when the source states it as a literal (`@Tool({ name })`, else the method name). */
  name?: string;
  /** The file declaring the class, relative to the project (tsconfig) directory, with `/`. */
  file: string;
  /**
   * Hash of what this entry was generated from: the method's signature with its decorators and
   * JSDoc, and every type declaration its parameters reach (bodies of methods left out).
   */
  hash: string;
  /** The method's JSDoc summary. `@Tool({ description })` wins over it. */
  description?: string;
  /** One entry per parameter, by position (`this` parameters left out). */
  parameters: ManifestParameter[];
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
