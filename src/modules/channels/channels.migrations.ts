import type { ModuleMigration } from '../../kernel/db/migrations.js'
import { webChatMigrations } from './web-chat/web-chat.migrations.js'
import { webChatFollowupMigrations } from './web-chat/web-chat-followup.migrations.js'
import { emailMigrations } from './email/email.migrations.js'
import { businessHoursMigrations } from './business-hours/business-hours.migrations.js'
import { messagingMigrations } from './providers/messaging.migrations.js'

export const channelsMigrations: ModuleMigration[] = [
  {
    name: '202612310000_channels',
    async up(db) {
      await db.schema
        .createTable('channels')
        .addColumn('id', 'text', (c) => c.primaryKey())
        .addColumn('workspace_id', 'text', (c) => c.notNull())
        .addColumn('mode', 'text', (c) => c.notNull())
        .addColumn('type', 'text', (c) => c.notNull())
        .addColumn('name', 'text', (c) => c.notNull())
        .addColumn('phone_number', 'text', (c) => c.notNull())
        .addColumn('bot_id', 'text')
        .addColumn('provider', 'text', (c) => c.notNull())
        .addColumn('account_sid', 'text')
        .addColumn('auth_token_sealed', 'text')
        .addColumn('base_url', 'text')
        .addColumn('created_at', 'text', (c) => c.notNull())
        .addColumn('updated_at', 'text', (c) => c.notNull())
        .execute()
      await db.schema.createIndex('channels_tenant').on('channels').columns(['workspace_id', 'mode', 'id']).execute()
      // One channel per number and type in a workspace (mode): its customers' messages have one home.
      await db.schema.createIndex('channels_number').on('channels').columns(['workspace_id', 'mode', 'type', 'phone_number']).unique().execute()
      await db.schema
        .createTable('channel_contacts')
        .addColumn('channel_id', 'text', (c) => c.notNull())
        .addColumn('workspace_id', 'text', (c) => c.notNull())
        .addColumn('mode', 'text', (c) => c.notNull())
        .addColumn('contact_phone', 'text', (c) => c.notNull())
        .addColumn('conversation_id', 'text')
        .addColumn('opted_out', 'integer', (c) => c.notNull())
        .addColumn('opted_out_at', 'text')
        .addColumn('updated_at', 'text', (c) => c.notNull())
        .addPrimaryKeyConstraint('channel_contacts_pk', ['channel_id', 'contact_phone'])
        .execute()
      await db.schema.createIndex('channel_contacts_phone').on('channel_contacts').columns(['workspace_id', 'mode', 'contact_phone']).execute()
      await db.schema
        .createTable('channel_conversations')
        .addColumn('conversation_id', 'text', (c) => c.primaryKey())
        .addColumn('workspace_id', 'text', (c) => c.notNull())
        .addColumn('mode', 'text', (c) => c.notNull())
        .addColumn('channel_id', 'text', (c) => c.notNull())
        .addColumn('contact_phone', 'text', (c) => c.notNull())
        .addColumn('bot_state', 'text', (c) => c.notNull())
        .execute()
      await db.schema.createIndex('channel_conversations_channel').on('channel_conversations').columns(['channel_id']).execute()
      // The idempotency of inbound webhooks: one message per (channel, MessageSid), whatever retries come.
      await db.schema
        .createTable('channel_receipts')
        .addColumn('channel_id', 'text', (c) => c.notNull())
        .addColumn('provider_sid', 'text', (c) => c.notNull())
        .addColumn('workspace_id', 'text', (c) => c.notNull())
        .addColumn('mode', 'text', (c) => c.notNull())
        .addColumn('message_id', 'text', (c) => c.notNull())
        .addColumn('bot_reply_id', 'text')
        .addColumn('received_at', 'text', (c) => c.notNull())
        .addPrimaryKeyConstraint('channel_receipts_pk', ['channel_id', 'provider_sid'])
        .execute()
      await db.schema
        .createTable('channel_deliveries')
        .addColumn('message_id', 'text', (c) => c.primaryKey())
        .addColumn('workspace_id', 'text', (c) => c.notNull())
        .addColumn('mode', 'text', (c) => c.notNull())
        .addColumn('channel_id', 'text', (c) => c.notNull())
        .addColumn('to_phone', 'text', (c) => c.notNull())
        .addColumn('status', 'text', (c) => c.notNull())
        .addColumn('provider_sid', 'text')
        .addColumn('error_code', 'text')
        .addColumn('error_message', 'text')
        .addColumn('attempts', 'integer', (c) => c.notNull())
        .addColumn('created_at', 'text', (c) => c.notNull())
        .addColumn('updated_at', 'text', (c) => c.notNull())
        .execute()
      await db.schema.createIndex('channel_deliveries_sid').on('channel_deliveries').columns(['channel_id', 'provider_sid']).execute()
    },
  },
  ...webChatMigrations,
  ...emailMigrations,
  ...businessHoursMigrations,
  ...messagingMigrations,
  ...webChatFollowupMigrations,
]
