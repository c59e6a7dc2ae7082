import { readdirSync } from "node:fs";
import { join, relative } from "node:path";

/**
 * The suite's own layout: every test file sits in a folder named for the part it checks, and is
 * named for the behavior it specifies (never for where its bugs came from). Its jest project
 * follows from its name (jest.config.ts): *.integration.test.ts, *.property.test.ts, *.test.ts.
 */
const testRoot = join(__dirname, "..");

function testFiles(directory: string): string[] {
  return readdirSync(directory, { withFileTypes: true }).flatMap((entry) => {
    if (entry.name === "fixtures" || entry.name === "node_modules" || entry.name.startsWith(".")) return [];
    const path = join(directory, entry.name);
    return entry.isDirectory()
      ? testFiles(path)
      : entry.name.endsWith(".test.ts")
        ? [relative(testRoot, path).split("\\").join("/")]
        : [];
  });
}

describe("the test suite's layout", () => {
  const files = testFiles(testRoot);

  it("has test files", () => {
    expect(files.length).toBeGreaterThan(100);
  });

  it("keeps every test file in a folder, none loose at the top of test/", () => {
    expect(files.filter((file) => !file.includes("/"))).toEqual([]);
  });

  it("names no test file after where its bugs came from", () => {
    expect(files.filter((file) => /regression|review|bugfix|issue-?\d/i.test(file))).toEqual([]);
  });
});
