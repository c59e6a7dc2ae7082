/**
 * The catalogue search every bench measures, without any library: suites that must not load
 * toolnexus's sources (the compiled cold start) take it from here. Not a suite.
 */
export const SORTS = ["relevance", "price", "newest"] as const;
export type Sort = (typeof SORTS)[number];

/** The tool body every implementation calls: cheap, so the runtime around it is what is measured. */
export function searchBody(query: string, sort: string, limit: number): string {
  return `${limit} results for "${query}" by ${sort}`;
}
