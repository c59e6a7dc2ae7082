/**
 * The contract between `npm run bench` (bench/run.ts) and its suites. Each file in
 * bench/suites/ exports `run`; every figure it returns was measured in the same process as
 * its baseline and is reported as a ratio to it.
 */
export interface BenchOptions {
  /** `npm run bench -- --quick`: fewer iterations, CI-sized (the whole run under 60 s). */
  quick: boolean;
}

export interface BenchRow {
  /** The suite's name, e.g. "hot path". */
  suite: string;
  /** What was measured, e.g. "Toolkit.execute, valid args". */
  case: string;
  /** toolnexus's figure in `unit` (e.g. mean ns per call, ms, bytes per tool). */
  value: number;
  /** What it is compared with, e.g. "direct method call". */
  baseline: string;
  baselineValue: number;
  unit: string;
  /** value / baselineValue. */
  ratio: number;
  /** The target this row is held to, in words, and whether it was met. */
  target?: string;
  met?: boolean;
}

export type BenchSuite = (options: BenchOptions) => Promise<BenchRow[]>;
