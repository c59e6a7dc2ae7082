import { packedFiles } from "./consumers/package-under-test";

/**
 * The tarball ships what users run and read: the built package, the sources its maps point at
 * (test/package/source-maps checks that they do), the manifest, README, LICENSE and CHANGELOG.
 * No tests, fixtures, benches, scripts, API reports or build caches.
 */
describe("the published package's files", () => {
  let files: string[];
  beforeAll(async () => {
    files = [...(await packedFiles())].sort();
  });

  it("are the package manifest, the docs, dist/ and the TypeScript sources only", () => {
    const allowed = (path: string) =>
      ["package.json", "README.md", "LICENSE", "CHANGELOG.md"].includes(path) ||
      /^dist\/(cjs|esm)\/.+\.(js|mjs|d\.ts|d\.mts|map)$/.test(path) ||
      /^src\/.+\.ts$/.test(path);
    expect(files.filter((path) => !allowed(path))).toEqual([]);
  });

  it("include no test, fixture, bench or build cache, even under dist/ or src/", () => {
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
