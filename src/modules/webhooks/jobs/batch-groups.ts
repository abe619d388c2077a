import type { Tenant } from '../../../kernel/tenant.js'

/** Groups of a batch that one statement can take: one tenant, one delivery once (see rounds). */
export const tenantKey = (t: Tenant) => `${t.workspaceId}\n${t.mode}`

export function groupBy<T>(items: T[], key: (t: T) => string): T[][] {
  const m = new Map<string, T[]>()
  for (const it of items) {
    const k = key(it)
    const list = m.get(k)
    if (list) list.push(it)
    else m.set(k, [it])
  }
  return [...m.values()]
}

/** Splits items into consecutive rounds in which each key occurs once (a multi-row UPDATE touches a row once). */
export function rounds<T>(items: T[], key: (t: T) => string): T[][] {
  const out: { keys: Set<string>; items: T[] }[] = []
  for (const it of items) {
    const k = key(it)
    let r = out.find((x) => !x.keys.has(k))
    if (!r) out.push((r = { keys: new Set(), items: [] }))
    r.keys.add(k)
    r.items.push(it)
  }
  return out.map((r) => r.items)
}
