/**
 * JSON with every object's keys sorted: the same text for the same value whatever order its
 * keys were written in (for digests of arguments and questions).
 */
export function canonicalJson(value: unknown): string {
  return JSON.stringify(value, (_key, node: unknown) =>
    typeof node === "object" && node !== null && !Array.isArray(node)
      ? Object.fromEntries(
          Object.entries(node as Record<string, unknown>).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)),
        )
      : node,
  );
}
