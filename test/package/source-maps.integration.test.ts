import { readFileSync } from "node:fs";
import { dirname, join, posix } from "node:path";
import { packageRoot, packedFiles } from "./consumers/package-under-test";

// The tarball ships no TypeScript sources: the source maps carry them (inlineSources), so
// stack traces and debuggers still show the TypeScript. Declaration maps are not shipped: they
// cannot carry sources, and would send go-to-definition to files that are not there.
describe("the published package's source maps", () => {
  let files: Set<string>;
  beforeAll(async () => {
    files = await packedFiles();
  });

  const maps = () => [...files].filter((path) => path.endsWith(".map"));

  it("ships a source map for the built JavaScript, and no declaration maps", () => {
    expect(maps().some((path) => path.endsWith(".js.map"))).toBe(true);
    expect(maps().filter((path) => !path.endsWith(".js.map"))).toEqual([]);
  });

  it("carries the TypeScript of every source a map names", () => {
    const withoutSource: string[] = [];
    for (const map of maps()) {
      const { sources, sourcesContent = [] } = JSON.parse(readFileSync(join(packageRoot, map), "utf8")) as {
        sources: string[];
        sourcesContent?: Array<string | null>;
      };
      expect(sources.length).toBeGreaterThan(0);
      sources.forEach((source, index) => {
        if (typeof sourcesContent[index] !== "string" || sourcesContent[index] === "")
          withoutSource.push(`${map} → ${source}`);
      });
    }
    expect(withoutSource).toEqual([]);
  });

  it("carries the sources as they are in src/", () => {
    const map = "dist/cjs/index.js.map";
    const { sources, sourcesContent } = JSON.parse(readFileSync(join(packageRoot, map), "utf8")) as {
      sources: string[];
      sourcesContent: string[];
    };
    const source = posix.normalize(posix.join(posix.dirname(map), sources[0]!));
    expect(source).toBe("src/index.ts");
    expect(sourcesContent[0]).toBe(readFileSync(join(packageRoot, source), "utf8"));
  });

  it("ships the map every built file points at", () => {
    const missing: string[] = [];
    for (const file of [...files].filter((path) => /\.(js|d\.ts)$/.test(path))) {
      const url = /\/\/# sourceMappingURL=(\S+)\s*$/.exec(readFileSync(join(packageRoot, file), "utf8"))?.[1];
      if (url === undefined) continue;
      const map = posix.join(dirname(file).split("\\").join("/"), url);
      if (!files.has(map)) missing.push(`${file} → ${map}`);
    }
    expect(missing).toEqual([]);
  });
});
