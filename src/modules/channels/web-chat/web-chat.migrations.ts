import { sql } from 'kysely'
import type { ModuleMigration } from '../../../kernel/db/migrations.js'

/**
 * Web chat channels: `channels.phone_number` becomes nullable (only sms and whatsapp have one), the
 * widget's public key, settings and sealed identity secret, and the widget's visitors.
 */
export const webChatMigrations: ModuleMigration[] = [
  {
    name: '202701010001_channels_web_chat',
    async up(db, engine) {
      if (engine === 'postgres') {
        await sql`alter table channels alter column phone_number drop not null`.execute(db)
      } else {
        // SQLite cannot drop NOT NULL: rebuild the table from its own definition, so columns other
        // migrations added are kept whatever ran before this one; a no-op when it is nullable already.
        const table = await sql<{ sql: string }>`select sql from sqlite_master where type = 'table' and name = 'channels'`.execute(db)
        const create = table.rows[0].sql
        const notNull = /("?phone_number"?\s+text)\s+not null/i
        if (notNull.test(create)) {
          const indexes = await sql<{ sql: string }>`select sql from sqlite_master where type = 'index' and tbl_name = 'channels' and sql is not null`.execute(db)
          await sql.raw(create.replace(/^create table\s+"?channels"?/i, 'create table "channels__rebuild"').replace(notNull, '$1')).execute(db)
          await sql`insert into channels__rebuild select * from channels`.execute(db)
          await sql`drop table channels`.execute(db)
          await sql`alter table channels__rebuild rename to channels`.execute(db)
          for (const index of indexes.rows) await sql.raw(index.sql).execute(db)
        }
      }
      await db.schema.alterTable('channels').addColumn('widget_key', 'text').execute()
      await db.schema.alterTable('channels').addColumn('widget_settings', 'text').execute()
      await db.schema.alterTable('channels').addColumn('widget_secret_sealed', 'text').execute()
      // The widget's public key names its channel across every workspace.
      await db.schema.createIndex('channels_widget_key').on('channels').column('widget_key').unique().execute()
      await db.schema
        .createTable('channel_web_visitors')
        .addColumn('id', 'text', (c) => c.primaryKey())
        .addColumn('channel_id', 'text', (c) => c.notNull())
        .addColumn('workspace_id', 'text', (c) => c.notNull())
        .addColumn('mode', 'text', (c) => c.notNull())
        .addColumn('user_id', 'text')
        .addColumn('email', 'text')
        .addColumn('name', 'text')
        .addColumn('created_at', 'text', (c) => c.notNull())
        .addColumn('last_seen_at', 'text', (c) => c.notNull())
        .execute()
      // A verified user is one visitor on every device: their history follows them.
      await db.schema.createIndex('channel_web_visitors_user').on('channel_web_visitors').columns(['channel_id', 'user_id']).unique().execute()
      await db.schema.createIndex('channel_web_visitors_tenant').on('channel_web_visitors').columns(['workspace_id', 'mode', 'email']).execute()
    },
  },
  {
    name: '202701010002_channels_web_chat_attachments',
    async up(db) {
      // A visitor's files (images, PDF), kept as blobs: found again for their data-subject requests.
      await db.schema
        .createTable('channel_web_attachments')
        .addColumn('id', 'text', (c) => c.primaryKey())
        .addColumn('channel_id', 'text', (c) => c.notNull())
        .addColumn('visitor_id', 'text', (c) => c.notNull())
        .addColumn('workspace_id', 'text', (c) => c.notNull())
        .addColumn('mode', 'text', (c) => c.notNull())
        .addColumn('blob_key', 'text', (c) => c.notNull())
        .addColumn('filename', 'text', (c) => c.notNull())
        .addColumn('content_type', 'text', (c) => c.notNull())
        .addColumn('size_bytes', 'integer', (c) => c.notNull())
        .addColumn('created_at', 'text', (c) => c.notNull())
        .execute()
      await db.schema.createIndex('channel_web_attachments_visitor').on('channel_web_attachments').columns(['visitor_id']).execute()
    },
  },
]
