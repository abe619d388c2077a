import { sql, SqliteAdapter, type Compilable, type RawBuilder } from 'kysely'
import type { Executor } from '../../kernel/db/database.js'
import { prepared } from '../../kernel/db/prepared.js'
import { scoped } from '../../kernel/db/scoped.js'
import type { Tenant } from '../../kernel/tenant.js'
import './inbox.tables.js'
import { conversationText, ftsBodyMatch, ftsMatch, indexText, tenantToken, tsQuery } from './inbox.search-text.js'

// The search index of the inbox: the only full-text SQL. Written in the transaction of the row it
// indexes (a message, a conversation's subject or contact), so a search never sees a row that is not
// committed or misses one that is. The FTS parts are raw SQL that scoped() cannot build; they name the
// tenant themselves (tenant: …).

const onSqlite = (db: Executor) => db.getExecutor().adapter instanceof SqliteAdapter

interface Doc {
  workspace_id: string
  mode: Tenant['mode']
  conversation_id: string
  message_id: string | null
  body: string
}

async function insertDoc(db: Executor, doc: Doc, rid?: number): Promise<void> {
  if (onSqlite(db)) {
    const row = await insertDocQ.first(db, { ...doc, rid })
    // tenant: the FTS row carries the workspace and mode as one token.
    await insertFtsQ.run(db, { rid: row!.rid, tenant: tenantToken({ workspaceId: doc.workspace_id, mode: doc.mode }), body: doc.body })
    return
  }
  await insertPgDocQ.run(db, { ...doc, rid, tsv: indexText(doc.body) })
}

// Written with every message: prepared shapes (kernel/db/prepared.ts), not built and compiled per call.
const insertDocQ = prepared((db, a: Doc & { rid?: number }) =>
  db
    .insertInto('inbox_search_docs')
    .values(a.rid !== undefined ? a : { workspace_id: a.workspace_id, mode: a.mode, conversation_id: a.conversation_id, message_id: a.message_id, body: a.body })
    .returning('rid'),
)
const insertFtsQ = prepared((db, a: { rid: number; tenant: string; body: string }) => compilable(db, sql`insert into inbox_search_fts (rowid, tenant, body) values (${a.rid}, ${a.tenant}, ${a.body})`))
const insertPgDocQ = prepared((db, a: Doc & { rid?: number; tsv: string }) =>
  compilable(
    db,
    sql`insert into inbox_search_docs (${sql.raw(a.rid !== undefined ? 'rid, ' : '')}workspace_id, mode, conversation_id, message_id, body, tsv)
    ${sql.raw(a.rid !== undefined ? 'overriding system value ' : '')}values (${sql.join([...(a.rid !== undefined ? [a.rid] : []), a.workspace_id, a.mode, a.conversation_id, a.message_id, a.body])}, to_tsvector('simple', ${a.tsv}))`,
  ),
)
/** Raw SQL as a prepared shape: it compiles against the executor it is given. */
const compilable = <O>(db: Executor, raw: RawBuilder<O>): Compilable<O> => ({ compile: () => raw.compile(db) })

/** Indexes a new message's content. */
export function indexMessage(db: Executor, m: { id: string; workspace_id: string; mode: Tenant['mode']; conversation_id: string; content: string }): Promise<void> {
  return insertDoc(db, { workspace_id: m.workspace_id, mode: m.mode, conversation_id: m.conversation_id, message_id: m.id, body: m.content })
}

/** Indexes a new conversation's subject and contact. */
export function indexConversation(
  db: Executor,
  c: { id: string; workspace_id: string; mode: Tenant['mode']; subject: string | null; contact_name: string | null; contact_email: string | null },
): Promise<void> {
  return insertDoc(db, { workspace_id: c.workspace_id, mode: c.mode, conversation_id: c.id, message_id: null, body: conversationText(c) })
}

/**
 * Replaces the text of one document (a redacted message, a corrected subject or contact), keeping its
 * rid: its place in the newest-first order is where it was written.
 */
export async function reindex(db: Executor, tenant: Tenant, by: { messageId: string } | { conversationId: string }, body: string): Promise<void> {
  let q = scoped(db, tenant).selectFrom('inbox_search_docs').select(['rid', 'conversation_id', 'message_id'])
  q = 'messageId' in by ? q.where('message_id', '=', by.messageId) : q.where('conversation_id', '=', by.conversationId).where('message_id', 'is', null)
  const doc = await q.executeTakeFirst()
  if (!doc) return
  await deleteDocs(db, tenant, [Number(doc.rid)])
  await insertDoc(db, { workspace_id: tenant.workspaceId, mode: tenant.mode, conversation_id: doc.conversation_id, message_id: doc.message_id, body }, Number(doc.rid))
}

async function deleteDocs(db: Executor, tenant: Tenant, rids: number[]): Promise<void> {
  if (rids.length === 0) return
  if (onSqlite(db)) {
    for (let i = 0; i < rids.length; i += 500) {
      const chunk = rids.slice(i, i + 500)
      await sql`delete from inbox_search_fts where rowid in (${sql.join(chunk)})`.execute(db)
    }
  }
  for (let i = 0; i < rids.length; i += 500)
    await scoped(db, tenant)
      .deleteFrom('inbox_search_docs')
      .where('rid', 'in', rids.slice(i, i + 500))
      .execute()
}

/** Everything indexed for these conversations (erasure, retention). */
export async function deleteDocsOfConversations(db: Executor, tenant: Tenant, ids: string[]): Promise<void> {
  if (ids.length === 0) return
  const rows = await scoped(db, tenant).selectFrom('inbox_search_docs').select('rid').where('conversation_id', 'in', ids).execute()
  await deleteDocs(
    db,
    tenant,
    rows.map((r) => Number(r.rid)),
  )
}

export interface SearchHit {
  rid: number
  conversation_id: string
  message_id: string | null
  body: string
}

/**
 * Documents of the tenant matching every word (the last as a prefix), newest first (rid desc), after
 * `before`. SQLite: FTS5 walks its postings in rowid order and stops at the limit, so no match is sorted.
 * PostgreSQL: a GIN index gives no order; the planner picks the backward walk of (tenant, rid) checking
 * each row for a common word (stops at the limit) or the GIN bitmap and a top-N sort for a rare one (cost
 * grows with the matches, which are few): docs/inbox.md "Search".
 */
export async function searchDocs(db: Executor, tenant: Tenant, words: string[], page: { before: number | null; take: number }): Promise<SearchHit[]> {
  if (onSqlite(db)) {
    // Rare words first: their own postings, every tenant's, newest first and at most RARE_MATCHES of them. Fewer
    // means that is all of them, so the tenant's are checked on those rows alone. ANDed with the tenant's token
    // instead, FTS5 seeks through the tenant's postings (one per document of the workspace) backwards: 0.4 ms
    // at 100,000 conversations, ~7 ms at a million, for a word that matches one document.
    const before = page.before !== null ? sql` and rowid < ${page.before}` : sql``
    const few = await sql<{ rid: number }>`select rowid as rid from inbox_search_fts where inbox_search_fts match ${ftsBodyMatch(words)}${before}
      order by rowid desc limit ${RARE_MATCHES}`.execute(db)
    if (few.rows.length < RARE_MATCHES) {
      if (few.rows.length === 0) return []
      const rows = await sql<SearchHit>`select rid, conversation_id, message_id, body from inbox_search_docs
        where rid in (select value from json_each(${JSON.stringify(few.rows.map((r) => Number(r.rid)))}))
        and workspace_id = ${tenant.workspaceId} and mode = ${tenant.mode}
        order by rid desc limit ${page.take}`.execute(db)
      return rows.rows.map((r) => ({ ...r, rid: Number(r.rid) }))
    }
    // CROSS JOIN keeps FTS5 the outer loop: left to itself, the planner may walk the tenant's documents
    // newest first and ask FTS5 about each one (seconds for a rare word at a million conversations).
    const rows = await sql<SearchHit>`select d.rid, d.conversation_id, d.message_id, d.body
      from inbox_search_fts f cross join inbox_search_docs d on d.rid = f.rowid
      where inbox_search_fts match ${ftsMatch(tenant, words)} and d.workspace_id = ${tenant.workspaceId} and d.mode = ${tenant.mode}${page.before !== null ? sql` and f.rowid < ${page.before}` : sql``}
      order by f.rowid desc limit ${page.take}`.execute(db)
    return rows.rows.map((r) => ({ ...r, rid: Number(r.rid) }))
  }
  // PostgreSQL: first the tenant's newest RECENT_WINDOW documents, walked backwards and checked: a common word
  // fills the page there. Else the GIN index finds every match (few, for a word not in the window) and they
  // are sorted: a materialised CTE, so the planner cannot fall back to walking the whole tenant for a word
  // it wrongly thinks common (2.2 s for a rare prefix at 100,000 conversations).
  const query = sql<boolean>`tsv @@ to_tsquery('simple', ${tsQuery(words)})`
  let recent = scoped(db, tenant)
    .selectFrom('inbox_search_docs')
    .select(['rid', 'conversation_id', 'message_id', 'body', sql<string>`tsv`.as('tsv')])
  if (page.before !== null) recent = recent.where('rid', '<', page.before)
  const window = await db
    .selectFrom(recent.orderBy('rid', 'desc').limit(RECENT_WINDOW).as('w'))
    .select(['w.rid', 'w.conversation_id', 'w.message_id', 'w.body'])
    .where(sql<boolean>`w.tsv @@ to_tsquery('simple', ${tsQuery(words)})`)
    .orderBy('w.rid', 'desc')
    .limit(page.take)
    .execute()
  if (window.length === page.take) return window.map((r) => ({ ...r, rid: Number(r.rid) }))
  // Then the words' own matches in every tenant, from the GIN index alone, at most RARE_MATCHES: fewer means
  // those are all, and the tenant's are picked from them here. With the tenant in the query the planner ANDs
  // the GIN bitmap with a b-tree bitmap of every document of the workspace (~100 ms at a million conversations).
  // A materialised CTE read up to the limit: planned without the LIMIT, which made a rare prefix look cheap to
  // find by a sequential scan of every document (2.7 s at 200,000 conversations); read lazily, so a word
  // common in other tenants stops at the limit.
  const rare = (ex: Executor) =>
    sql<SearchHit & { workspace_id: string; mode: string }>`with m as materialized (
      select rid, workspace_id, mode, conversation_id, message_id, body from inbox_search_docs where ${query})
    select * from m limit ${RARE_MATCHES}`.execute(ex)
  // Without parallel workers: the prefix's estimate (220,000 rows at a million conversations for one match)
  // makes a parallel plan look worth it, and starting the workers costs ~10 ms against 0.1 ms of work.
  const few = db.isTransaction
    ? await rare(db)
    : await db.transaction().execute(async (tx) => {
        await sql`set local max_parallel_workers_per_gather = 0`.execute(tx)
        return rare(tx)
      })
  if (few.rows.length < RARE_MATCHES) {
    return few.rows
      .map((r) => ({ ...r, rid: Number(r.rid) }))
      .filter((r) => r.workspace_id === tenant.workspaceId && r.mode === tenant.mode && (page.before === null || r.rid < page.before))
      .sort((a, b) => b.rid - a.rid)
      .slice(0, page.take)
      .map(({ rid, conversation_id, message_id, body }) => ({ rid, conversation_id, message_id, body }))
  }
  let all = scoped(db, tenant).selectFrom('inbox_search_docs').select(['rid', 'conversation_id', 'message_id', 'body']).where(query)
  if (page.before !== null) all = all.where('rid', '<', page.before)
  const rows = await db
    .with(
      (w) => w('m').materialized(),
      () => all,
    )
    .selectFrom('m')
    .selectAll()
    .orderBy('rid', 'desc')
    .limit(page.take)
    .execute()
  return rows.map((r) => ({ ...r, rid: Number(r.rid) }))
}

/**
 * A query whose words match fewer documents than this, in every tenant together, is answered from those
 * documents; more, and the tenant's own documents are searched (SQLite: FTS5 walks the tenant's postings;
 * PostgreSQL: the newest first, then every match).
 */
const RARE_MATCHES = 100

/** PostgreSQL: how many of the newest documents a search checks before it asks the GIN index. */
const RECENT_WINDOW = 2000
