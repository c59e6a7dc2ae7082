/**
 * The unit project runs in the test process alone: no child process (no CLI, no build, no
 * npm, no redis-server). A test that starts one fails here with what to do, so the inner loop
 * stays fast and needs nothing installed beyond node_modules.
 */
import childProcess from "node:child_process";
import { UNIT_TIMEOUT_MS } from "../time";

jest.setTimeout(UNIT_TIMEOUT_MS);

const STARTERS = ["spawn", "spawnSync", "exec", "execSync", "execFile", "execFileSync", "fork"] as const;
type Starter = (typeof STARTERS)[number];

// Core modules are one object per worker process, shared by every test file it runs (unit and
// integration alike): the starters are put back after this file's tests.
const originals = new Map<Starter, unknown>(STARTERS.map((name) => [name, childProcess[name]]));
const refuse = (name: Starter) =>
  function refusedInUnitTests(command: unknown): never {
    throw new Error(
      `child_process.${name}(${JSON.stringify(String(command))}) in a unit test: tests that start processes (the CLI, npm, tsc, redis-server, the built package) ` +
        "belong to the integration project. Name the file *.integration.test.ts.",
    );
  };
for (const name of STARTERS) Object.assign(childProcess, { [name]: refuse(name) });
afterAll(() => {
  for (const [name, original] of originals) Object.assign(childProcess, { [name]: original });
});
