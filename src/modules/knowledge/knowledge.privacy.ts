import type { DataSubject, ModulePrivacy } from '../../kernel/module.js'
import type { Executor } from '../../kernel/db/database.js'
import type { Tenant } from '../../kernel/tenant.js'
import * as gaps from './knowledge-gaps.repository.js'
import { gapView } from './knowledge-gaps.service.js'
import { namesSubject } from '../../kernel/pii/pii.mentions.js'

// The knowledge module's part in data-subject requests (docs/compliance.md "What each module does"): a
// knowledge gap keeps the questions people asked word for word, so a question that names the subject's
// email or phone makes the gap theirs. Documents are the workspace's own content, not searched.

async function gapsOf(db: Executor, tenant: Tenant, s: DataSubject) {
  const candidates = await gaps.gapsContaining(db, tenant, [s.email, s.phone].filter((n): n is string => !!n))
  return candidates.filter((g) => [g.question, ...(JSON.parse(g.examples) as string[])].some((q) => namesSubject(q, s)))
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
