import { sql } from 'kysely'
import type { Executor } from '../../kernel/db/database.js'
import { scoped } from '../../kernel/db/scoped.js'
import type { Tenant } from '../../kernel/tenant.js'
import './knowledge.tables.js'
import type { KnowledgeDocumentsTable } from './knowledge.tables.js'

// The knowledge module's reads for data-subject requests (knowledge.privacy.ts).

/** `%needle%` for LIKE, lower-cased, its wildcards taken literally (backslash-escaped). */
const likePattern = (needle: string) => `%${needle.toLowerCase().replace(/[\\%_]/g, '\\$&')}%`

/**
 * Documents whose title or extracted text contains one of `needles`, case-insensitively: candidates, which
 * the caller checks. A scan of the tenant's documents (a document not processed yet has no text to scan).
 */
export function documentsContaining(db: Executor, tenant: Tenant, needles: string[]): Promise<KnowledgeDocumentsTable[]> {
  if (needles.length === 0) return Promise.resolve([])
  return scoped(db, tenant)
    .selectFrom('knowledge_documents')
    .selectAll()
    .where((eb) =>
      eb.or(
        needles.flatMap((n) => [
          sql<boolean>`lower(${eb.ref('knowledge_documents.title')}) like ${likePattern(n)} escape '\\'`,
          sql<boolean>`lower(coalesce(${eb.ref('knowledge_documents.text')}, '')) like ${likePattern(n)} escape '\\'`,
        ]),
      ),
    )
    .orderBy('knowledge_documents.id')
    .execute()
}
