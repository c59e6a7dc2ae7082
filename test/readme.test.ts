import { execFileSync } from "node:child_process";
import { mkdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";

/**
 * Every ```ts block of the README is compiled against the built package's own type
 * declarations (as a user's project would see it) and run with Node; it must succeed.
 * A block fenced as ```ts compile-only is compiled but not run.
 */
const root = join(__dirname, "..");
const work = join(__dirname, ".readme-snippets");

interface Snippet {
  file: string;
  run: boolean;
  code: string;
}

function snippets(): Snippet[] {
  const readme = readFileSync(join(root, "README.md"), "utf8");
  return [...readme.matchAll(/```ts( compile-only)?\n([\s\S]*?)```/g)].map((match, index) => ({
    file: `snippet-${String(index + 1).padStart(2, "0")}`,
    run: match[1] === undefined,
    code: match[2]!,
  }));
}

describe("README", () => {
  const blocks = snippets();

  beforeAll(() => {
    rmSync(work, { recursive: true, force: true });
    mkdirSync(work, { recursive: true });
    for (const { file, code } of blocks) writeFileSync(join(work, `${file}.mts`), code);
    writeFileSync(
      join(work, "tsconfig.json"),
      JSON.stringify({
        extends: "../../tsconfig.json",
        compilerOptions: { noEmit: false, outDir: "out", rootDir: ".", paths: {}, types: ["node"], isolatedModules: false },
        include: ["*.mts"],
      }),
    );
    // Compiled together, as ES modules (top-level await), resolving "toolnexus" to dist/.
    execFileSync(process.execPath, [require.resolve("typescript/bin/tsc"), "-p", join(work, "tsconfig.json")], { cwd: root, encoding: "utf8" });
  }, 120_000);

  afterAll(() => {
    if (!process.env.KEEP_SNIPPETS) rmSync(work, { recursive: true, force: true });
  });

  it("has code blocks to check", () => {
    expect(blocks.length).toBeGreaterThanOrEqual(2);
  });

  it.each(
    snippets()
      .filter((s) => s.run)
      .map((s) => [s.file]),
  )("%s runs", (file) => {
    const output = execFileSync(process.execPath, [join(work, "out", `${file}.mjs`)], { cwd: root, encoding: "utf8" });
    expect(output.length).toBeGreaterThan(0);
  });
});
