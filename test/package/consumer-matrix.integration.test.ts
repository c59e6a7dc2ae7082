/**
 * The packed toolnexus with the `latest` release of every optional peer and integration, in
 * one fresh project installed by npm under the newest tested Node: the install must succeed as
 * a user runs it (no --force, no --legacy-peer-deps: no ERESOLVE, no EBADENGINE), toolnexus's
 * peer ranges must accept each latest release, and each integration's smallest real use must
 * work, on that Node. The first file to fail when a peer moves on.
 */
import { MATRIX_PACKAGES } from "./consumers/matrix-packages";
import { matrixProject } from "./consumers/matrix-project";
import { itRunsEachUse } from "./consumers/matrix-runs";
import { startMatrixServices, type MatrixServices } from "./consumers/matrix-services";
import { inRange } from "./consumers/machine-npm";
import { versionTable } from "./consumers/version-table";

// Installed while jest collects this file: the titles below name what npm resolved.
const matrix = matrixProject();
const node = matrix.npmNode;
console.log(versionTable(matrix));

let services: MatrixServices;
beforeAll(async () => {
  services = await startMatrixServices();
});
afterAll(async () => {
  await services?.close();
  matrix.remove();
});

describe(`the packed toolnexus with the latest release of each optional peer and integration, on Node ${node.version}`, () => {
  it(`installs with npm under Node ${node.version} as a user runs it, without --force or --legacy-peer-deps: no ERESOLVE, no EBADENGINE`, () => {
    const { install, fallbackInstall } = matrix;
    const printed = `${install.output}${fallbackInstall?.output ?? ""}`;
    if (install.code !== 0)
      throw new Error(
        `${install.commandLine} exited with ${install.code} (the uses below ran on an install with ` +
          `--legacy-peer-deps instead):\n${install.output}`,
      );
    expect(printed).not.toMatch(/\bERESOLVE\b/);
    expect(printed.split("\n").filter((line) => /\bEBADENGINE\b/.test(line))).toEqual([]);
  });

  it("installs the release each package's latest dist-tag points to", () => {
    const installed = Object.fromEntries(Object.keys(matrix.latest).map((name) => [name, matrix.versionOf(name)]));
    expect(installed).toEqual(matrix.latest);
  });

  it("gives every latest release a peer range of toolnexus's package.json that accepts it", () => {
    const toolnexus = matrix.installed.get("toolnexus");
    const refused = Object.entries(toolnexus.peers)
      .filter(([name, range]) => !inRange(matrix.versionOf(name), range))
      .map(([name, range]) => `${name} ${matrix.versionOf(name)} is outside toolnexus's peer range "${range}"`);
    expect(refused).toEqual([]);
  });

  it("installs every peer toolnexus's package.json names (a new peer joins the matrix)", () => {
    const peers = Object.keys(matrix.installed.get("toolnexus").peers);
    expect(peers.filter((peer) => !(MATRIX_PACKAGES as readonly string[]).includes(peer))).toEqual([]);
  });

  itRunsEachUse(matrix, node, () => services);
});
