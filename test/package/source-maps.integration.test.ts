import { readFileSync } from "node:fs";
import { dirname, join, posix } from "node:path";
import { packageRoot, packedFiles } from "./consumers/package-under-test";

// Source maps and declaration maps send debuggers and go-to-definition to the TypeScript
// sources: every file they name must be in the published package.
describe("the published package's source maps", () => {
  let files: Set<string>;
  beforeAll(async () => {
    files = await packedFiles();
  });

  const maps = () => [...files].filter((path) => path.endsWith(".map"));

  it("ships source maps and declaration maps", () => {
    expect(maps().some((path) => path.endsWith(".js.map"))).toBe(true);
    expect(maps().some((path) => path.endsWith(".d.ts.map"))).toBe(true);
  });

  it("ships every source a map names", () => {
    const missing: string[] = [];
    for (const map of maps()) {
      const { sources, sourceRoot = "" } = JSON.parse(readFileSync(join(packageRoot, map), "utf8")) as {
        sources: string[];
        sourceRoot?: string;
      };
      expect(sources.length).toBeGreaterThan(0);
      for (const source of sources) {
        const path = posix.normalize(posix.join(posix.dirname(map), sourceRoot, source));
        if (!files.has(path)) missing.push(`${map} → ${path}`);
      }
    }
    expect(missing).toEqual([]);
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
