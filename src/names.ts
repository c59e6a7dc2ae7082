/** Tool name rules of each provider (providers.md, "Names"). */
export const NAME_RULES = {
  openai: { max: 64, pattern: /^[a-zA-Z0-9_-]{1,64}$/, text: "1-64 characters from a-z A-Z 0-9 _ -" },
  "openai-responses": { max: 64, pattern: /^[a-zA-Z0-9_-]{1,64}$/, text: "1-64 characters from a-z A-Z 0-9 _ -" },
  anthropic: { max: 128, pattern: /^[a-zA-Z0-9_-]{1,128}$/, text: "1-128 characters from a-z A-Z 0-9 _ -" },
  gemini: { max: 128, pattern: /^[a-zA-Z_][a-zA-Z0-9_.:-]{0,127}$/, text: "starts with a letter or _, then a-z A-Z 0-9 _ . : -, at most 128 characters" },
  mcp: { max: 128, pattern: /^[A-Za-z0-9._-]{1,128}$/, text: "1-128 characters from A-Z a-z 0-9 . _ -" },
  bedrock: { max: 64, pattern: /^[a-zA-Z0-9_-]{1,64}$/, text: "1-64 characters from a-z A-Z 0-9 _ -" },
} as const;

export type ProviderId = keyof typeof NAME_RULES;

/** Accepted by every provider: a letter first, then letters, digits, _ and -, at most 64. */
export const PORTABLE_NAME = /^[A-Za-z][A-Za-z0-9_-]{0,63}$/;

/** The providers that accept `name`. */
export function providersAccepting(name: string): ProviderId[] {
  return (Object.keys(NAME_RULES) as ProviderId[]).filter((id) => NAME_RULES[id].pattern.test(name));
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
  return names
    .map((name) => ({ name, distance: editDistance(lower, name.toLowerCase()) }))
    .filter(({ name, distance }) => distance <= Math.max(2, Math.floor(name.length / 3)) || name.toLowerCase().includes(lower) || lower.includes(name.toLowerCase()))
    .sort((x, y) => x.distance - y.distance || x.name.localeCompare(y.name))
    .slice(0, limit)
    .map(({ name }) => name);
}
