import type * as ts from "typescript";

interface CachedEntry<T> {
  value: T;
  /** The text of every file the entry was generated from, by file name. */
  files: ReadonlyMap<string, string>;
  /** Warnings its generation gave, repeated when it is reused. */
  warnings: readonly string[];
}

/**
 * Manifest entries of earlier runs (`generate --watch`), each with the texts of the files it
 * was generated from (the tool's file, the files of every type its parameters reach: what its
 * hash covers). An entry is reused while all those files read the same; a change of compiler
 * options (tsconfig edited) drops them all.
 */
export class EntryCache<T> {
  #entries = new Map<string, CachedEntry<T>>();
  #options: ts.CompilerOptions | undefined;

  /** The entries as `program` sees them; `commit()` it once generation from `program` succeeded. */
  for(program: ts.Program): ProgramEntryCache<T> {
    if (program.getCompilerOptions() !== this.#options) this.#entries = new Map();
    return new ProgramEntryCache(program, this.#entries, (entries) => {
      this.#entries = entries;
      this.#options = program.getCompilerOptions();
    });
  }
}

/** One run's view of the cache: what it reused and regenerated becomes the cache when committed. */
export class ProgramEntryCache<T> {
  readonly #next = new Map<string, CachedEntry<T>>();

  constructor(
    private readonly program: ts.Program,
    private readonly entries: ReadonlyMap<string, CachedEntry<T>>,
    private readonly onCommit: (entries: Map<string, CachedEntry<T>>) => void,
  ) {}

  /** The entry `id` was generated as, if none of its files changed since. */
  get(id: string): { value: T; files: Iterable<string>; warnings: readonly string[] } | undefined {
    const cached = this.entries.get(id);
    if (cached === undefined) return undefined;
    for (const [fileName, text] of cached.files) {
      if (this.program.getSourceFile(fileName)?.text !== text) return undefined;
    }
    this.#next.set(id, cached);
    return { value: cached.value, files: cached.files.keys(), warnings: cached.warnings };
  }

  set(id: string, value: T, fileNames: Iterable<string>, warnings: readonly string[]): void {
    const files = new Map<string, string>();
    for (const fileName of fileNames) {
      const text = this.program.getSourceFile(fileName)?.text;
      if (text !== undefined) files.set(fileName, text);
    }
    this.#next.set(id, { value, files, warnings });
  }

  commit(): void {
    this.onCommit(this.#next);
  }
}
