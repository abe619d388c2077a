import type { ModuleMigration } from '../../kernel/db/migrations.js'

// Indexes lead with (workspace_id, mode) and end with id: every list is one tenant's rows by ULID.
export const inboxMigrations: ModuleMigration[] = [
  {
    name: '202611220300_inbox_init',
    async up(db) {
      await db.schema
        .createTable('inbox_conversations')
        .addColumn('id', 'text', (c) => c.primaryKey())
        .addColumn('workspace_id', 'text', (c) => c.notNull())
        .addColumn('mode', 'text', (c) => c.notNull())
        .addColumn('status', 'text', (c) => c.notNull())
        .addColumn('channel', 'text', (c) => c.notNull())
        .addColumn('subject', 'text')
        .addColumn('contact_name', 'text')
        .addColumn('contact_email', 'text')
        .addColumn('contact_phone', 'text')
        .addColumn('contact_external_id', 'text')
        .addColumn('assignee_id', 'text')
        .addColumn('tags', 'text', (c) => c.notNull())
        .addColumn('lead_score', 'double precision', (c) => c.notNull())
        .addColumn('lead_factors', 'text', (c) => c.notNull())
        .addColumn('lead_score_manual', 'integer', (c) => c.notNull())
        .addColumn('lead_signals', 'text', (c) => c.notNull())
        .addColumn('inbound_count', 'integer', (c) => c.notNull())
        .addColumn('metadata', 'text', (c) => c.notNull())
        .addColumn('last_message_at', 'text')
        .addColumn('snoozed_until', 'text')
        .addColumn('resolved_at', 'text')
        .addColumn('created_at', 'text', (c) => c.notNull())
        .addColumn('updated_at', 'text', (c) => c.notNull())
        .execute()
      await db.schema.createIndex('inbox_conversations_tenant').on('inbox_conversations').columns(['workspace_id', 'mode', 'id']).execute()
      await db.schema
        .createIndex('inbox_conversations_status')
        .on('inbox_conversations')
        .columns(['workspace_id', 'mode', 'status', 'id'])
        .execute()
      await db.schema
        .createIndex('inbox_conversations_assignee')
        .on('inbox_conversations')
        .columns(['workspace_id', 'mode', 'assignee_id', 'id'])
        .execute()

      await db.schema
        .createTable('inbox_conversation_tags')
        .addColumn('workspace_id', 'text', (c) => c.notNull())
        .addColumn('mode', 'text', (c) => c.notNull())
        .addColumn('conversation_id', 'text', (c) => c.notNull().references('inbox_conversations.id').onDelete('cascade'))
        .addColumn('tag_id', 'text', (c) => c.notNull())
        .addColumn('tag_key', 'text', (c) => c.notNull())
        .addPrimaryKeyConstraint('inbox_conversation_tags_pk', ['conversation_id', 'tag_id'])
        .execute()
      await db.schema
        .createIndex('inbox_conversation_tags_filter')
        .on('inbox_conversation_tags')
        .columns(['workspace_id', 'mode', 'tag_key', 'conversation_id'])
        .execute()

      await db.schema
        .createTable('inbox_messages')
        .addColumn('id', 'text', (c) => c.primaryKey())
        .addColumn('workspace_id', 'text', (c) => c.notNull())
        .addColumn('mode', 'text', (c) => c.notNull())
        .addColumn('conversation_id', 'text', (c) => c.notNull().references('inbox_conversations.id').onDelete('cascade'))
        .addColumn('direction', 'text', (c) => c.notNull())
        .addColumn('author_type', 'text', (c) => c.notNull())
        .addColumn('author_id', 'text')
        .addColumn('content', 'text', (c) => c.notNull())
        .addColumn('private', 'integer', (c) => c.notNull())
        .addColumn('attachments', 'text', (c) => c.notNull())
        .addColumn('created_at', 'text', (c) => c.notNull())
        .execute()
      await db.schema
        .createIndex('inbox_messages_conversation')
        .on('inbox_messages')
        .columns(['workspace_id', 'mode', 'conversation_id', 'id'])
        .execute()
      // Usage report: messages per day.
      await db.schema.createIndex('inbox_messages_created').on('inbox_messages').columns(['workspace_id', 'mode', 'created_at']).execute()

      await db.schema
        .createTable('inbox_ai_drafts')
        .addColumn('id', 'text', (c) => c.primaryKey())
        .addColumn('workspace_id', 'text', (c) => c.notNull())
        .addColumn('mode', 'text', (c) => c.notNull())
        .addColumn('conversation_id', 'text', (c) => c.notNull().references('inbox_conversations.id').onDelete('cascade'))
        .addColumn('content', 'text', (c) => c.notNull())
        .addColumn('confidence', 'double precision')
        .addColumn('grounded', 'integer', (c) => c.notNull())
        .addColumn('sources', 'text', (c) => c.notNull())
        .addColumn('provider', 'text', (c) => c.notNull())
        .addColumn('model', 'text', (c) => c.notNull())
        .addColumn('created_at', 'text', (c) => c.notNull())
        .execute()
      await db.schema.createIndex('inbox_ai_drafts_created').on('inbox_ai_drafts').columns(['workspace_id', 'mode', 'created_at']).execute()

      await db.schema
        .createTable('inbox_reply_templates')
        .addColumn('id', 'text', (c) => c.primaryKey())
        .addColumn('workspace_id', 'text', (c) => c.notNull())
        .addColumn('mode', 'text', (c) => c.notNull())
        .addColumn('name', 'text', (c) => c.notNull())
        .addColumn('name_key', 'text', (c) => c.notNull())
        .addColumn('content', 'text', (c) => c.notNull())
        .addColumn('shortcut', 'text')
        .addColumn('language', 'text')
        .addColumn('created_at', 'text', (c) => c.notNull())
        .addColumn('updated_at', 'text', (c) => c.notNull())
        .execute()
      await db.schema.createIndex('inbox_reply_templates_tenant').on('inbox_reply_templates').columns(['workspace_id', 'mode', 'id']).execute()
      await db.schema
        .createIndex('inbox_reply_templates_name')
        .on('inbox_reply_templates')
        .columns(['workspace_id', 'mode', 'name_key'])
        .unique()
        .execute()
      // NULL shortcuts are distinct on both engines, so only given shortcuts must be unique.
      await db.schema
        .createIndex('inbox_reply_templates_shortcut')
        .on('inbox_reply_templates')
        .columns(['workspace_id', 'mode', 'shortcut'])
        .unique()
        .execute()

      await db.schema
        .createTable('inbox_tags')
        .addColumn('id', 'text', (c) => c.primaryKey())
        .addColumn('workspace_id', 'text', (c) => c.notNull())
        .addColumn('mode', 'text', (c) => c.notNull())
        .addColumn('name', 'text', (c) => c.notNull())
        .addColumn('name_key', 'text', (c) => c.notNull())
        .addColumn('color', 'text', (c) => c.notNull())
        .addColumn('created_at', 'text', (c) => c.notNull())
        .execute()
      await db.schema.createIndex('inbox_tags_tenant').on('inbox_tags').columns(['workspace_id', 'mode', 'id']).execute()
      await db.schema.createIndex('inbox_tags_name').on('inbox_tags').columns(['workspace_id', 'mode', 'name_key']).unique().execute()
    },
  },
  {
    // ?channel= walked the tenant index and filtered: a rare channel read every conversation of the
    // workspace (~1 s at a million, bench/scale.ts). A channel never changes, so the index costs one
    // entry per created conversation and nothing on the message path.
    name: '202611240100_inbox_conversations_channel',
    async up(db) {
      await db.schema
        .createIndex('inbox_conversations_channel')
        .on('inbox_conversations')
        .columns(['workspace_id', 'mode', 'channel', 'id'])
        .execute()
    },
  },
]
