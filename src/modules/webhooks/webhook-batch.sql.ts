import { sql, SqliteAdapter } from 'kysely'
import { scoped } from '../../kernel/db/scoped.js'
import type { Executor } from '../../kernel/db/database.js'
import type { Tenant } from '../../kernel/tenant.js'
import './webhooks.tables.js'

// The attempt path handles many deliveries per call, each engine its own way. SQLite (in process, no round
// trips): one prepared statement per row, built and compiled once, a primary-key lookup each. PostgreSQL (a
// round trip per statement): one statement for the whole batch, its ids as one text[] parameter and its
// rows as one JSON parameter, so the SQL text stays the same whatever the batch size.
//
// PostgreSQL plans: before a table has statistics (a young table: autovacuum analyzes it after a minute
// or so), the planner takes `workspace_id = $ and mode = $` for a one-row match, so a lookup by id through
// scoped() may walk one of the (workspace_id, mode, <column>, id) indexes over the whole workspace —
// measured 1.9 ms per lookup at 20,000 deliveries, and 1.9 s for a batch UPDATE whose join it drove. So
// each row is found through scoped() by its physical address, taken from the primary key (`lookup`:
// LATERAL … LIMIT 1 per id, a TID scan whatever the statistics say), and an UPDATE joins those rows by
// primary key. With statistics or without, a batch costs one index probe per row.
export const onSqlite = (db: Executor) => db.getExecutor().adapter instanceof SqliteAdapter
/** PostgreSQL: a list as the literal of one `text[]` parameter. */
export const pgTextArray = (values: readonly string[]): string => `{${values.map((v) => `"${v.replace(/[\\"]/g, '\\$&')}"`).join(',')}}`
export const anyOf = (list: string) => sql<string>`any(${list}::text[])`
/** PostgreSQL: the elements of a text[] parameter as a derived table with one column, `id`. */
export const idRows = (list: string) => sql<{ id: string }>`(select unnest(${list}::text[]) as id)`
/** PostgreSQL: the rows of a JSON array parameter as a derived table (`columns`: `name type, …`, a constant). */
export const jsonRows = <R>(json: string, columns: string) => sql<R>`(select * from json_to_recordset(${json}::json) as r(${sql.raw(columns)}))`
/**
 * PostgreSQL: the tenant's row of `table` whose id is `ref` (a column of the LATERAL join's left side): the
 * primary key gives the row's address, and the scoped query reads that one row (a TID scan) or nothing.
 */
export const lookup = <T extends 'webhook_deliveries' | 'webhook_attempts'>(eb: unknown, tenant: Tenant, table: T, ref: string) =>
  scoped(eb as Executor, tenant)
    .selectFrom(table)
    .selectAll(table)
    .where(sql<boolean>`${sql.ref(`${table}.ctid`)} = (select p.ctid from ${sql.table(table)} as p where p.id = ${sql.ref(ref)} limit 1)`)
    .limit(1)
export const deliveryLookup = (eb: unknown, tenant: Tenant, ref: string) => lookup(eb, tenant, 'webhook_deliveries', ref)
