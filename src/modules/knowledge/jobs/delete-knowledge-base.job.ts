import { inheritAudit, sideOwner } from '../../../kernel/audit/audit.js'
import { nextTurn } from '../../../kernel/db/turns.js'
import { defineJob, type JobDefinition } from '../../../kernel/jobs/jobs.js'
import type { Kernel } from '../../../kernel/kernel.js'
import type { Mode, Tenant } from '../../../kernel/tenant.js'
import type { KnowledgeBasesService } from '../knowledge-bases.service.js'
import { removeIndex } from '../knowledge-index.repository.js'
import * as repo from '../knowledge.repository.js'

export interface DeleteKnowledgeBasePayload {
  workspace_id: string
  mode: Mode
  knowledge_base_id: string
}

/** Documents per transaction: each batch commits on its own, so no transaction grows with the base. */
export const DELETE_BATCH = 50

/**
 * Deletes a large base in the background. The request marked it `deleting` (it answers 404 from then on)
 * and emitted knowledge_base.deleted; this job removes its documents, chunks and index rows batch by
 * batch, then the base itself. Each batch is one transaction, so a re-run after a crash resumes with
 * whatever is left.
 */
export function deleteKnowledgeBaseJob(k: Kernel, bases: () => KnowledgeBasesService): JobDefinition<DeleteKnowledgeBasePayload> {
  return defineJob<DeleteKnowledgeBasePayload>({
    name: 'knowledge.delete-base',
    retrySchedule: [5, 30, 120, 600, 3600],
    async run(p, ctx) {
      const tenant: Tenant = inheritAudit(ctx, { workspaceId: p.workspace_id, mode: p.mode })
      const base = await repo.findBaseAnyState(k.db, tenant, p.knowledge_base_id)
      if (!base || base.deleting !== 1) return
      for (;;) {
        const batch = await repo.documentIdsOfBase(k.db, tenant, base.id, null, DELETE_BATCH)
        if (batch.length === 0) break
        await k.transaction(sideOwner(tenant), async (tx) => {
          for (const d of batch) await removeIndex(tx, tenant, { documentId: d.id })
          await repo.deleteDocumentRows(
            tx,
            tenant,
            batch.map((d) => d.id),
          )
        })
        // A large base is many batches: the requests of this node get the connection between two.
        await nextTurn()
      }
      await k.transaction(sideOwner(tenant), (tx) => bases().finishDeletion(tx, tenant, base.id))
    },
  })
}
