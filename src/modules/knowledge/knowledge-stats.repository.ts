import { sql, SqliteAdapter, type RawBuilder } from 'kysely'
import type { Executor, Tx } from '../../kernel/db/database.js'
import { scoped } from '../../kernel/db/scoped.js'
import type { Tenant } from '../../kernel/tenant.js'
import { termsOfFrequencies, type TermStats } from './knowledge-ranking.js'
import './knowledge.search.tables.js'

// The per-base term statistics of the index (document frequencies, chunk count, field lengths). They live
// in the database and change in the transaction that changes the index rows, so every node plans and
// scores a search from the same numbers the moment a document is ready.

const onSqlite = (db: Executor) => db.getExecutor().adapter instanceof SqliteAdapter

/**
 * `(…values)` for an IN as one parameter (a JSON array on SQLite, a typed array on PostgreSQL): the SQL
 * text is the same whatever the list's length, so a search compiles nothing and its statements are
 * prepared once (a Kysely `in` list builds and caches one statement per length).
 */
export function valuesIn(db: Executor, values: readonly (string | number)[], type: 'text' | 'bigint' = 'text'): RawBuilder<unknown> {
  return onSqlite(db)
    ? sql`(select value from json_each(${JSON.stringify(values)}))`
    : type === 'text'
      ? sql`(select unnest(${values}::text[]))`
      : sql`(select unnest(${values}::bigint[]))`
}

/** A change of a base's statistics: + for chunks written, − for chunks removed. */
export class StatsDelta {
  chunks = 0
  head = 0
  body = 0
  readonly df = new Map<string, number>()

  add(row: { terms: string; head_len: number; body_len: number }, sign: 1 | -1): void {
    this.chunks += sign
    this.head += sign * Number(row.head_len)
    this.body += sign * Number(row.body_len)
    for (const t of termsOfFrequencies(row.terms)) this.df.set(t, (this.df.get(t) ?? 0) + sign)
  }
}

/**
 * Applies a delta to a base's statistics, in statements whose text never changes (the terms travel as one
 * JSON parameter: prepared-statement caches stay small). Terms are upserted in sorted order, so two
 * transactions indexing documents of the same base lock the shared rows in the same order (PostgreSQL:
 * no deadlock).
 */
export async function applyStats(tx: Tx, tenant: Tenant, kbId: string, delta: StatsDelta): Promise<void> {
  const changed = [...delta.df].filter(([, n]) => n !== 0).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
  if (changed.length > 0) {
    const terms = JSON.stringify(changed)
    const sqlite = onSqlite(tx)
    const rows = sqlite
      ? sql`select json_extract(value, '$[0]') as term, json_extract(value, '$[1]') as df from json_each(${terms}) order by key`
      : sql`select value ->> 0 as term, (value ->> 1)::int as df from json_array_elements(${terms}::json) with ordinality as e(value, n) order by n`
    await sql`insert into knowledge_terms (workspace_id, mode, knowledge_base_id, term, df)
      select ${tenant.workspaceId}, ${tenant.mode}, ${kbId}, r.term, r.df from (${rows}) r where true
      on conflict (knowledge_base_id, term) do update set df = knowledge_terms.df + excluded.df`.execute(tx)
    const gone = JSON.stringify(changed.filter(([, n]) => n < 0).map(([t]) => t))
    if (gone !== '[]') {
      const list = sqlite ? sql`select value from json_each(${gone})` : sql`select json_array_elements_text(${gone}::json)`
      await sql`delete from knowledge_terms where knowledge_base_id = ${kbId} and workspace_id = ${tenant.workspaceId} and mode = ${tenant.mode}
        and term in (${list}) and df <= 0`.execute(tx) // tenant: named here (the term list is a JSON parameter scoped() cannot build)
    }
  }
  if (delta.chunks === 0 && delta.head === 0 && delta.body === 0) return
  await tx
    .insertInto('knowledge_index_stats')
    .values({ knowledge_base_id: kbId, workspace_id: tenant.workspaceId, mode: tenant.mode, chunks: delta.chunks, head_len: delta.head, body_len: delta.body })
    .onConflict((oc) =>
      oc.column('knowledge_base_id').doUpdateSet({
        chunks: sql<number>`knowledge_index_stats.chunks + excluded.chunks`,
        head_len: sql<number>`knowledge_index_stats.head_len + excluded.head_len`,
        body_len: sql<number>`knowledge_index_stats.body_len + excluded.body_len`,
      }),
    )
    .execute()
}

/** Forgets a base's statistics (the base is being deleted with its whole index). */
export async function dropStats(tx: Tx, tenant: Tenant, kbId: string): Promise<void> {
  await scoped(tx, tenant).deleteFrom('knowledge_terms').where('knowledge_terms.knowledge_base_id', '=', kbId).execute()
  await scoped(tx, tenant).deleteFrom('knowledge_index_stats').where('knowledge_index_stats.knowledge_base_id', '=', kbId).execute()
}

/** The statistics of `terms` over the bases searched together (two indexed look-ups). */
export async function readStats(db: Executor, tenant: Tenant, kbIds: string[], terms: string[]): Promise<TermStats> {
  const bases = valuesIn(db, kbIds)
  const [dfs, totals] = await Promise.all([
    terms.length === 0
      ? { rows: [] }
      : sql<{ term: string; df: number }>`select term, df from knowledge_terms
          where workspace_id = ${tenant.workspaceId} and mode = ${tenant.mode} and knowledge_base_id in ${bases} and term in ${valuesIn(db, terms)}`.execute(db), // tenant: named here (lists as one parameter)
    sql<{ chunks: number; head_len: number; body_len: number }>`select chunks, head_len, body_len from knowledge_index_stats
      where workspace_id = ${tenant.workspaceId} and mode = ${tenant.mode} and knowledge_base_id in ${bases}`.execute(db), // tenant: as above
  ])
  const df = new Map<string, number>()
  for (const r of dfs.rows) df.set(r.term, (df.get(r.term) ?? 0) + Number(r.df))
  const chunks = totals.rows.reduce((n, r) => n + Number(r.chunks), 0)
  const head = totals.rows.reduce((n, r) => n + Number(r.head_len), 0)
  const body = totals.rows.reduce((n, r) => n + Number(r.body_len), 0)
  return { df, chunks, avgHead: chunks > 0 ? head / chunks : 0, avgBody: chunks > 0 ? body / chunks : 0 }
}
