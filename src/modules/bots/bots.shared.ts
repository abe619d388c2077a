import { type Executor, type Tx } from '../../kernel/db/database.js'
import { aiEngineFor } from '../../kernel/ai/ai.js'
import { AppError, notFound } from '../../kernel/errors.js'
import type { Kernel } from '../../kernel/kernel.js'
import type { Services } from '../../kernel/services.js'
import type { Tenant } from '../../kernel/tenant.js'
import { configHash, draftConfig } from './bots.config.js'
import * as repo from './bots.repository.js'
import type { BotHandoffT } from './bots.schemas.js'
import type { BotsTable } from './bots.tables.js'

// Steps more than one bots service takes.

export async function findBotOr404(db: Executor, tenant: Tenant, id: string, opts: { forUpdate?: boolean } = {}): Promise<BotsTable> {
  const row = await repo.findBot(db, tenant, id, opts)
  if (!row) throw notFound('bot', id)
  return row
}

/** After any change to the draft (settings, guardrails, tools): the hash that has_unpublished_changes compares. */
export async function refreshDraftHash(tx: Tx, tenant: Tenant, row: BotsTable): Promise<BotsTable> {
  const tools = await repo.toolsOf(tx, tenant, row.id)
  const draft_hash = configHash(draftConfig(row, tools))
  await repo.updateBot(tx, tenant, row.id, { draft_hash })
  return { ...row, draft_hash }
}

/** What the schema cannot check: the knowledge bases exist here, a hand-off target is a member and a tag. */
export async function checkReferences(
  k: Kernel,
  services: Services,
  tenant: Tenant,
  c: { knowledge_base_ids?: string[]; handoff?: BotHandoffT; ai?: { provider?: 'builtin' | 'openai' | null } },
): Promise<void> {
  if (c.ai?.provider) {
    try {
      aiEngineFor(k, c.ai.provider)
    } catch (err) {
      if (!(err instanceof AppError)) throw err
      throw new AppError(err.code, err.detail, { errors: [{ pointer: '/body/ai/provider', detail: 'not configured on this server' }] })
    }
  }
  for (const [i, id] of (c.knowledge_base_ids ?? []).entries()) {
    try {
      await services.knowledge.bases.get(tenant, id)
    } catch (err) {
      if (!(err instanceof AppError) || err.code !== 'resource_not_found') throw err
      throw new AppError('unknown_knowledge_base', `No knowledge base with id '${id}' exists in this workspace.`, {
        errors: [{ pointer: `/body/knowledge_base_ids/${i}`, detail: 'no such knowledge base' }],
      })
    }
  }
  const h = c.handoff
  if (!h) return
  if (h.action === 'assign' && !h.assignee_id) {
    throw new AppError('validation_failed', 'A hand-off with action `assign` needs `assignee_id` (an active member).', {
      errors: [{ pointer: '/body/handoff/assignee_id', detail: 'required when action is assign' }],
    })
  }
  await services.inbox.turns.checkHandoffTarget(tenant, { assigneeId: h.assignee_id, tag: h.tag }, '/body/handoff')
}
