/** Stops what the integration project's global setup started. */
import { rmSync } from "node:fs";
import type { RunResources } from "./integration-global-setup";

export default async function teardown(): Promise<void> {
  const resources = (globalThis as { toolnexusTestResources?: RunResources }).toolnexusTestResources;
  if (resources === undefined) return;
  await Promise.all(resources.redisServers.map((server) => server.stop()));
  if (resources.packDirectory !== undefined) rmSync(resources.packDirectory, { recursive: true, force: true });
}
