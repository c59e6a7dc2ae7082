/**
 * The two ways a compiler applies decorators, told apart by what a decorator receives:
 * - "legacy": TypeScript's `experimentalDecorators` (and SWC's and Babel's legacy modes):
 *   `(prototype, name, descriptor)`, with parameter decorators and, under
 *   `emitDecoratorMetadata`, `design:paramtypes`;
 * - "standard": TC39 decorators, the default of TypeScript 5+ and of esbuild (tsx, vitest, Vite)
 *   without `experimentalDecorators`: `(method, context)`, with no parameter decorators and no
 *   type metadata, but a per-class `context.metadata` object.
 */
export type DecoratorMode = "legacy" | "standard";

/** What a standard method decorator receives as its second argument (the fields toolnexus reads). */
export interface StandardMethodContext {
  kind: string;
  name: string | symbol;
  static: boolean;
  private: boolean;
  metadata?: object | null;
  addInitializer(initializer: (this: unknown) => void): void;
}

/** Whether a decorator's second argument is a standard decorator's context object. */
export function isStandardContext(value: unknown): value is StandardMethodContext {
  return (
    typeof value === "object" &&
    value !== null &&
    typeof (value as { kind?: unknown }).kind === "string" &&
    typeof (value as { addInitializer?: unknown }).addInitializer === "function"
  );
}

/** The two ways forward when code compiled with standard decorators reaches for what only legacy ones give. */
export const STANDARD_MODE_WAYS_FORWARD =
  "Either keep standard decorators and give the tool its input with @Tool({ input }) (a Standard Schema such as " +
  "z.object({ city: z.string() }), a JSON Schema, or a DTO class; the method then takes (args, ctx)) or run " +
  '`npx toolnexus generate` for a manifest of the method\'s parameters; or compile with "experimentalDecorators": ' +
  'true and "emitDecoratorMetadata": true in tsconfig.json to use @Param, @Ctx and @Args';

/**
 * `Symbol.metadata`, where standard decorators keep each class's metadata object. Node has
 * none yet; TypeScript then gives decorators no `context.metadata`, so toolnexus defines it as
 * esbuild, Babel and SWC already do in its absence (`Symbol.for("Symbol.metadata")`), and all of
 * them agree on the one symbol. It must exist before a decorated class is defined: the class's
 * module imports `@Tool` from toolnexus, which loads this first.
 */
export const METADATA_SYMBOL: symbol = ((): symbol => {
  const symbols = Symbol as unknown as { metadata?: symbol };
  if (typeof symbols.metadata !== "symbol")
    Object.defineProperty(Symbol, "metadata", { value: Symbol.for("Symbol.metadata"), configurable: true });
  return symbols.metadata!;
})();

/** The standard decorators' metadata object of the class whose prototype this is, if the class has one of its own. */
export function standardMetadataOf(prototype: object): object | undefined {
  const constructor = Object.getOwnPropertyDescriptor(prototype, "constructor")?.value as unknown;
  if (typeof constructor !== "function" || !Object.hasOwn(constructor, METADATA_SYMBOL)) return undefined;
  const metadata = (constructor as unknown as Record<symbol, unknown>)[METADATA_SYMBOL];
  return typeof metadata === "object" && metadata !== null ? metadata : undefined;
}
