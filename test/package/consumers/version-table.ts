import type { MatrixProject } from "./matrix-project";
import { MATRIX_PACKAGES } from "./matrix-packages";

/**
 * The versions npm installed for the matrix, as a table for the test's output: each package's
 * version, the Node versions its engines accept, and the range toolnexus's package.json gives it
 * as a peer (where it is one).
 */
export function versionTable(matrix: MatrixProject): string {
  const toolnexus = matrix.installed.get("toolnexus");
  const rows = [
    ["package", "installed", "engines.node", "toolnexus peer range"],
    ["toolnexus (packed)", toolnexus.version, toolnexus.node ?? "", ""],
    ...MATRIX_PACKAGES.map((name) => {
      const installed = matrix.installed.get(name);
      return [name, installed.version, installed.node ?? "", toolnexus.peers[name] ?? ""];
    }),
  ];
  const widths = rows[0]!.map((_, column) => Math.max(...rows.map((row) => row[column]!.length)));
  const line = (row: string[]) =>
    row
      .map((cell, column) => cell.padEnd(widths[column]!))
      .join("  ")
      .trimEnd();
  const install =
    matrix.fallbackInstall === undefined
      ? ""
      : "; the uses run on an install with --legacy-peer-deps (ERESOLVE without it)";
  return [
    `The consumer matrix, installed by npm under Node ${matrix.npmNode.version}${install}:`,
    line(rows[0]!),
    line(widths.map((width) => "-".repeat(width))),
    ...rows.slice(1).map(line),
  ].join("\n");
}
