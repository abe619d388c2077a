import { inheritAudit, sideOwner } from '../../../kernel/audit/audit.js'
import { defineJob, enqueue, type JobDefinition } from '../../../kernel/jobs/jobs.js'
import type { Kernel } from '../../../kernel/kernel.js'
import type { Mode, Tenant } from '../../../kernel/tenant.js'
import * as repo from '../knowledge.repository.js'
import type { ProcessDocumentPayload } from './process-document.job.js'

export interface ReprocessKnowledgeBasePayload {
  workspace_id: string
  mode: Mode
  knowledge_base_id: string
  /** Documents up to this id are already queued (the job walks the base in pages). */
  after: string | null
}

const PAGE = 200

/**
 * After a base's language or chunking changed: queues every ready document for processing again, a page
 * at a time (the next page is a new job in the same transaction, so a crash loses nothing). Documents not
 * ready yet read the new settings when their own job runs.
 */
export function reprocessKnowledgeBaseJob(k: Kernel, processJob: JobDefinition<ProcessDocumentPayload>): JobDefinition<ReprocessKnowledgeBasePayload> {
  const self: JobDefinition<ReprocessKnowledgeBasePayload> = defineJob<ReprocessKnowledgeBasePayload>({
    name: 'knowledge.reprocess-base',
    retrySchedule: [5, 30, 120, 600],
    async run(p, ctx) {
      const tenant: Tenant = inheritAudit(ctx, { workspaceId: p.workspace_id, mode: p.mode })
      if (!(await repo.findBase(k.db, tenant, p.knowledge_base_id))) return
      const page = await repo.documentIdsOfBase(k.db, tenant, p.knowledge_base_id, p.after, PAGE)
      await k.transaction(sideOwner(tenant), async (tx) => {
        for (const d of page) {
          if (d.status === 'ready') await enqueue(tx, k.clock, processJob, { workspace_id: p.workspace_id, mode: p.mode, document_id: d.id })
        }
        if (page.length === PAGE) await enqueue(tx, k.clock, self, { ...p, after: page[page.length - 1].id })
      })
    },
  })
  return self
}
