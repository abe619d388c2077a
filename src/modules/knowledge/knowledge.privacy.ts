import { sideOwner } from '../../kernel/audit/audit.js'
import type { DataSubject, ModulePrivacy } from '../../kernel/module.js'
import type { Executor } from '../../kernel/db/database.js'
import type { Tenant } from '../../kernel/tenant.js'
import * as gaps from './knowledge-gaps.repository.js'
import { gapView } from './knowledge-gaps.service.js'
import { documentsContaining } from './knowledge-subjects.repository.js'
import { documentView } from './knowledge.views.js'
import { mentionNeedles, namesSubject } from '../../kernel/pii/pii.mentions.js'

// The knowledge module's part in data-subject requests (docs/compliance.md "What each module does"): a
// knowledge gap keeps the questions people asked word for word, so a question that names the subject's
// email, phone or full name makes the gap theirs. A document whose title or text names the subject the
// same way is exported (with its text) and erased whole: its chunks and search index are built from the
// text, so a redacted copy would be a new document; the workspace uploads it again without the person.

async function gapsOf(db: Executor, tenant: Tenant, s: DataSubject) {
  const candidates = await gaps.gapsContaining(db, tenant, mentionNeedles(s))
  return candidates.filter((g) => [g.question, ...(JSON.parse(g.examples) as string[])].some((q) => namesSubject(q, s)))
}

async function documentsOf(db: Executor, tenant: Tenant, s: DataSubject) {
  const candidates = await documentsContaining(db, tenant, mentionNeedles(s))
  return candidates.filter((d) => namesSubject(d.title, s) || namesSubject(d.text ?? '', s))
}

export const knowledgePrivacy: ModulePrivacy = {
  async collect(k, _services, tenant, subject) {
    const found = await gapsOf(k.db, tenant, subject)
    const documents = await documentsOf(k.db, tenant, subject)
    return {
      records: { knowledge_gaps: found.map(gapView), knowledge_documents: documents.map((d) => ({ ...documentView(d), text: d.text })) },
      files: [],
      ids: [...found.map((g) => g.id), ...documents.map((d) => d.id)],
    }
  },

  /** Deletes those gaps whole (with their grouping terms, the other questions grouped in them included), and those documents with their chunks and index rows. */
  async erase(k, services, tenant, subject) {
    const ids = (await gapsOf(k.db, tenant, subject)).map((g) => g.id)
    const documents = (await documentsOf(k.db, tenant, subject)).map((d) => d.id)
    if (ids.length > 0) await k.transaction(sideOwner(tenant), (tx) => gaps.deleteGaps(tx, tenant, ids))
    if (documents.length > 0) await k.transaction(sideOwner(tenant), (tx) => services.knowledge.documents.removeDocuments(tx, tenant, documents))
    return { deleted: ids.length + documents.length, anonymised: 0 }
  },
}
