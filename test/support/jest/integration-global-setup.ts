/**
 * Once per run of the integration project: the built package packed once (every package and
 * consumer test installs or reads that one tarball), and one redis-server per jest worker
 * (the queue suites share their worker's, emptied for each file). Both are skipped, and the
 * tests that need them say what is missing, when dist/ is not built or redis-server is not
 * installed.
 */
import { existsSync, mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { npmPack, PACKED_FILES, PACKED_TARBALL } from "../../package/consumers/package-under-test";
import { isBuilt } from "../built-package";
import { startRedisServer, WORKER_REDIS_PORTS, type RedisServer } from "../redis-server";

/** What integration-global-teardown.ts stops (the two run in jest's main process). */
export interface RunResources {
  packDirectory?: string;
  redisServers: RedisServer[];
}

const resources: RunResources = { redisServers: [] };
(globalThis as { toolnexusTestResources?: RunResources }).toolnexusTestResources = resources;

async function packOnce(): Promise<void> {
  if (!isBuilt()) return;
  const directory = mkdtempSync(join(tmpdir(), "toolnexus-pack-"));
  resources.packDirectory = directory;
  const packed = await npmPack(["--pack-destination", directory]);
  const filesList = join(directory, "files.json");
  writeFileSync(filesList, JSON.stringify(packed.files.map((file) => file.path)));
  process.env[PACKED_TARBALL] = join(directory, packed.filename);
  process.env[PACKED_FILES] = filesList;
}

async function redisPerWorker(workers: number): Promise<void> {
  const onPath = process.env.PATH?.split(":").some(
    (directory) => directory !== "" && existsSync(join(directory, "redis-server")),
  );
  if (!onPath) return;
  resources.redisServers = await Promise.all(Array.from({ length: workers }, () => startRedisServer()));
  process.env[WORKER_REDIS_PORTS] = resources.redisServers.map((server) => server.port).join(",");
}

/** Jest calls it with the run's global config (of which only the worker count matters here). */
export default async function setup(globalConfig: { maxWorkers: number }): Promise<void> {
  await Promise.all([packOnce(), redisPerWorker(Math.max(1, globalConfig.maxWorkers))]);
}
