import type { ManifestParameter, ManifestTool, ToolnexusManifest } from "../manifest/types";

export interface ToolChange {
  /** `Class.method`. */
  key: string;
  /** The tool's name (from the fresh manifest when there is one). */
  tool?: string;
  change: "added" | "removed" | "changed";
  /** For "changed": what differs, e.g. `parameter "days": schema`, `description`, `output`. */
  details: string[];
}

export interface ManifestComparison {
  upToDate: boolean;
  /** Why it is not up to date, as a whole (missing, unreadable, other format), when that is the reason. */
  reason?: string;
  changes: ToolChange[];
}

/**
 * Compares the manifest on disk (`existingText`, undefined when there is none) with what
 * generation produces now. Up to date means byte-identical; otherwise every tool that was
 * added, removed or changed is named with what changed.
 */
export function compareManifests(
  existingText: string | undefined,
  fresh: ToolnexusManifest,
  freshText: string,
): ManifestComparison {
  if (existingText === undefined)
    return {
      upToDate: false,
      reason: "there is no manifest yet",
      changes: toolsOf(fresh).map(([key, tool]) => added(key, tool)),
    };
  // A checkout may have turned the line endings into CRLF: that is not a change.
  if (existingText.replace(/\r\n/g, "\n") === freshText) return { upToDate: true, changes: [] };
  let existing: unknown;
  try {
    existing = JSON.parse(existingText);
  } catch {
    return { upToDate: false, reason: "the manifest is not valid JSON", changes: [] };
  }
  const old = existing as Partial<ToolnexusManifest> | null;
  if (
    typeof old !== "object" ||
    old === null ||
    old.manifestVersion !== fresh.manifestVersion ||
    typeof old.tools !== "object" ||
    old.tools === null
  ) {
    return {
      upToDate: false,
      reason: `the manifest is not a version ${fresh.manifestVersion} toolnexus manifest`,
      changes: [],
    };
  }
  const changes: ToolChange[] = [];
  const before = old.tools as Record<string, ManifestTool>;
  for (const [key, tool] of toolsOf(fresh)) {
    if (!Object.prototype.hasOwnProperty.call(before, key)) changes.push(added(key, tool));
    else {
      const details = toolDifferences(before[key]!, tool);
      if (details.length > 0)
        changes.push({ key, ...(tool.name !== undefined ? { tool: tool.name } : {}), change: "changed", details });
    }
  }
  for (const key of Object.keys(before)) {
    if (!Object.prototype.hasOwnProperty.call(fresh.tools, key)) {
      const name = before[key]?.name;
      changes.push({ key, ...(typeof name === "string" ? { tool: name } : {}), change: "removed", details: [] });
    }
  }
  changes.sort((a, b) => (a.key < b.key ? -1 : a.key > b.key ? 1 : 0));
  return changes.length > 0
    ? { upToDate: false, changes }
    : { upToDate: false, reason: "the file differs from what toolnexus generate writes (edited by hand?)", changes };
}

function toolsOf(manifest: ToolnexusManifest): Array<[string, ManifestTool]> {
  return Object.entries(manifest.tools);
}

function added(key: string, tool: ManifestTool): ToolChange {
  return { key, ...(tool.name !== undefined ? { tool: tool.name } : {}), change: "added", details: [] };
}

function toolDifferences(before: ManifestTool, after: ManifestTool): string[] {
  const details: string[] = [];
  if (before.name !== after.name) details.push("name");
  if (before.description !== after.description) details.push("description");
  if (before.file !== after.file) details.push("file");
  if (before.compiledFile !== after.compiledFile) details.push("compiledFile");
  const old = Array.isArray(before.parameters) ? before.parameters : [];
  const now = after.parameters;
  const reshaped =
    old.length !== now.length || old.some((p, i) => p?.kind !== now[i]!.kind || p?.name !== now[i]!.name);
  if (reshaped) details.push(`parameters (${old.map(label).join(", ")}) → (${now.map(label).join(", ")})`);
  now.forEach((parameter, index) => {
    // The same parameter: at the same position, or (when the list changed) by name.
    const previous = (
      reshaped
        ? old.find((p) => p?.kind === parameter.kind && p?.name !== undefined && p.name === parameter.name)
        : old[index]
    ) as Record<string, unknown> | undefined;
    if (previous === undefined) return;
    const fields = (["optional", "convert", "className", "schema"] as const).filter(
      (field) => !same(previous[field], (parameter as Record<string, unknown>)[field]),
    );
    if (fields.length > 0)
      details.push(`parameter ${parameter.name !== undefined ? `"${parameter.name}"` : index}: ${fields.join(", ")}`);
  });
  if (!same(before.output, after.output)) details.push("output");
  if (details.length === 0 && before.hash !== after.hash)
    details.push("its sources changed (hash), the generated entry did not");
  return details;
}

function label(parameter: ManifestParameter | undefined): string {
  if (parameter?.kind === "ctx") return "@Ctx";
  if (parameter?.kind === "args") return "@Args";
  return parameter?.name ?? "?";
}

function same(a: unknown, b: unknown): boolean {
  return JSON.stringify(a) === JSON.stringify(b);
}
