// The live dashboard's rules that need no browser (dashboard/live.test.ts checks them in Node).

/** Whether an event type is one of `patterns`: exact, a prefix ending in `*`, or `*` for all. */
export const typeMatches = (patterns: string[], type: string): boolean => patterns.some((p) => p === '*' || p === type || (p.endsWith('*') && type.startsWith(p.slice(0, -1))))

/**
 * The first page read again and merged into a list whose rows change without events of their own (webhook
 * deliveries: made with each event, then attempted): rows already shown are replaced, new ones go on top,
 * the pages loaded further down stay.
 */
export function mergeFirstPage<T extends { id: string }>(xs: T[], first: T[]): T[] {
  const fresh = new Map(first.map((x) => [x.id, x]))
  const shown = new Set(xs.map((x) => x.id))
  return [...first.filter((x) => !shown.has(x.id)), ...xs.map((x) => fresh.get(x.id) ?? x)]
}
