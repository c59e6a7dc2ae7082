/**
 * Every wait of the suite derives from one number: TOOLNEXUS_TEST_TIME_SCALE (1 by default),
 * how many times slower than an idle 2-core machine this run may be. The limits below hold with
 * room to spare at 1, and with two CPU-bound processes beside the suite; a slower machine or a
 * heavier load raises the scale instead of editing any test.
 */
const declared = process.env.TOOLNEXUS_TEST_TIME_SCALE;
const scale = declared === undefined || declared === "" ? 1 : Number(declared);
if (!Number.isFinite(scale) || scale <= 0) {
  throw new Error(
    `TOOLNEXUS_TEST_TIME_SCALE must be a positive number (how many times slower than an idle machine this run may be), not ${JSON.stringify(declared)}.`,
  );
}

/** `idleMs` of waiting, as long as this run may need it: for waits that must not run out (never for a wait a test expects to run out). */
export const patience = (idleMs: number): number => Math.round(idleMs * scale);

/** How long a unit test or hook may take before it counts as hung. */
export const UNIT_TIMEOUT_MS = patience(30_000);

/** How long a test or hook of the properties and integration projects may take (generated cases by the thousand, child processes, installs, builds, real servers). */
export const LONG_TIMEOUT_MS = 10 * UNIT_TIMEOUT_MS;
