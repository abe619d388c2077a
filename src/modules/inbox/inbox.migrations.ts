import { sql } from 'kysely'
import type { ModuleMigration } from '../../kernel/db/migrations.js'
import { PREVIEW_LENGTH } from './inbox.input.js'

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
      await db.schema.createIndex('inbox_conversations_status').on('inbox_conversations').columns(['workspace_id', 'mode', 'status', 'id']).execute()
      await db.schema.createIndex('inbox_conversations_assignee').on('inbox_conversations').columns(['workspace_id', 'mode', 'assignee_id', 'id']).execute()

      await db.schema
        .createTable('inbox_conversation_tags')
        .addColumn('workspace_id', 'text', (c) => c.notNull())
        .addColumn('mode', 'text', (c) => c.notNull())
        .addColumn('conversation_id', 'text', (c) => c.notNull().references('inbox_conversations.id').onDelete('cascade'))
        .addColumn('tag_id', 'text', (c) => c.notNull())
        .addColumn('tag_key', 'text', (c) => c.notNull())
        .addPrimaryKeyConstraint('inbox_conversation_tags_pk', ['conversation_id', 'tag_id'])
        .execute()
      await db.schema.createIndex('inbox_conversation_tags_filter').on('inbox_conversation_tags').columns(['workspace_id', 'mode', 'tag_key', 'conversation_id']).execute()

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
      await db.schema.createIndex('inbox_messages_conversation').on('inbox_messages').columns(['workspace_id', 'mode', 'conversation_id', 'id']).execute()
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
      await db.schema.createIndex('inbox_reply_templates_name').on('inbox_reply_templates').columns(['workspace_id', 'mode', 'name_key']).unique().execute()
      // NULL shortcuts are distinct on both engines, so only given shortcuts must be unique.
      await db.schema.createIndex('inbox_reply_templates_shortcut').on('inbox_reply_templates').columns(['workspace_id', 'mode', 'shortcut']).unique().execute()

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
      await db.schema.createIndex('inbox_conversations_channel').on('inbox_conversations').columns(['workspace_id', 'mode', 'channel', 'id']).execute()
    },
  },
  {
    // Issue 31: the inbox as a working surface. Last activity (backfilled from the last message, else the
    // creation) and the newest message's preview are columns written with each message; the three
    // activity indexes keep `order=last_activity` an index walk unfiltered, by status and by assignee.
    name: '202611281200_inbox_activity',
    async up(db) {
      const t = db.schema.alterTable('inbox_conversations')
      await t.addColumn('last_activity_at', 'text').execute()
      for (const c of ['last_message_id', 'last_message_direction', 'last_message_author_type', 'last_message_author_id', 'last_message_preview']) {
        await db.schema.alterTable('inbox_conversations').addColumn(c, 'text').execute()
      }
      await db.schema.alterTable('inbox_conversations').addColumn('last_message_private', 'integer').execute()
      await sql`update inbox_conversations set last_activity_at = coalesce(last_message_at, created_at)`.execute(db)
      await sql`update inbox_conversations set last_message_id =
        (select m.id from inbox_messages m where m.conversation_id = inbox_conversations.id order by m.id desc limit 1)`.execute(db)
      const col = (c: string) => sql`(select ${sql.ref(`m.${c}`)} from inbox_messages m where m.id = inbox_conversations.last_message_id)`
      await sql`update inbox_conversations set
        last_message_direction = ${col('direction')}, last_message_author_type = ${col('author_type')},
        last_message_author_id = ${col('author_id')}, last_message_private = ${col('private')},
        last_message_preview = (select substr(m.content, 1, ${sql.lit(PREVIEW_LENGTH)}) from inbox_messages m where m.id = inbox_conversations.last_message_id)
        where last_message_id is not null`.execute(db)
      for (const [name, cols] of [
        ['inbox_conversations_activity', ['workspace_id', 'mode', 'last_activity_at', 'id']],
        ['inbox_conversations_status_activity', ['workspace_id', 'mode', 'status', 'last_activity_at', 'id']],
        ['inbox_conversations_assignee_activity', ['workspace_id', 'mode', 'assignee_id', 'last_activity_at', 'id']],
      ] as const) {
        await db.schema
          .createIndex(name)
          .on('inbox_conversations')
          .columns([...cols])
          .execute()
      }

      await db.schema
        .createTable('inbox_read_marks')
        .addColumn('workspace_id', 'text', (c) => c.notNull())
        .addColumn('mode', 'text', (c) => c.notNull())
        .addColumn('conversation_id', 'text', (c) => c.notNull().references('inbox_conversations.id').onDelete('cascade'))
        .addColumn('member_id', 'text', (c) => c.notNull())
        .addColumn('last_read_message_id', 'text')
        .addColumn('read_inbound_count', 'integer', (c) => c.notNull())
        .addColumn('last_read_at', 'text', (c) => c.notNull())
        .addPrimaryKeyConstraint('inbox_read_marks_pk', ['conversation_id', 'member_id'])
        .execute()
      // A member's marks (erasure with the member, export).
      await db.schema.createIndex('inbox_read_marks_member').on('inbox_read_marks').columns(['workspace_id', 'mode', 'member_id']).execute()
    },
  },
  {
    // Full text over subject, contact and messages: the one engine-specific schema of the module. SQLite:
    // a contentless FTS5 table (rowid = rid; rows deleted by rowid, SQLite ≥ 3.43) whose `tenant` column
    // holds one token per workspace and mode; PostgreSQL: a tsvector (config `simple`: any language) with
    // a GIN index, next to a btree on (tenant, rid) for the newest-first walk of common terms. The FTS5
    // prefix index (2–4 characters) lets the last word's prefix match stream newest first like a whole
    // word; without it FTS5 merges the postings of every word the prefix begins (80 ms for a word in a
    // quarter of a million rows, against 3 ms).
    name: '202611281201_inbox_search',
    async up(db, engine) {
      if (engine === 'postgres') {
        await sql`create table inbox_search_docs (
          rid bigint generated always as identity primary key,
          workspace_id text not null, mode text not null, conversation_id text not null, message_id text,
          body text not null, tsv tsvector not null)`.execute(db)
        await sql`create index inbox_search_docs_tsv on inbox_search_docs using gin (tsv)`.execute(db)
      } else {
        await sql`create table inbox_search_docs (
          rid integer primary key,
          workspace_id text not null, mode text not null, conversation_id text not null, message_id text, body text not null)`.execute(db)
        await sql`create virtual table inbox_search_fts using fts5(tenant, body, content='', contentless_delete=1, prefix='2 3 4', tokenize="unicode61 remove_diacritics 2")`.execute(db)
      }
      await db.schema.createIndex('inbox_search_docs_tenant').on('inbox_search_docs').columns(['workspace_id', 'mode', 'rid']).execute()
      await db.schema.createIndex('inbox_search_docs_conversation').on('inbox_search_docs').columns(['conversation_id']).execute()
      await db.schema.createIndex('inbox_search_docs_message').on('inbox_search_docs').columns(['message_id']).execute()
      // Existing rows, oldest first (rid order is time order): conversations, then each message.
      const contactText = sql`trim(coalesce(subject, '') || ' ' || coalesce(contact_name, '') || ' ' || coalesce(contact_email, ''))`
      await sql`insert into inbox_search_docs (workspace_id, mode, conversation_id, message_id, body${engine === 'postgres' ? sql`, tsv` : sql``})
        select workspace_id, mode, conversation_id, message_id, body${engine === 'postgres' ? sql`, to_tsvector('simple', regexp_replace(body, '[^[:alnum:]]+', ' ', 'g'))` : sql``} from (
          select workspace_id, mode, id as conversation_id, null as message_id, ${contactText} as body, created_at as at, id as k from inbox_conversations
          union all select workspace_id, mode, conversation_id, id, content, created_at, id from inbox_messages) d
        order by at, k`.execute(db)
      if (engine !== 'postgres') {
        await sql`insert into inbox_search_fts (rowid, tenant, body)
          select rid, 'w' || lower(replace(workspace_id, '_', '')) || mode, body from inbox_search_docs`.execute(db)
      }
    },
  },
  {
    // Issue 33: the delivery state of outbound messages sent through a channel (SMS, WhatsApp).
    name: '202612310001_inbox_message_delivery',
    async up(db) {
      await db.schema.alterTable('inbox_messages').addColumn('delivery', 'text').execute()
    },
  },
  {
    // getInboxCounts at a million conversations: "mine", "unassigned" and the unread counts walked the
    // status or assignee index and read each row for the column the index lacked (1.5x on PostgreSQL,
    // whose heap does not fit its buffers). Every count now reads this index alone (docs/performance.md).
    name: '202612310002_inbox_open_counts',
    async up(db) {
      await db.schema.createIndex('inbox_conversations_counts').on('inbox_conversations').columns(['workspace_id', 'mode', 'status', 'assignee_id', 'inbound_count', 'id']).execute()
    },
  },
]
