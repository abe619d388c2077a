import type { ModuleMigration } from '../../../kernel/db/migrations.js'

/**
 * Web chat replies continued by e-mail (channel_web_followups), and the indexes that retention and
 * data-subject requests read by: visitors by last visit, deliveries by last change and by recipient.
 */
export const webChatFollowupMigrations: ModuleMigration[] = [
  {
    name: '202701150417_channels_web_chat_followups',
    async up(db) {
      await db.schema
        .createTable('channel_web_followups')
        .addColumn('message_id', 'text', (c) => c.primaryKey())
        .addColumn('workspace_id', 'text', (c) => c.notNull())
        .addColumn('mode', 'text', (c) => c.notNull())
        .addColumn('channel_id', 'text', (c) => c.notNull())
        .addColumn('conversation_id', 'text', (c) => c.notNull())
        .addColumn('visitor_id', 'text', (c) => c.notNull())
        .addColumn('status', 'text', (c) => c.notNull())
        .addColumn('due_at', 'text', (c) => c.notNull())
        .addColumn('outcome', 'text')
        .addColumn('created_at', 'text', (c) => c.notNull())
        .addColumn('updated_at', 'text', (c) => c.notNull())
        .execute()
      // A job sends every waiting reply of its conversation in one mail.
      await db.schema.createIndex('channel_web_followups_conversation').on('channel_web_followups').columns(['workspace_id', 'mode', 'conversation_id', 'status']).execute()
      await db.schema.createIndex('channel_web_followups_visitor').on('channel_web_followups').columns(['workspace_id', 'mode', 'visitor_id']).execute()
      await db.schema.createIndex('channel_web_visitors_seen').on('channel_web_visitors').columns(['workspace_id', 'mode', 'last_seen_at']).execute()
      await db.schema.createIndex('channel_deliveries_updated').on('channel_deliveries').columns(['workspace_id', 'mode', 'updated_at']).execute()
      await db.schema.createIndex('channel_deliveries_recipient').on('channel_deliveries').columns(['workspace_id', 'mode', 'to_phone']).execute()
    },
  },
]
