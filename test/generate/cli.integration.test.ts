import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { assertBuilt, fixtureProject, fixtures, runBin, tempProject } from "./support";

/** `toolnexus generate` through the real, built bin. */
beforeAll(assertBuilt);

const made: string[] = [];
afterAll(() => {
  for (const dir of made) rmSync(dir, { recursive: true, force: true });
});
const scratch = () => {
  const dir = mkdtempSync(join(tmpdir(), "toolnexus-cli-"));
  made.push(dir);
  return dir;
};

describe("toolnexus generate (the bin)", () => {
  it("writes the manifest, reports progress on stderr and a summary with --json", async () => {
    const out = join(scratch(), "manifest.json");
    const run = await runBin(["generate", "--project", fixtureProject("types"), "--out", out, "--json"]);
    expect(run.code).toBe(0);
    const summary = JSON.parse(run.stdout);
    expect(summary).toMatchObject({
      ok: true,
      mode: "generate",
      project: fixtureProject("types"),
      manifest: out,
      written: true,
      files: 3,
      tools: 6,
      classes: 3,
      changes: [],
      errors: [],
      warnings: [],
    });
    expect(Object.keys(summary.timings)).toEqual(["program", "typecheck", "scan", "total"]);
    expect(summary.durationMs).toBeGreaterThan(0);
    const lines = run.stderr.trimEnd().split("\n");
    expect(lines[0]).toBe(
      `toolnexus generate: test/fixtures/generate/types/tsconfig.json: 3 source files, ${summary.compiler} (program in ${lines[0]!.split("(program in ")[1]}`,
    );
    expect(summary.compiler).toMatch(/^TypeScript \d+\.\d+\.\d+ \(the project's\)$/);
    expect(lines[1]).toMatch(/^toolnexus generate: type-checked in [\d.]+ m?s$/);
    expect(lines[2]).toMatch(/^toolnexus generate: scanned 3 files: 6 tools in 3 classes \([\d.]+ m?s\)$/);
    expect(lines[3]).toMatch(/^toolnexus generate: wrote .*manifest\.json \(6 tools\) in [\d.]+ m?s$/);
    // The bin writes exactly the committed fixture manifest (stable output).
    expect(readFileSync(out, "utf8")).toBe(readFileSync(join(fixtures, "types", "toolnexus.manifest.json"), "utf8"));
  });

  it("--check exits 1 on a stale manifest and names the tools that changed (text and --json)", async () => {
    const run = await runBin(["generate", "--check", "--json", "-p", fixtureProject("stale")]);
    expect(run.code).toBe(1);
    expect(JSON.parse(run.stdout)).toMatchObject({
      ok: false,
      mode: "check",
      manifest: "test/fixtures/generate/stale/toolnexus.manifest.json",
      upToDate: false,
      tools: 3,
      changes: [
        { key: "CatalogService.brands", change: "added" },
        { key: "CatalogService.categories", change: "removed" },
        {
          key: "CatalogService.search",
          change: "changed",
          details: ["parameters (query, sort) → (query, sort, limit)", 'parameter "sort": schema'],
        },
      ],
      errors: [],
    });
    expect(run.stderr).toContain(
      [
        "toolnexus generate --check: test/fixtures/generate/stale/toolnexus.manifest.json is stale (3 tools changed).",
        "  + CatalogService.brands: not in the manifest",
        "  - CatalogService.categories: no longer in the source",
        '  ~ CatalogService.search: parameters (query, sort) → (query, sort, limit); parameter "sort": schema',
        "Run `npx toolnexus generate` and commit the manifest.",
      ].join("\n"),
    );
    // --check never writes.
    expect(readFileSync(join(fixtures, "stale", "toolnexus.manifest.json"), "utf8")).toContain(
      '"CatalogService.categories"',
    );
  });

  it("a broken type exits 2 with file:line:col errors, writes nothing, and lists the errors with --json", async () => {
    const out = join(scratch(), "never.json");
    const run = await runBin(["generate", "-p", fixtureProject("broken"), "-o", out, "--json", "--quiet"]);
    expect(run.code).toBe(2);
    expect(existsSync(out)).toBe(false);
    const lines = run.stderr.trimEnd().split("\n");
    expect(lines).toHaveLength(4);
    expect(lines[0]).toMatch(
      /^test\/fixtures\/generate\/broken\/src\/hooks\.ts:19:7: HooksService\.run, parameter 0 \("callback"\): it has type "\(\) => void": a function/,
    );
    expect(lines[1]).toMatch(
      /^test\/fixtures\/generate\/broken\/src\/hooks\.ts:25:9: HooksService\.watch, parameter 0 \("options"\): its property "onChange"/,
    );
    expect(lines[2]).toMatch(
      /^test\/fixtures\/generate\/broken\/src\/hooks\.ts:31:21: HooksService\.tag, parameter 0 \("key"\): it has type "symbol"/,
    );
    expect(lines[3]).toBe("toolnexus generate: failed with 3 errors; nothing was written.");
    const summary = JSON.parse(run.stdout);
    expect(summary).toMatchObject({ ok: false, mode: "generate" });
    expect(
      summary.errors.map(
        (e: { file: string; line: number; column: number; className: string; method: string; parameter: string }) => [
          e.line,
          e.column,
          e.className,
          e.method,
          e.parameter,
        ],
      ),
    ).toEqual([
      [19, 7, "HooksService", "run", "callback"],
      [25, 9, "HooksService", "watch", "options"],
      [31, 21, "HooksService", "tag", "key"],
    ]);
  });

  it("defaults: tsconfig.json in the working directory, the manifest next to it; --check passes, then fails after an edit", async () => {
    const dir = tempProject({
      "src/tools.ts": `import { Tool } from "toolnexus";\nexport class Tools {\n  /** Echoes. */\n  @Tool()\n  echo(text: string) { return text; }\n}\n`,
    });
    made.push(dir);
    const first = await runBin(["generate", "--quiet"], dir);
    expect(first).toEqual({ code: 0, stdout: "", stderr: "" });
    const manifest = JSON.parse(readFileSync(join(dir, "toolnexus.manifest.json"), "utf8"));
    expect(Object.keys(manifest.tools)).toEqual(["Tools.echo"]);

    const fresh = await runBin(["generate", "--check"], dir);
    expect(fresh.code).toBe(0);
    expect(fresh.stderr).toMatch(
      /toolnexus generate: toolnexus\.manifest\.json is up to date \(1 tools\) in [\d.]+ m?s\n$/,
    );

    writeFileSync(
      join(dir, "src/tools.ts"),
      readFileSync(join(dir, "src/tools.ts"), "utf8").replace(
        "echo(text: string)",
        "echo(text: string, times?: number)",
      ),
    );
    const stale = await runBin(["generate", "--check", "--quiet"], dir);
    expect(stale.code).toBe(1);
    expect(stale.stderr).toContain("  ~ Tools.echo: parameters (text) → (text, times)");

    const again = await runBin(["generate"], dir);
    expect(again.code).toBe(0);
    expect(again.stderr).toMatch(/wrote toolnexus\.manifest\.json \(1 tools\)/);
    const unchanged = await runBin(["generate"], dir);
    expect(unchanged.stderr).toMatch(/unchanged: toolnexus\.manifest\.json \(1 tools\)/);
  });

  it("--project may name the directory; --out may name a directory that does not exist yet; no tools is a warning", async () => {
    const dir = tempProject({ "src/plain.ts": "export const answer = 42;\n" });
    made.push(dir);
    const run = await runBin(["generate", "--project", dir, "--out", "build/out/manifest.json", "--json"], dir);
    expect(run.code).toBe(0);
    const summary = JSON.parse(run.stdout);
    expect(summary).toMatchObject({ ok: true, written: true, tools: 0, files: 1 });
    expect(summary.warnings).toEqual([
      `found no @Tool methods in the 1 source files of ${join(dir, "tsconfig.json")} (the tsconfig's "include"/"files"): is it the right project?`,
    ]);
    expect(run.stderr).toContain("toolnexus generate: warning: found no @Tool methods");
    expect(JSON.parse(readFileSync(join(dir, "build/out/manifest.json"), "utf8")).tools).toEqual({});
  });

  it("--watch cannot be combined with --check or --json", async () => {
    for (const [other, outcome] of [
      ["--check", "the manifest was not checked"],
      ["--json", "nothing was written"],
    ]) {
      const run = await runBin(["generate", "--watch", other!, "-p", fixtureProject("types")]);
      expect(run.code).toBe(2);
      expect(run.stderr).toBe(
        `toolnexus generate: --watch rewrites the manifest as files change; it cannot be combined with ${other}.\ntoolnexus generate: failed with 1 error; ${outcome}.\n`,
      );
    }
  });

  it("a missing tsconfig exits 2 saying where it looked", async () => {
    const dir = scratch();
    const run = await runBin(["generate"], dir);
    expect(run.code).toBe(2);
    expect(run.stderr).toBe(
      `toolnexus generate: there is no tsconfig.json in ${dir}. Point at the project's tsconfig with --project <path>.\ntoolnexus generate: failed with 1 error; nothing was written.\n`,
    );
  });
});
