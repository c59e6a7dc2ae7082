import { spawn } from "node:child_process";
import { readFileSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import {
  GenerateError,
  watchManifest,
  type GenerateResult,
  type ManifestWatcher,
  type WatchRun,
} from "../../src/generate";
import { assertBuilt, bin, tempProject } from "./support";
import { patience } from "../support/time";

/**
 * `generate --watch`: the manifest is rewritten after each change, from a program that reuses
 * the unchanged files, regenerating only the entries whose files changed.
 */
const made: string[] = [];
afterAll(() => {
  for (const dir of made) rmSync(dir, { recursive: true, force: true });
});

const SHAPES = `export interface Point {\n  x: number;\n  y: number;\n}\n`;
const GEOMETRY = `import { Tool } from "toolnexus";\nimport type { Point } from "./shapes";\nexport class Geometry {\n  @Tool("Moves.")\n  move(to: Point) {}\n\n  @Tool("Names.")\n  name(label: string) {}\n}\n`;
const CLOCK = `import { Tool } from "toolnexus";\nexport class Clock {\n  @Tool("Tells the time.")\n  now(zone: "utc" | "local" = "utc") {}\n}\n`;

function project(): string {
  const dir = tempProject({
    "src/shapes.ts": SHAPES,
    "src/geometry.ts": GEOMETRY,
    "src/clock.ts": CLOCK,
    "src/other.ts": "export const other = 1;\n",
  });
  made.push(dir);
  return dir;
}

/** Runs of a watcher, awaited one by one. */
function watched(dir: string): { watcher: ManifestWatcher; next: () => Promise<WatchRun> } {
  const runs: WatchRun[] = [];
  let wake: (() => void) | undefined;
  const watcher = watchManifest({
    cwd: dir,
    onRun: (run) => {
      runs.push(run);
      wake?.();
    },
  });
  const next = async () => {
    const deadline = Date.now() + patience(20_000);
    while (runs.length === 0) {
      if (Date.now() > deadline) throw new Error("no run within 20 s of the change");
      await new Promise<void>((resolve) => {
        wake = resolve;
        setTimeout(resolve, 500);
      });
    }
    return runs.shift()!;
  };
  return { watcher, next };
}

const resultOf = (run: WatchRun): GenerateResult => {
  if ("error" in run) throw run.error;
  return run.result;
};

describe("watchManifest", () => {
  it("regenerates only the entries whose files changed and reuses the others", async () => {
    const dir = project();
    const { watcher, next } = watched(dir);
    const edit = (file: string, change: (text: string) => string) =>
      writeFileSync(join(dir, "src", file), change(readFileSync(join(dir, "src", file), "utf8")));
    try {
      const first = resultOf(await next());
      expect(Object.keys(first.manifest.tools)).toEqual(["Clock.now", "Geometry.move", "Geometry.name"]);
      expect(first.stats).toMatchObject({ tools: 3, reused: 0 });

      edit("other.ts", (text) => `${text}export const more = 2;\n`);
      const unrelated = resultOf(await next());
      expect(unrelated.stats).toMatchObject({ tools: 3, reused: 3 });
      expect(unrelated.text).toBe(first.text);

      edit("clock.ts", (text) => text.replace(`"utc" | "local"`, `"utc" | "local" | "tai"`));
      const clock = resultOf(await next());
      expect(clock.stats).toMatchObject({ tools: 3, reused: 2 });
      expect(clock.manifest.tools["Clock.now"]!.parameters[0]).toMatchObject({
        schema: { enum: ["utc", "local", "tai"] },
      });
      expect(clock.manifest.tools["Geometry.move"]).toEqual(first.manifest.tools["Geometry.move"]);

      // Both Geometry entries live in geometry.ts; only Geometry.move reaches shapes.ts.
      edit("shapes.ts", (text) => text.replace("y: number;", "y: number;\n  z?: number;"));
      const shapes = resultOf(await next());
      expect(shapes.stats).toMatchObject({ tools: 3, reused: 2 });
      expect(
        Object.keys(
          (shapes.manifest.tools["Geometry.move"]!.parameters[0] as { schema: { properties: object } }).schema
            .properties,
        ),
      ).toEqual(["x", "y", "z"]);

      edit("geometry.ts", (text) => text.replace("label: string", "label: Missing"));
      const broken = await next();
      expect("error" in broken && broken.error).toBeInstanceOf(GenerateError);
      expect((broken as { error: GenerateError }).error.problems).toEqual([
        { file: "src/geometry.ts", line: 8, column: 15, message: "error TS2304: Cannot find name 'Missing'." },
      ]);

      edit("geometry.ts", (text) => text.replace("label: Missing", "label: string"));
      const fixed = resultOf(await next());
      expect(fixed.manifest.tools).toEqual(shapes.manifest.tools);
    } finally {
      watcher.close();
    }
  });
});

describe("toolnexus generate --watch (the bin)", () => {
  beforeAll(assertBuilt);

  it("rewrites the manifest after a change, one line per rewrite, and ends cleanly on Ctrl-C", async () => {
    const dir = project();
    const manifestPath = join(dir, "toolnexus.manifest.json");
    const child = spawn(process.execPath, [bin, "generate", "--watch"], { cwd: dir });
    let stderr = "";
    child.stderr.on("data", (chunk: Buffer) => (stderr += chunk.toString()));
    const exited = new Promise<number | null>((resolve) => child.on("exit", (code) => resolve(code)));
    const until = async (condition: () => boolean, what: string) => {
      const deadline = Date.now() + patience(30_000);
      while (!condition()) {
        if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}; stderr so far:\n${stderr}`);
        await new Promise((resolve) => setTimeout(resolve, 100));
      }
    };
    try {
      await until(() => stderr.includes("watching for changes"), "the first run");
      const before = readFileSync(manifestPath, "utf8");
      expect(JSON.parse(before).tools["Clock.now"].parameters[0].schema.enum).toEqual(["utc", "local"]);

      writeFileSync(join(dir, "src", "clock.ts"), CLOCK.replace(`"utc" | "local"`, `"local" | "utc"`));
      await until(() => readFileSync(manifestPath, "utf8") !== before, "the manifest to change");
      await until(() => stderr.includes("rewrote"), "the rewrite's line");
      expect(JSON.parse(readFileSync(manifestPath, "utf8")).tools["Clock.now"].parameters[0].schema.enum).toEqual([
        "local",
        "utc",
      ]);

      child.kill("SIGINT");
      expect(await exited).toBe(0);
      const lines = stderr.trimEnd().split("\n");
      expect(lines).toHaveLength(3);
      expect(lines[0]).toMatch(
        /^toolnexus generate: \[[\d:]+\] wrote toolnexus\.manifest\.json \(3 tools\) in [\d.]+ m?s, TypeScript [\d.]+ \(.*\); watching for changes \(Ctrl-C ends\)$/,
      );
      expect(lines[1]).toMatch(
        /^toolnexus generate: \[[\d:]+\] rewrote toolnexus\.manifest\.json \(3 tools, 1 regenerated\) in [\d.]+ m?s$/,
      );
      expect(lines[2]).toBe("toolnexus generate: stopped watching");
    } finally {
      child.kill("SIGKILL");
    }
  });
});
