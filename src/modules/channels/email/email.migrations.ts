import type { ModuleMigration } from '../../../kernel/db/migrations.js'

export const emailMigrations: ModuleMigration[] = [
  {
    name: '202701010100_channels_email',
    async up(db) {
      await db.schema
        .createTable('channel_emails')
        .addColumn('channel_id', 'text', (c) => c.primaryKey())
        .addColumn('workspace_id', 'text', (c) => c.notNull())
        .addColumn('mode', 'text', (c) => c.notNull())
        .addColumn('address', 'text', (c) => c.notNull())
        .addColumn('from_name', 'text')
        .addColumn('relay_host', 'text')
        .addColumn('relay_port', 'integer')
        .addColumn('relay_secure', 'integer', (c) => c.notNull())
        .addColumn('relay_user', 'text')
        .addColumn('relay_password_sealed', 'text')
        .addColumn('webhook_password_sealed', 'text')
        .addColumn('mailgun_key_sealed', 'text')
        .execute()
      // Mail arrives without a tenant: its recipient address names one channel in the whole service.
      await db.schema.createIndex('channel_emails_address').on('channel_emails').column('address').unique().execute()
      await db.schema
        .createTable('channel_email_conversations')
        .addColumn('conversation_id', 'text', (c) => c.primaryKey())
        .addColumn('workspace_id', 'text', (c) => c.notNull())
        .addColumn('mode', 'text', (c) => c.notNull())
        .addColumn('channel_id', 'text', (c) => c.notNull())
        .addColumn('contact_email', 'text', (c) => c.notNull())
        .addColumn('reply_token', 'text', (c) => c.notNull())
        .addColumn('subject', 'text', (c) => c.notNull())
        .addColumn('last_header_id', 'text')
        .addColumn('references_ids', 'text', (c) => c.notNull())
        .execute()
      await db.schema.createIndex('channel_email_conversations_token').on('channel_email_conversations').column('reply_token').unique().execute()
      await db.schema.createIndex('channel_email_conversations_contact').on('channel_email_conversations').columns(['workspace_id', 'mode', 'contact_email']).execute()
      await db.schema
        .createTable('channel_email_threads')
        .addColumn('channel_id', 'text', (c) => c.notNull())
        .addColumn('header_id', 'text', (c) => c.notNull())
        .addColumn('workspace_id', 'text', (c) => c.notNull())
        .addColumn('mode', 'text', (c) => c.notNull())
        .addColumn('conversation_id', 'text', (c) => c.notNull())
        .addPrimaryKeyConstraint('channel_email_threads_pk', ['channel_id', 'header_id'])
        .execute()
      await db.schema.createIndex('channel_email_threads_conversation').on('channel_email_threads').column('conversation_id').execute()
    },
  },
  {
    // SendGrid's signed webhooks: the public keys that verify Inbound Parse (a security policy) and the Event Webhook.
    name: '202701150552_channels_email_sendgrid_keys',
    async up(db) {
      await db.schema.alterTable('channel_emails').addColumn('sendgrid_parse_key', 'text').execute()
      await db.schema.alterTable('channel_emails').addColumn('sendgrid_events_key', 'text').execute()
    },
  },
]
