import type { ModuleMigration } from '../../../kernel/db/migrations.js'

export const messagingMigrations: ModuleMigration[] = [
  {
    // Issue 33, Twilio Messaging: a channel may send through a Messaging Service (MG…) instead of its number,
    // and a WhatsApp channel names the approved template it sends outside WhatsApp's 24-hour window (JSON,
    // read with the channel). The window is measured from the customer's last message, kept on their row.
    name: '202701151443_channels_twilio_messaging',
    async up(db) {
      await db.schema.alterTable('channels').addColumn('messaging_service_sid', 'text').execute()
      await db.schema.alterTable('channels').addColumn('whatsapp_template', 'text').execute()
      await db.schema.alterTable('channel_contacts').addColumn('last_inbound_at', 'text').execute()
    },
  },
  {
    // Whose message a receipt was: a data-subject erasure by phone finds the media stored under (channel,
    // MessageSid) through it, deletes them and clears the number (the receipt stays: a late retry of the
    // webhook must still find it).
    name: '202701151447_channels_receipt_phone',
    async up(db) {
      await db.schema.alterTable('channel_receipts').addColumn('contact_phone', 'text').execute()
      await db.schema.createIndex('channel_receipts_phone').on('channel_receipts').columns(['workspace_id', 'contact_phone']).execute()
    },
  },
  {
    // Inbound media whose message never committed: a row per fetch attempt, written before the fetch and
    // deleted by the message's transaction; the sweep deletes the blobs of rows left behind. The receipt
    // names the folder its message's media are in (per attempt now, no longer derived from the sid).
    name: '202701151530_channels_twilio_media_pending',
    async up(db) {
      await db.schema
        .createTable('channel_media_pending')
        .addColumn('folder', 'text', (c) => c.primaryKey())
        .addColumn('workspace_id', 'text', (c) => c.notNull())
        .addColumn('mode', 'text', (c) => c.notNull())
        .addColumn('channel_id', 'text', (c) => c.notNull())
        .addColumn('provider_sid', 'text', (c) => c.notNull())
        .addColumn('contact_phone', 'text', (c) => c.notNull())
        .addColumn('created_at', 'text', (c) => c.notNull())
        .addColumn('swept_at', 'text')
        .execute()
      await db.schema.createIndex('channel_media_pending_created').on('channel_media_pending').columns(['created_at']).execute()
      await db.schema.createIndex('channel_media_pending_phone').on('channel_media_pending').columns(['workspace_id', 'contact_phone']).execute()
      await db.schema.alterTable('channel_receipts').addColumn('media_folder', 'text').execute()
    },
  },
  {
    // Which conversation a receipt's message went to: when the inbox deletes a conversation (retention,
    // erasure), what the channel stored for its messages (MMS / WhatsApp media, web chat files) is found by it
    // and deleted too (conversation-forget.job.ts). Receipts older than the column have none.
    name: '202701161000_channels_receipt_conversation',
    async up(db) {
      await db.schema.alterTable('channel_receipts').addColumn('conversation_id', 'text').execute()
      await db.schema.createIndex('channel_receipts_conversation').on('channel_receipts').columns(['workspace_id', 'mode', 'conversation_id']).execute()
    },
  },
]
