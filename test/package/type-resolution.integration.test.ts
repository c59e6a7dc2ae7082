import { execFile } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { promisify } from "node:util";
import { entryPoints, packageRoot, packInto } from "./consumers/package-under-test";

interface Resolution {
  resolution?: { fileName: string } | null;
}

interface AttwReport {
  problems: Record<string, unknown[]>;
  analysis: { problems: unknown[]; entrypoints: Record<string, { resolutions: Record<string, Resolution> }> };
}

// arethetypeswrong on the packed package: every entry point has types under node10, node16
// (from CommonJS and from ES modules) and bundler resolution, and they describe the module
// Node loads there (ESM types for the `import` condition, CommonJS types for `require`).
describe("the packed package's types (arethetypeswrong)", () => {
  let report: AttwReport;
  const packed = mkdtempSync(join(tmpdir(), "toolnexus-attw-"));
  beforeAll(async () => {
    const attw = join(packageRoot, "node_modules", ".bin", "attw");
    const tarball = await packInto(packed);
    // attw exits 1 when it finds a problem; the report still comes on stdout and the tests below read it.
    const { stdout } = await promisify(execFile)(attw, [tarball, "--format", "json"], {
      cwd: packageRoot,
      encoding: "utf8",
      maxBuffer: 64 * 1024 * 1024,
    }).catch((error: { stdout?: string }) => ({ stdout: error.stdout ?? "" }));
    report = JSON.parse(stdout) as AttwReport;
  });
  afterAll(() => rmSync(packed, { recursive: true, force: true }));

  it("finds no problems", () => {
    expect(report.analysis.problems).toEqual([]);
    expect(report.problems).toEqual({});
  });

  it.each(entryPoints)("%s resolves to declarations in every mode, ES module types from ESM", (specifier) => {
    const subpath = specifier.includes("/") ? `./${specifier.split("/").slice(1).join("/")}` : ".";
    const resolutions = report.analysis.entrypoints[subpath]?.resolutions ?? {};
    expect(Object.keys(resolutions).sort()).toEqual(["bundler", "node10", "node16-cjs", "node16-esm"]);
    for (const { resolution } of Object.values(resolutions)) expect(resolution?.fileName).toMatch(/\.d\.m?ts$/);
    expect(resolutions["node16-esm"]?.resolution?.fileName).toMatch(/\.d\.mts$/);
    expect(resolutions["node16-cjs"]?.resolution?.fileName).toMatch(/\.d\.ts$/);
  });
});
