import type { DataSubject, ModulePrivacy } from '../../kernel/module.js'
import type { Executor } from '../../kernel/db/database.js'
import type { Tenant } from '../../kernel/tenant.js'
import * as gaps from './knowledge-gaps.repository.js'
import { gapView } from './knowledge-gaps.service.js'

// The knowledge module's part in data-subject requests (docs/compliance.md "What each module does"): a
// knowledge gap keeps the questions people asked word for word, so a question that names the subject's
// email or phone makes the gap theirs. Documents are the workspace's own content, not searched.

const escapeRegExp = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')

/** The inbox's rule (inbox.privacy.ts mentionSpans): the email (any case) or phone as a whole, not inside a longer one. */
function names(text: string, s: DataSubject): boolean {
  const whole = (needle: string, ok: (before: string, after: string) => boolean) =>
    [...text.matchAll(new RegExp(escapeRegExp(needle), 'gi'))].some((m) => ok(text.slice(Math.max(0, m.index! - 1), m.index!), text.slice(m.index! + m[0].length, m.index! + m[0].length + 2)))
  return (
    (!!s.email && whole(s.email, (b, a) => !/[A-Za-z0-9._%+-]/.test(b) && !/^([A-Za-z0-9_-]|\.[A-Za-z0-9])/.test(a))) ||
    (!!s.phone && whole(s.phone, (b, a) => !/[0-9+]/.test(b) && !/^[0-9]/.test(a)))
  )
}

async function gapsOf(db: Executor, tenant: Tenant, s: DataSubject) {
  const candidates = await gaps.gapsContaining(db, tenant, [s.email, s.phone].filter((n): n is string => !!n))
  return candidates.filter((g) => [g.question, ...(JSON.parse(g.examples) as string[])].some((q) => names(q, s)))
}

export const knowledgePrivacy: ModulePrivacy = {
  async collect(k, _services, tenant, subject) {
    const found = await gapsOf(k.db, tenant, subject)
    return { records: { knowledge_gaps: found.map(gapView) }, files: [], ids: found.map((g) => g.id) }
  },

  /** Deletes those gaps whole (with their grouping terms), the other questions grouped in them included. */
  async erase(k, _services, tenant, subject) {
    const ids = (await gapsOf(k.db, tenant, subject)).map((g) => g.id)
    if (ids.length === 0) return { deleted: 0, anonymised: 0 }
    await k.transaction(null, (tx) => gaps.deleteGaps(tx, tenant, ids))
    return { deleted: ids.length, anonymised: 0 }
  },
}
