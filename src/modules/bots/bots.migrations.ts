import type { ModuleMigration } from '../../kernel/db/migrations.js'

export const botsMigrations: ModuleMigration[] = [
  {
    name: '202611260100_bots',
    async up(db) {
      await db.schema
        .createTable('bots')
        .addColumn('id', 'text', (c) => c.primaryKey())
        .addColumn('workspace_id', 'text', (c) => c.notNull())
        .addColumn('mode', 'text', (c) => c.notNull())
        .addColumn('name', 'text', (c) => c.notNull())
        .addColumn('description', 'text')
        .addColumn('instructions', 'text', (c) => c.notNull())
        .addColumn('language', 'text', (c) => c.notNull())
        .addColumn('channels', 'text', (c) => c.notNull())
        .addColumn('knowledge_base_ids', 'text', (c) => c.notNull())
        .addColumn('handoff', 'text', (c) => c.notNull())
        .addColumn('greeting', 'text')
        .addColumn('ai', 'text', (c) => c.notNull())
        .addColumn('guardrails', 'text', (c) => c.notNull())
        .addColumn('metadata', 'text', (c) => c.notNull())
        .addColumn('draft_hash', 'text', (c) => c.notNull())
        .addColumn('archived', 'integer', (c) => c.notNull())
        .addColumn('published_version_id', 'text')
        .addColumn('published_at', 'text')
        .addColumn('published_hash', 'text')
        .addColumn('version_count', 'integer', (c) => c.notNull())
        .addColumn('created_at', 'text', (c) => c.notNull())
        .addColumn('updated_at', 'text', (c) => c.notNull())
        .execute()
      await db.schema.createIndex('bots_tenant').on('bots').columns(['workspace_id', 'mode', 'id']).execute()

      await db.schema
        .createTable('bot_tools')
        .addColumn('id', 'text', (c) => c.primaryKey())
        .addColumn('workspace_id', 'text', (c) => c.notNull())
        .addColumn('mode', 'text', (c) => c.notNull())
        .addColumn('bot_id', 'text', (c) => c.notNull())
        .addColumn('type', 'text', (c) => c.notNull())
        .addColumn('name', 'text', (c) => c.notNull())
        .addColumn('description', 'text', (c) => c.notNull())
        .addColumn('parameters', 'text', (c) => c.notNull())
        .addColumn('url', 'text')
        .addColumn('method', 'text')
        .addColumn('headers_sealed', 'text')
        .addColumn('header_names', 'text', (c) => c.notNull())
        .addColumn('timeout_ms', 'integer')
        .addColumn('signing_secret_sealed', 'text')
        .addColumn('created_at', 'text', (c) => c.notNull())
        .execute()
      // One name per bot: the engine calls tools by name.
      await db.schema.createIndex('bot_tools_name').on('bot_tools').columns(['bot_id', 'name']).unique().execute()

      await db.schema
        .createTable('bot_versions')
        .addColumn('id', 'text', (c) => c.primaryKey())
        .addColumn('workspace_id', 'text', (c) => c.notNull())
        .addColumn('mode', 'text', (c) => c.notNull())
        .addColumn('bot_id', 'text', (c) => c.notNull())
        .addColumn('number', 'integer', (c) => c.notNull())
        .addColumn('note', 'text')
        .addColumn('author_type', 'text', (c) => c.notNull())
        .addColumn('author_id', 'text')
        .addColumn('config', 'text', (c) => c.notNull())
        .addColumn('config_hash', 'text', (c) => c.notNull())
        .addColumn('created_at', 'text', (c) => c.notNull())
        .execute()
      await db.schema.createIndex('bot_versions_number').on('bot_versions').columns(['bot_id', 'number']).unique().execute()

      await db.schema
        .createTable('bot_replies')
        .addColumn('id', 'text', (c) => c.primaryKey())
        .addColumn('workspace_id', 'text', (c) => c.notNull())
        .addColumn('mode', 'text', (c) => c.notNull())
        .addColumn('bot_id', 'text', (c) => c.notNull())
        .addColumn('version_id', 'text', (c) => c.notNull())
        .addColumn('conversation_id', 'text', (c) => c.notNull())
        .addColumn('inbound_message_id', 'text', (c) => c.notNull())
        .addColumn('message_id', 'text', (c) => c.notNull())
        .addColumn('content', 'text', (c) => c.notNull())
        .addColumn('confidence', 'real')
        .addColumn('grounded', 'integer', (c) => c.notNull())
        .addColumn('citations', 'text', (c) => c.notNull())
        .addColumn('tool_calls', 'text', (c) => c.notNull())
        .addColumn('guardrails', 'text', (c) => c.notNull())
        .addColumn('handoff', 'text')
        .addColumn('provider', 'text', (c) => c.notNull())
        .addColumn('model', 'text', (c) => c.notNull())
        .addColumn('created_at', 'text', (c) => c.notNull())
        .execute()
      // Usage per day, and a bot's replies (deletion).
      await db.schema.createIndex('bot_replies_created').on('bot_replies').columns(['workspace_id', 'mode', 'created_at']).execute()
      await db.schema.createIndex('bot_replies_bot').on('bot_replies').columns(['bot_id']).execute()
    },
  },
  {
    // Test exchanges (dashboard test chat, version tests) are kept here only, never in the inbox:
    // `test` marks them, `question` holds the tester's message (there is no inbox message to point at).
    name: '202611281600_bot_test_exchanges',
    async up(db) {
      await db.schema
        .alterTable('bot_replies')
        .addColumn('test', 'integer', (c) => c.notNull().defaultTo(0))
        .execute()
      await db.schema.alterTable('bot_replies').addColumn('question', 'text').execute()
      // Reading a test conversation back, and a data subject's replies (bots.privacy.ts).
      await db.schema.createIndex('bot_replies_conversation').on('bot_replies').columns(['conversation_id']).execute()
    },
  },
]
