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
]
