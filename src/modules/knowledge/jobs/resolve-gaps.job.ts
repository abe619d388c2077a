import { inheritAudit } from '../../../kernel/audit/audit.js'
import { defineJob, type JobDefinition } from '../../../kernel/jobs/jobs.js'
import type { Kernel } from '../../../kernel/kernel.js'
import type { Mode, Tenant } from '../../../kernel/tenant.js'
import type { KnowledgeGapsService } from '../knowledge-gaps.service.js'
import type { KnowledgeSearchService } from '../knowledge-search.service.js'

export interface ResolveGapsPayload {
  workspace_id: string
  mode: Mode
  knowledge_base_id: string
  document_id: string
}

/**
 * After a document of a base became ready: ask each open gap of that base again and resolve those now
 * answered at the gap threshold or better. Idempotent: resolving is guarded by status, so a second run
 * (lease expired, retry) resolves nothing twice.
 */
export const resolveGapsJob = (k: Kernel, search: KnowledgeSearchService, gaps: KnowledgeGapsService): JobDefinition<ResolveGapsPayload> =>
  defineJob({
    name: 'knowledge.resolve_gaps',
    retrySchedule: [10, 60, 300],
    run: async (p, ctx) => {
      const tenant: Tenant = inheritAudit(ctx, { workspaceId: p.workspace_id, mode: p.mode })
      await gaps.resolveFor(tenant, p.knowledge_base_id, async (question) => {
        try {
          return await search.bestAnswer(tenant, question, p.knowledge_base_id)
        } catch (err) {
          // The base was deleted meanwhile (404): nothing left to resolve against.
          if ((err as { code?: string }).code === 'resource_not_found') return null
          throw err
        }
      })
    },
  })
