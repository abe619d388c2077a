import { iso } from '../../../kernel/clock.js'
import type { Executor } from '../../../kernel/db/database.js'
import type { Kernel } from '../../../kernel/kernel.js'
import * as repo from './oauth.repository.js'
import type { OAuthGrantsTable } from './oauth.tables.js'
import { grantView } from './oauth.views.js'

/**
 * Revokes a grant and every token of its family in the caller's transaction, once: the granting workspace
 * gets `oauth_grant.revoked` with the reason. Every way a grant ends goes through here (the app's
 * revocation, a replay, the member removed or demoted, the workspace's revocation, the app deleted).
 */
export async function revokeGrantIn(k: Kernel, tx: Executor, grant: OAuthGrantsTable, reason: string): Promise<boolean> {
  const now = iso(k.clock.now())
  if (!(await repo.revokeGrant(tx, grant, now, reason))) return false
  const tenant = { workspaceId: grant.workspace_id, mode: grant.mode }
  await k.events.emit(tx, tenant, 'oauth_grant.revoked', grantView({ ...grant, revoked_at: now, revoked_reason: reason }))
  return true
}
