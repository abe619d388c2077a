import { scoped } from '../../kernel/db/scoped.js'
import type { Db } from '../../kernel/db/database.js'
import type { Tenant } from '../../kernel/tenant.js'
import type { Static } from 'typebox'
import type { Channel } from '../inbox/inbox.schemas.js'

/**
 * v1's "current chat" of a user: the newest conversation with that contact external id on that channel
 * that is not resolved. Read-only: writes go through services.inbox.
 */
export async function findOpenChat(db: Db, tenant: Tenant, userId: string, channel: Static<typeof Channel>): Promise<string | null> {
  const row = await scoped(db, tenant)
    .selectFrom('inbox_conversations')
    .select('id')
    .where('contact_external_id', '=', userId)
    .where('channel', '=', channel)
    .where('status', '!=', 'resolved')
    .orderBy('id', 'desc')
    .limit(1)
    .executeTakeFirst()
  return row?.id ?? null
}

/**
 * The ids of one v1 page, newest first (v2's order). Only the id column is read, so the offset is skipped
 * in the (workspace, mode, id) index without touching rows; MAX_V1_OFFSET bounds the walk.
 */
export async function chatIdsAt(db: Db, tenant: Tenant, offset: number, take: number): Promise<string[]> {
  const rows = await scoped(db, tenant).selectFrom('inbox_conversations').select('id').orderBy('id', 'desc').limit(take).offset(offset).execute()
  return rows.map((r) => r.id)
}
