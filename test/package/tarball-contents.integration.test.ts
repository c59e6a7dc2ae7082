import { packedFiles } from "./consumers/package-under-test";

/**
 * The tarball ships what users run and read: the built package (its source maps carry the
 * TypeScript, test/package/source-maps checks it), the manifest, README, LICENSE and CHANGELOG.
 * No TypeScript sources, tests, fixtures, benches, scripts, API reports or build caches.
 */
describe("the published package's files", () => {
  let files: string[];
  beforeAll(async () => {
    files = [...(await packedFiles())].sort();
  });

  it("are the package manifest, the docs and dist/ only", () => {
    const allowed = (path: string) =>
      ["package.json", "README.md", "LICENSE", "CHANGELOG.md"].includes(path) ||
      /^dist\/(cjs|esm)\/.+\.(js|mjs|d\.ts|d\.mts|js\.map)$/.test(path);
    expect(files.filter((path) => !allowed(path))).toEqual([]);
  });

  it("include no TypeScript source: the source maps carry it", () => {
    expect(files.filter((path) => path.startsWith("src/") || /(?<!\.d)\.[mc]?ts$/.test(path))).toEqual([]);
  });

  it("include no test, fixture, bench or build cache, even under dist/", () => {
    expect(
      files.filter(
        (path) =>
          /(^|\/)(test|tests|__tests__|fixtures|bench)\//.test(path) || /\.(test|spec)\.|\.tsbuildinfo$/.test(path),
      ),
    ).toEqual([]);
  });

  it("carry the license and the changelog", () => {
    expect(files).toEqual(expect.arrayContaining(["LICENSE", "CHANGELOG.md", "README.md", "package.json"]));
  });
});
