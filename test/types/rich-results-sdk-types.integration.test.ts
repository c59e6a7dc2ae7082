import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { CAST, compileStrict } from "./compile-strict";

/**
 * Each provider's reply for results with parts (images, audio, files, structured content)
 * compiles against that provider's official SDK request types, with no cast: one file per
 * provider in test/types/rich-results/, compiled together.
 */
describe("rich results: replies typed by the official SDKs", () => {
  const directory = join(__dirname, "rich-results");
  const files = readdirSync(directory)
    .filter((name) => name.endsWith(".mts"))
    .map((name) => join(directory, name));

  it("has a file per provider", () => {
    expect(files.length).toBeGreaterThan(0);
  });

  it("compiles them without a cast of toolnexus output", () => {
    expect(compileStrict(files)).toBe("");
    for (const file of files) expect(readFileSync(file, "utf8")).not.toMatch(CAST);
  });
});
