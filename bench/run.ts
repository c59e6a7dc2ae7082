/**
 * `npm run bench [-- --quick] [-- --only <suite-file>]`: runs every bench/suites/*.ts (each
 * exports `run: BenchSuite`), prints one table of ratios against each baseline, and writes
 * bench/results.json. Targets that are missed are printed as missed; the run still succeeds.
 * A suite that throws fails the run (exit code 1) after the others have run.
 */
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import type { BenchRow, BenchSuite } from "./types";

const SUITES_DIR = path.join(__dirname, "suites");
const RESULTS_FILE = path.join(__dirname, "results.json");

interface Machine {
  node: string;
  v8: string;
  cpu: string;
  cores: number;
  memoryGiB: number;
  platform: string;
  loadAverage: number[];
}

function machine(): Machine {
  const cpus = os.cpus();
  return {
    node: process.version,
    v8: process.versions.v8,
    cpu: cpus[0]?.model.trim() ?? "unknown",
    cores: cpus.length,
    memoryGiB: Math.round((os.totalmem() / 2 ** 30) * 10) / 10,
    platform: `${os.platform()} ${os.release()} ${os.arch()}`,
    loadAverage: os.loadavg().map((n) => Math.round(n * 100) / 100),
  };
}

function parseArgs(argv: string[]): { quick: boolean; only: string[] } {
  const only: string[] = [];
  let quick = false;
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i]!;
    if (arg === "--quick") quick = true;
    else if (arg === "--only") only.push(argv[++i] ?? "");
    else if (arg.startsWith("--only=")) only.push(arg.slice("--only=".length));
    else throw new Error(`Unknown option ${arg}. Usage: npm run bench [-- --quick] [-- --only hot-path]`);
  }
  return { quick, only };
}

function suiteFiles(only: string[]): string[] {
  const files = fs
    .readdirSync(SUITES_DIR)
    .filter((file) => file.endsWith(".ts") && !file.endsWith(".d.ts"))
    .sort();
  const picked =
    only.length === 0 ? files : files.filter((file) => only.some((name) => file === name || file === `${name}.ts`));
  if (picked.length === 0) throw new Error(`No bench suite matches ${only.join(", ")}; suites: ${files.join(", ")}`);
  return picked.map((file) => path.join(SUITES_DIR, file));
}

function formatValue(value: number, unit: string): string {
  if (!Number.isFinite(value)) return String(value);
  const abs = Math.abs(value);
  const digits = abs >= 100 ? 0 : abs >= 10 ? 1 : abs >= 1 ? 2 : 3;
  return `${value.toLocaleString("en-US", { minimumFractionDigits: digits, maximumFractionDigits: digits })} ${unit}`;
}

function formatRatio(ratio: number): string {
  if (!Number.isFinite(ratio)) return String(ratio);
  return `${ratio >= 10 ? ratio.toFixed(1) : ratio >= 0.1 ? ratio.toFixed(2) : ratio.toFixed(3)}×`;
}

/** A plain-text table (also valid Markdown) so the README can hold it as printed. */
export function renderTable(rows: BenchRow[]): string {
  const header = ["suite", "case", "toolnexus", "baseline", "baseline value", "ratio", "target", "met"];
  const body = rows.map((r) => [
    r.suite,
    r.case,
    formatValue(r.value, r.unit),
    r.baseline,
    formatValue(r.baselineValue, r.unit),
    formatRatio(r.ratio),
    r.target ?? "",
    r.met === undefined ? "" : r.met ? "yes" : "NO",
  ]);
  const widths = header.map((h, i) => Math.max(h.length, ...body.map((cells) => cells[i]!.length)));
  const line = (cells: string[]) => `| ${cells.map((cell, i) => cell.padEnd(widths[i]!)).join(" | ")} |`;
  return [line(header), `|${widths.map((w) => "-".repeat(w + 2)).join("|")}|`, ...body.map(line)].join("\n");
}

async function main(): Promise<void> {
  const { quick, only } = parseArgs(process.argv.slice(2));
  const started = performance.now();
  const host = machine();
  console.log(`toolnexus bench${quick ? " (--quick)" : ""} — ${new Date().toISOString()}`);
  console.log(
    `node ${host.node} (V8 ${host.v8}) · ${host.cpu} · ${host.cores} cores · ${host.memoryGiB} GiB · ${host.platform} · load ${host.loadAverage.join(" ")}`,
  );

  const rows: BenchRow[] = [];
  const failures: Array<{ suite: string; error: string }> = [];
  for (const file of suiteFiles(only)) {
    const name = path.basename(file, ".ts");
    const suiteStarted = performance.now();
    process.stdout.write(`running ${name} ... `);
    try {
      const suite = (require(file) as { run?: BenchSuite }).run;
      if (typeof suite !== "function") throw new Error(`${name}.ts does not export run: BenchSuite`);
      const produced = await suite({ quick });
      rows.push(...produced);
      console.log(`${produced.length} rows in ${((performance.now() - suiteStarted) / 1000).toFixed(1)} s`);
    } catch (error) {
      const message = error instanceof Error ? (error.stack ?? error.message) : String(error);
      failures.push({ suite: name, error: message });
      console.log(`FAILED\n${message}`);
    }
  }

  console.log("");
  console.log(renderTable(rows));
  const missed = rows.filter((r) => r.met === false);
  const seconds = (performance.now() - started) / 1000;
  console.log("");
  console.log(
    `ratio = toolnexus / baseline (below 1 = toolnexus is faster or smaller). ` +
      `${rows.filter((r) => r.met !== undefined).length - missed.length} of ${rows.filter((r) => r.met !== undefined).length} targets met` +
      `${missed.length ? `; missed: ${missed.map((r) => `${r.case} vs ${r.baseline}`).join("; ")}` : ""}. Total ${seconds.toFixed(1)} s.`,
  );

  fs.writeFileSync(
    RESULTS_FILE,
    `${JSON.stringify({ date: new Date().toISOString(), quick, durationSeconds: Math.round(seconds * 10) / 10, machine: host, rows, failures }, null, 2)}\n`,
  );
  console.log(`wrote ${path.relative(process.cwd(), RESULTS_FILE)}`);
  if (failures.length > 0) {
    console.error(`${failures.length} suite(s) failed: ${failures.map((f) => f.suite).join(", ")}`);
    process.exitCode = 1;
  }
}

main().catch((error) => {
  console.error(error);
  process.exitCode = 1;
});
