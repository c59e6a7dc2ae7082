/**
 * The unit and properties projects run in the test process alone: no child process (no CLI, no
 * build, no npm, no redis-server) and no server listening on a port (no HTTP server, no mock
 * provider API). A test that starts either fails here with what to do, so the inner loop stays
 * fast and needs nothing installed beyond node_modules.
 */
import childProcess from "node:child_process";
import net from "node:net";

const MOVE = "belong to the integration project: name the file *.integration.test.ts.";

const STARTERS = ["spawn", "spawnSync", "exec", "execSync", "execFile", "execFileSync", "fork"] as const;

// Core modules are one object per worker process, shared by every test file it runs (of every
// project): what is replaced here is put back after this file's tests.
const originalStarters = STARTERS.map((name) => [name, childProcess[name]] as const);
const originalListen = net.Server.prototype.listen;

for (const name of STARTERS) {
  Object.assign(childProcess, {
    [name]: function refusedInProcessOnly(command: unknown): never {
      throw new Error(
        `child_process.${name}(${JSON.stringify(String(command))}) in an in-process test: tests that start processes (the CLI, npm, tsc, redis-server) ${MOVE}`,
      );
    },
  });
}
net.Server.prototype.listen = function refusedInProcessOnly(): never {
  throw new Error(
    `A server listening on a port in an in-process test: tests that serve over HTTP (MCP servers, mock provider APIs) ${MOVE}`,
  );
};

afterAll(() => {
  for (const [name, original] of originalStarters) Object.assign(childProcess, { [name]: original });
  net.Server.prototype.listen = originalListen;
});
