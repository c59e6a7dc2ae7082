/** A provider's rule for tool names. */
export interface NameRule {
  max: number;
  pattern: RegExp;
  /** The rule in words, for error messages. */
  text: string;
}

/** Accepted by every provider: a letter first, then letters, digits, _ and -, at most 64. */
export const PORTABLE_NAME = /^[A-Za-z][A-Za-z0-9_-]{0,63}$/;

/**
 * Accepted by at least one provider: the union of every adapter's rule (MCP's
 * `[A-Za-z0-9._-]{1,128}` and Gemini's `[A-Za-z_][A-Za-z0-9_.:-]{0,127}` cover the others).
 */
export function acceptedBySomeProvider(name: string): boolean {
  return /^[A-Za-z0-9._-]{1,128}$/.test(name) || /^[A-Za-z_][A-Za-z0-9_.:-]{0,127}$/.test(name);
}

/** A provider-safe form of `name`: invalid characters → "_", a letter first, long names shortened with a hash. */
export function sanitizedName(name: string, rule: NameRule): string {
  if (rule.pattern.test(name)) return name;
  let safe = name.replace(/[^A-Za-z0-9_-]/g, "_");
  if (!/^[A-Za-z]/.test(safe)) safe = `t_${safe}`;
  if (safe.length > rule.max) safe = `${safe.slice(0, rule.max - 9)}_${shortHash(name)}`;
  return safe;
}

function shortHash(text: string): string {
  let hash = 2166136261;
  for (let i = 0; i < text.length; i++) hash = Math.imul(hash ^ text.charCodeAt(i), 16777619);
  return (hash >>> 0).toString(16).padStart(8, "0");
}

/** Levenshtein distance, for "did you mean" suggestions. */
export function editDistance(a: string, b: string): number {
  let previous = Array.from({ length: b.length + 1 }, (_, i) => i);
  for (let i = 1; i <= a.length; i++) {
    const current = [i];
    for (let j = 1; j <= b.length; j++) {
      current[j] = Math.min(previous[j]! + 1, current[j - 1]! + 1, previous[j - 1]! + (a[i - 1] === b[j - 1] ? 0 : 1));
    }
    previous = current;
  }
  return previous[b.length]!;
}

/** Up to `limit` names close to `wanted`, closest first. */
export function closestNames(wanted: string, names: readonly string[], limit = 3): string[] {
  const lower = wanted.toLowerCase();
  const close: Array<{ name: string; distance: number }> = [];
  for (const name of names) {
    const other = name.toLowerCase();
    const allowed = Math.max(2, Math.floor(name.length / 3));
    const related = other.includes(lower) || lower.includes(other);
    // An edit distance is at least the difference in length: most names need no table at all.
    if (!related && Math.abs(other.length - lower.length) > allowed) continue;
    const distance = editDistance(lower, other);
    if (related || distance <= allowed) close.push({ name, distance });
  }
  return close
    .sort((x, y) => x.distance - y.distance || x.name.localeCompare(y.name))
    .slice(0, limit)
    .map(({ name }) => name);
}

/**
 * What a call whose name is not a string is told; `name` is only looked at with `typeof` (it may be any value, a Proxy
 * that throws included).
 */
export function noUsableName(name: unknown): string {
  return `A tool call has no usable name (got ${describeName(name)}); call one of the declared tools by its name.`;
}

function describeName(name: unknown): string {
  if (name === null || name === undefined) return String(name);
  return typeof name === "object" ? "an object" : typeof name;
}
