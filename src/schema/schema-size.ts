/**
 * The most characters of JSON text a schema toolnexus makes self-contained may have. Inlining
 * copies a definition wherever it is referenced, so definitions that each refer to the next one
 * twice double the schema at every level: 30 such levels would be gigabytes. Real schemas (large
 * typescript-json-schema outputs, MCP servers' listings) are a few hundred KB at most, and a
 * schema of a million characters is already more than most models' context window.
 */
export const MAX_SCHEMA_SIZE = 1_000_000;

/** What to do about a schema that grows past the limit as it is inlined. */
export const FEWER_COPIES = "Refer to large definitions from fewer places, or split the tool";

/**
 * A schema that grew past `limit` characters of JSON while its references were inlined, at `pointer` (in the inlined
 * schema).
 */
export class SchemaSizeError extends Error {
  override name = "SchemaSizeError";

  constructor(
    readonly pointer: string,
    readonly limit: number,
  ) {
    super(
      `with its $refs inlined it grows past ${limit.toLocaleString("en-US")} characters of JSON (toolnexus's limit, ` +
        `MAX_SCHEMA_SIZE) at ${pointer === "" ? "the root" : pointer}: ` +
        "each $ref becomes a copy of its definition, so definitions referenced from many places multiply",
    );
  }
}

/**
 * Counts the JSON text of a schema while it is built, and throws `SchemaSizeError` as soon as
 * the count passes `MAX_SCHEMA_SIZE`: the work done before a refusal is bounded by the limit,
 * however large the schema would have become. Characters are counted as `JSON.stringify`
 * writes them (a keyword beside a reference that its target has too counts twice).
 */
export class SchemaSizeCounter {
  #left = MAX_SCHEMA_SIZE;

  /**
   * An object of `keys` (its braces, commas, quoted names and colons) written at `pointer`; its values are counted on
   * their own.
   */
  object(keys: readonly string[], pointer: string): void {
    this.#spend(containerSize(keys.length) + namesSize(keys), pointer);
  }

  /** Members named `keys` added to an object counted already: their quoted names, colons and commas. */
  members(keys: readonly string[], pointer: string): void {
    this.#spend(namesSize(keys) + keys.length, pointer);
  }

  /** An array of `length` items (its brackets and commas) written at `pointer`; its items are counted on their own. */
  array(length: number, pointer: string): void {
    this.#spend(containerSize(length), pointer);
  }

  /** A string, number, boolean or null written at `pointer`. */
  scalar(value: unknown, pointer: string): void {
    this.#spend(typeof value === "string" ? JSON.stringify(value).length : String(value).length, pointer);
  }

  /** A value copied as it is (an `enum`, a `default`, a stand-in), walked only as far as the limit allows. */
  value(value: unknown, pointer: string): void {
    const pending: unknown[] = [value];
    while (pending.length > 0) {
      const next = pending.pop();
      if (Array.isArray(next)) {
        this.array(next.length, pointer);
        for (const item of next) pending.push(item);
      } else if (typeof next === "object" && next !== null) {
        const keys = Object.keys(next);
        this.object(keys, pointer);
        for (const key of keys) pending.push((next as Record<string, unknown>)[key]);
      } else this.scalar(next, pointer);
    }
  }

  #spend(characters: number, pointer: string): void {
    this.#left -= characters;
    if (this.#left < 0) throw new SchemaSizeError(pointer, MAX_SCHEMA_SIZE);
  }
}

/** Each name quoted, and its colon. */
function namesSize(keys: readonly string[]): number {
  let size = 0;
  for (const key of keys) size += JSON.stringify(key).length + 1;
  return size;
}

/** Brackets and the commas between `count` members. */
function containerSize(count: number): number {
  return 2 + Math.max(0, count - 1);
}
