/**
 * Shared measuring for the suites (not a suite itself). Every case of a comparison runs in the
 * same process, interleaved round by round (A B C D, A B C D, ...), so drift on a busy machine
 * hits every case alike; a case's figure is the median over rounds of its per-call median.
 */
import { spawn } from "node:child_process";
import * as path from "node:path";
import type { BenchOptions, BenchRow } from "./types";

/** One operation of a comparison; awaited, whether or not it returns a promise. */
export type Operation = () => unknown;

export interface CompareSettings {
  /** Calls per tinybench sample: amortizes the harness's own await and timer reads. */
  batch: number;
  /** tinybench time per case per round, ms. */
  time: number;
  warmupTime: number;
  rounds: number;
}

export function settingsFor(options: BenchOptions): CompareSettings {
  return options.quick
    ? { batch: 100, time: 200, warmupTime: 50, rounds: 3 }
    : { batch: 100, time: 800, warmupTime: 200, rounds: 5 };
}

let keep: unknown;

/** Mean ns per call of each case: the median over rounds of the per-sample median. */
export async function compare(
  cases: Record<string, Operation>,
  settings: CompareSettings,
): Promise<Record<string, number>> {
  // tinybench is ESM-only; this file is CommonJS (the package has no "type": "module").
  const { Bench } = await import("tinybench");
  const perRound: Record<string, number[]> = Object.fromEntries(Object.keys(cases).map((name) => [name, []]));
  for (let round = 0; round < settings.rounds; round++) {
    const bench = new Bench({
      time: settings.time,
      warmupTime: settings.warmupTime,
      warmupIterations: 5,
      iterations: 10,
      throws: true,
    });
    for (const [name, op] of Object.entries(cases)) {
      const { batch } = settings;
      bench.add(name, async () => {
        for (let i = 0; i < batch; i++) keep = await op();
      });
    }
    await bench.run();
    for (const task of bench.tasks) {
      const result = task.result;
      if (result.state !== "completed") {
        throw new Error(
          `bench case "${task.name}" did not complete: ${result.state === "errored" ? result.error.message : result.state}`,
        );
      }
      perRound[task.name]!.push((result.latency.p50 * 1e6) / settings.batch); // ms per sample → ns per call
    }
  }
  void keep;
  return Object.fromEntries(Object.entries(perRound).map(([name, values]) => [name, median(values)]));
}

export function median(values: readonly number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = sorted.length >> 1;
  return sorted.length % 2 === 1 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
}

/**
 * A row with its ratio computed. A target is met when the ratio is at most `maxRatio`, or the
 * value at most `maxValue`; a row without a target has no `met`.
 */
export function row(
  fields: Omit<BenchRow, "ratio" | "met" | "target">,
  target?: { text: string; maxRatio: number } | { text: string; maxValue: number },
): BenchRow {
  const ratio = fields.value / fields.baselineValue;
  if (target === undefined) return { ...fields, ratio };
  const met = "maxRatio" in target ? ratio <= target.maxRatio : fields.value <= target.maxValue;
  return { ...fields, ratio, target: target.text, met };
}

/**
 * Runs `file` (a suite) in a fresh Node process as `node <flags> -r ts-node/register <file>
 * --child <args>` and returns the JSON it prints on its last stdout line. For measurements a
 * warm process cannot make: a true cold start, or heap figures with `--expose-gc`.
 */
export function runChild<T>(file: string, args: string[], nodeFlags: string[] = []): Promise<T> {
  return new Promise((resolve, reject) => {
    const child = spawn(
      process.execPath,
      [...nodeFlags, "-r", require.resolve("ts-node/register"), file, "--child", ...args],
      {
        cwd: path.resolve(__dirname, ".."),
        env: { ...process.env, TS_NODE_TRANSPILE_ONLY: "true" },
        stdio: ["ignore", "pipe", "pipe"],
      },
    );
    let stdout = "";
    let stderr = "";
    child.stdout.on("data", (chunk: Buffer) => (stdout += chunk.toString()));
    child.stderr.on("data", (chunk: Buffer) => (stderr += chunk.toString()));
    child.on("error", reject);
    child.on("close", (code) => {
      const last = stdout.trim().split("\n").pop() ?? "";
      if (code !== 0)
        return reject(new Error(`${path.basename(file)} child exited with ${code}: ${stderr.trim() || stdout.trim()}`));
      try {
        resolve(JSON.parse(last) as T);
      } catch {
        reject(new Error(`${path.basename(file)} child printed no JSON result: ${stdout.trim()} ${stderr.trim()}`));
      }
    });
  });
}

/** True when this module was started by `runChild`. */
export function isChild(module: NodeModule): boolean {
  return require.main === module && process.argv.includes("--child");
}
