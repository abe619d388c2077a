import { sql, SqliteAdapter, type Compilable, type RawBuilder } from 'kysely'
import type { Executor, Tx } from '../../kernel/db/database.js'
import { prepared } from '../../kernel/db/prepared.js'
import { scoped } from '../../kernel/db/scoped.js'
import type { Tenant } from '../../kernel/tenant.js'
import { termsOfFrequencies, type TermStats } from './knowledge-ranking.js'
import './knowledge.search.tables.js'

// The per-base term statistics of the index (document frequencies, chunk count, field lengths). They live
// in the database and change in the transaction that changes the index rows, so every node plans and
// scores a search from the same numbers the moment a document is ready.

const onSqlite = (db: Executor) => db.getExecutor().adapter instanceof SqliteAdapter

/**
 * A list as one string parameter, for the prepared statements of a search (a prepared query takes no
 * arrays: a list's length would change its SQL): a JSON array read with `json_each` on SQLite, an array
 * literal cast to `text[]` / `bigint[]` on PostgreSQL, each element quoted (a bare `null` would be NULL).
 */
export function listParam(db: Executor, values: readonly (string | number)[]): string {
  if (onSqlite(db)) return JSON.stringify(values)
  return `{${values.map((v) => (typeof v === 'number' ? String(v) : `"${v.replace(/["\\]/g, '\\$&')}"`)).join(',')}}`
}

/** A raw SQL statement as a prepared query's builder returns it (a RawBuilder compiles against an executor). */
export const compilable = <O>(db: Executor, raw: RawBuilder<O>): Compilable<O> => ({ compile: () => raw.compile(db) })

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
  // PostgreSQL: the base's row first. Processing a document locks its base before the statistics, and a
  // deletion updates the base's counters after them; without this, a deletion holding term rows could wait
  // for the base held by a processing job waiting for those term rows (a deadlock). SQLite has one writer.
  if (!onSqlite(tx)) {
    await sql`select id from knowledge_bases where id = ${kbId} and workspace_id = ${tenant.workspaceId} and mode = ${tenant.mode} for update`.execute(tx) // tenant: named here
  }
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

interface SearchStatsRow {
  /** 0: a searchable base (`term` its id, `lang` its language); 1: a base's totals; 2: a term's df in a base. */
  kind: number
  term: string | null
  lang: string | null
  n: number
  head_len: number
  body_len: number
}

/**
 * The searchable bases (not being deleted: all the tenant's, or those of `ids` that exist), their totals
 * and the document frequencies of `terms` in them: what a search needs before it selects candidates, in
 * one statement. Prepared: the lists travel as single parameters (listParam).
 */
const searchStatsRows = prepared((db: Executor, a: { workspaceId: string; mode: string; ids?: string; terms: string }) => {
  const sqlite = onSqlite(db)
  const only = a.ids === undefined ? sql`` : sqlite ? sql`and id in (select value from json_each(${a.ids}))` : sql`and id = any(${a.ids}::text[])`
  const terms = sqlite ? sql`(select value from json_each(${a.terms}))` : sql`(select unnest(${a.terms}::text[]))`
  const zero = sqlite ? sql`0` : sql`0::bigint`
  return compilable(
    db,
    // The bases are read through their tenant index in each part (b is a list of at most 200 ids).
    sql<SearchStatsRow>`with b as (select id from knowledge_bases
        where workspace_id = ${a.workspaceId} and mode = ${a.mode} and deleting = 0 ${only} order by id limit 200)
      select 0 as kind, id as term, language as lang, ${zero} as n, ${zero} as head_len, ${zero} as body_len from knowledge_bases
      where id in (select id from b) and workspace_id = ${a.workspaceId} and mode = ${a.mode}
      union all
      select 1, null, null, chunks, head_len, body_len from knowledge_index_stats
      where knowledge_base_id in (select id from b) and workspace_id = ${a.workspaceId} and mode = ${a.mode}
      union all
      select 2, term, null, df, ${zero}, ${zero} from knowledge_terms
      where knowledge_base_id in (select id from b) and term in ${terms} and workspace_id = ${a.workspaceId} and mode = ${a.mode}`, // tenant: named in each part (lists as one parameter)
  )
})

export interface SearchStats {
  bases: { id: string; language: string }[]
  stats: TermStats
}

/** The searchable bases and the statistics of `terms` over them, summed (the bases are searched together). */
export async function readSearchStats(db: Executor, tenant: Tenant, ids: string[] | undefined, terms: string[]): Promise<SearchStats> {
  const rows = await searchStatsRows.all(db, {
    workspaceId: tenant.workspaceId,
    mode: tenant.mode,
    ids: ids === undefined ? undefined : listParam(db, ids),
    terms: listParam(db, terms),
  })
  const bases: SearchStats['bases'] = []
  const df = new Map<string, number>()
  let chunks = 0
  let head = 0
  let body = 0
  for (const r of rows) {
    const kind = Number(r.kind)
    if (kind === 0) bases.push({ id: r.term!, language: r.lang! })
    else if (kind === 1) {
      chunks += Number(r.n)
      head += Number(r.head_len)
      body += Number(r.body_len)
    } else df.set(r.term!, (df.get(r.term!) ?? 0) + Number(r.n))
  }
  bases.sort((x, y) => (x.id < y.id ? -1 : x.id > y.id ? 1 : 0))
  return { bases, stats: { df, chunks, avgHead: chunks > 0 ? head / chunks : 0, avgBody: chunks > 0 ? body / chunks : 0 } }
}

/** The statistics of `terms` over the given bases, searched together (those not being deleted). */
export async function readStats(db: Executor, tenant: Tenant, kbIds: string[], terms: string[]): Promise<TermStats> {
  return (await readSearchStats(db, tenant, kbIds, terms)).stats
}
