import { sql } from 'kysely'
import type { Executor } from '../../kernel/db/database.js'
import { scoped } from '../../kernel/db/scoped.js'
import type { Tenant } from '../../kernel/tenant.js'
import './inbox.tables.js'
import type { InboxReadMarksTable } from './inbox.tables.js'

// Per-member read state: one mark per (conversation, member), and the capped counts of the inbox.

export function findReadMark(db: Executor, tenant: Tenant, conversationId: string, memberId: string): Promise<InboxReadMarksTable | undefined> {
  return scoped(db, tenant).selectFrom('inbox_read_marks').selectAll().where('conversation_id', '=', conversationId).where('member_id', '=', memberId).executeTakeFirst()
}

/** Sets the member's mark (insert or replace: the latest call wins, also when it moves the mark back). */
export async function upsertReadMark(db: Executor, row: InboxReadMarksTable): Promise<void> {
  await db
    .insertInto('inbox_read_marks')
    .values(row)
    .onConflict((oc) =>
      oc.columns(['conversation_id', 'member_id']).doUpdateSet({
        last_read_message_id: row.last_read_message_id,
        read_inbound_count: row.read_inbound_count,
        last_read_at: row.last_read_at,
      }),
    )
    .execute()
}

/** The furthest any member has read the conversation (its newest mark's message): what the customer sees as "seen". */
export function furthestReadMark(db: Executor, tenant: Tenant, conversationId: string): Promise<{ last_read_message_id: string | null; last_read_at: string } | undefined> {
  return scoped(db, tenant)
    .selectFrom('inbox_read_marks')
    .select(['last_read_message_id', 'last_read_at'])
    .where('conversation_id', '=', conversationId)
    .where('last_read_message_id', 'is not', null)
    .orderBy('last_read_message_id', 'desc')
    .limit(1)
    .executeTakeFirst()
}

/** Inbound messages of the conversation up to and including `messageId` (a walk of its own messages). */
export async function inboundUpTo(db: Executor, tenant: Tenant, conversationId: string, messageId: string): Promise<number> {
  const r = await scoped(db, tenant)
    .selectFrom('inbox_messages')
    .select((eb) => eb.fn.countAll().as('n'))
    .where('conversation_id', '=', conversationId)
    .where('id', '<=', messageId)
    .where('direction', '=', 'inbound')
    .executeTakeFirst()
  return Number(r?.n ?? 0)
}

/** A member's marks (data export with the member). */
export function readMarksOfMember(db: Executor, tenant: Tenant, memberId: string): Promise<InboxReadMarksTable[]> {
  return scoped(db, tenant).selectFrom('inbox_read_marks').selectAll().where('member_id', '=', memberId).orderBy('conversation_id').execute()
}

export async function deleteReadMarksOfMember(db: Executor, tenant: Tenant, memberId: string): Promise<number> {
  const r = await scoped(db, tenant).deleteFrom('inbox_read_marks').where('member_id', '=', memberId).executeTakeFirst()
  return Number(r.numDeletedRows)
}

export interface CountFilter {
  assignee?: string | null
  /** Count only conversations with inbound messages after this member's mark. */
  unreadFor?: string
}

/**
 * Open conversations matching the filter, counting at most `cap`: a count walks the status (or assignee)
 * index and stops at the cap, so it costs the same at a million conversations as at a thousand.
 */
export async function countOpen(db: Executor, tenant: Tenant, f: CountFilter, cap: number): Promise<number> {
  let q = scoped(db, tenant)
    .selectFrom('inbox_conversations')
    .select(sql<number>`1`.as('one'))
    .where('inbox_conversations.status', '=', 'open')
  if (f.assignee !== undefined) q = f.assignee === null ? q.where('inbox_conversations.assignee_id', 'is', null) : q.where('inbox_conversations.assignee_id', '=', f.assignee)
  if (f.unreadFor) {
    const member = f.unreadFor
    q = q
      .leftJoin('inbox_read_marks', (j) => j.onRef('inbox_read_marks.conversation_id', '=', 'inbox_conversations.id').on('inbox_read_marks.member_id', '=', member))
      .where((eb) => eb('inbox_conversations.inbound_count', '>', eb.fn.coalesce('inbox_read_marks.read_inbound_count', eb.lit(0))))
  }
  // The rows themselves (a constant each), not count(*) over a sub-select: at most `cap` tiny rows.
  return (await q.limit(cap).execute()).length
}
