import type { Executor } from '../../../kernel/db/database.js'
import { scoped } from '../../../kernel/db/scoped.js'
import type { Tenant } from '../../../kernel/tenant.js'
import '../channels.tables.js'

// The SQL of Twilio Messaging's own parts (media erasure); the rest of the module's is channels.repository.ts.

/** The messages a customer sent through Twilio channels: their media live under (channel, MessageSid). */
export function twilioReceiptsOf(db: Executor, tenant: Tenant, phone: string): Promise<{ channel_id: string; provider_sid: string }[]> {
  return scoped(db, tenant)
    .selectFrom('channel_receipts')
    .select(['channel_id', 'provider_sid'])
    .where('contact_phone', '=', phone)
    .where('channel_id', 'in', scoped(db, tenant).selectFrom('channels').select('id').where('provider', '=', 'twilio'))
    .execute()
}

export async function forgetReceiptPhone(db: Executor, tenant: Tenant, phone: string): Promise<number> {
  const r = await scoped(db, tenant).updateTable('channel_receipts').set({ contact_phone: null }).where('contact_phone', '=', phone).executeTakeFirst()
  return Number(r.numUpdatedRows)
}
