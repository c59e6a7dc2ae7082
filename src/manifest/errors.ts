import { ScanError } from "../core/errors";

/**
 * A manifest that cannot be used: unreadable, not JSON, of another format version, malformed,
 * or stale for a tool being scanned. A `ScanError`, since it stops tools from being built.
 */
export class ManifestError extends ScanError {
  override name = "ManifestError";
}
