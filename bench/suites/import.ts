/**
 * Import cost: what loading toolnexus adds to a Node process, against loading Ajv alone (the
 * one library every toolnexus call needs). Each figure is a cold child process
 * (`node -e '…'`, or the CLI's `--help`), the cases alternating round by round in a rotating order so that a
 * busy machine slows each alike; a case's cost is its median wall time minus bare `node -e ""`.
 * toolnexus is the built package (dist/, as installed), required and imported by absolute path.
 */
import { spawnSync } from "node:child_process";
import * as fs from "node:fs";
import * as path from "node:path";
import { median, row } from "../harness";
import type { BenchRow, BenchSuite } from "../types";

const root = path.resolve(__dirname, "../..");
const cjsEntry = path.join(root, "dist/cjs/index.js");
const esmEntry = path.join(root, "dist/esm/index.mjs");
const cliMain = path.join(root, "dist/cjs/cli/main.js");

/** Each case's `node` arguments. */
const CASES = {
  bare: ["-e", ""],
  ajv: ["-e", 'require("ajv")'],
  requireToolnexus: ["-e", `require(${JSON.stringify(cjsEntry)})`],
  importToolnexus: ["-e", `import(${JSON.stringify(esmEntry)})`],
  help: [cliMain, "--help"],
} as const;
type Case = keyof typeof CASES;

/** Wall time of one cold `node <args>`, in ms; a child that fails fails the suite. */
function coldRun(args: readonly string[]): number {
  const started = process.hrtime.bigint();
  const child = spawnSync(process.execPath, args, { cwd: root, encoding: "utf8" });
  const elapsed = Number(process.hrtime.bigint() - started) / 1e6;
  if (child.status !== 0)
    throw new Error(`node ${JSON.stringify(args)} failed (exit ${child.status}): ${child.stderr}`);
  return elapsed;
}

export const run: BenchSuite = async (options) => {
  for (const entry of [cjsEntry, esmEntry, cliMain]) {
    if (!fs.existsSync(entry))
      throw new Error(`${entry} is missing: run \`npm run build\` (npm run bench does it first).`);
  }
  const rounds = options.quick ? 12 : 40;
  const names = Object.keys(CASES) as Case[];
  const times = Object.fromEntries(names.map((name) => [name, [] as number[]])) as Record<Case, number[]>;
  for (let round = 0; round < rounds; round++) {
    for (let i = 0; i < names.length; i++) {
      const name = names[(round + i) % names.length]!;
      times[name].push(coldRun(CASES[name]));
    }
  }
  const bare = median(times.bare);
  const cost = (name: Case) => median(times[name]) - bare;
  const suite = "import";
  const unit = "ms";
  const baseline = `require("ajv"), cost over bare node (${bare.toFixed(0)} ms)`;
  const target = { text: "≤ 1.5× Ajv's", maxRatio: 1.5 };
  const rows: BenchRow[] = [
    row(
      {
        suite,
        case: `require("toolnexus"), cost over bare node (median of ${rounds} cold processes)`,
        value: cost("requireToolnexus"),
        baseline,
        baselineValue: cost("ajv"),
        unit,
      },
      target,
    ),
    row(
      {
        suite,
        case: `import("toolnexus"), cost over bare node (median of ${rounds} cold processes)`,
        value: cost("importToolnexus"),
        baseline,
        baselineValue: cost("ajv"),
        unit,
      },
      target,
    ),
    row(
      {
        suite,
        case: `toolnexus --help, wall time (median of ${rounds} cold processes)`,
        value: median(times.help),
        baseline: 'bare node -e ""',
        baselineValue: bare,
        unit,
      },
      { text: "< 500 ms", maxValue: 500 },
    ),
  ];
  return rows;
};
