import { manifestKey } from "../manifest/keys";
import type { ManifestTool } from "../manifest/types";

/** One `@Tool` method's entry, before its key is known. */
export interface KeyedEntry {
  className: string;
  methodName: string;
  tool: ManifestTool;
}

/**
 * The manifest's keys: `ClassName.method` where the class name is the only one of its kind in
 * the project, `<file>#ClassName.method` for tool classes whose name other files use too (at
 * run time, the class's defining file picks among them). Two such classes in one file cannot be
 * told apart and are refused before this.
 */
export function keyEntries(entries: readonly KeyedEntry[]): Map<string, ManifestTool> {
  const filesOfName = new Map<string, Set<string>>();
  for (const { className, tool } of entries) {
    const files = filesOfName.get(className) ?? new Set<string>();
    files.add(tool.file);
    filesOfName.set(className, files);
  }
  const keyed = new Map<string, ManifestTool>();
  for (const { className, methodName, tool } of entries) {
    const shared = filesOfName.get(className)!.size > 1;
    keyed.set(manifestKey(className, methodName, shared ? tool.file : undefined), tool);
  }
  return keyed;
}
