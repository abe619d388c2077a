import { sql } from 'kysely'
import type { Executor, Tables } from './database.js'
import { scoped, type TenantTable } from './scoped.js'
import type { Tenant } from '../tenant.js'

/** Columns of a tenant table, by name (Kysely cannot type a reference into a generic table). */
type Column<T extends TenantTable> = keyof Tables[T] & string

/**
 * Per UTC day in [from, to] (YYYY-MM-DD, inclusive) of one tenant, for usage reports: the rows of `table`
 * by the day of their ISO timestamp column `at` (default `created_at`), counted, or with `sum` the total
 * of those integer columns. Timestamps are ISO text on both engines, so the day is its first 10 characters
 * and the range a text comparison an index on the column serves. Days without rows are absent.
 */
export async function countPerDay<T extends TenantTable>(
  db: Executor,
  tenant: Tenant,
  table: T,
  from: string,
  to: string,
  opts: { at?: Column<T>; sum?: Column<T>[]; /** Only rows whose column has this value (e.g. one type of activity). */ where?: [Column<T>, string] } = {},
): Promise<{ day: string; count: number }[]> {
  const at = sql.ref(opts.at ?? 'created_at')
  const day = sql<string>`substr(${at}, 1, 10)`
  const value = opts.sum?.length
    ? sql<string | number>`sum(${sql.join(
        opts.sum.map((c) => sql.ref(c)),
        sql` + `,
      )})`
    : sql<string | number>`count(*)`
  const dayAfter = new Date(Date.parse(to) + 86400_000).toISOString().slice(0, 10)
  const only = opts.where ? sql<boolean>` and ${sql.ref(opts.where[0])} = ${opts.where[1]}` : sql``
  const rows = await scoped(db, tenant)
    .selectFrom(table)
    .select([day.as('day'), value.as('count')])
    .where(sql<boolean>`${at} >= ${from} and ${at} < ${dayAfter}${only}`)
    .groupBy(day)
    .execute()
  return rows.map((r) => ({ day: r.day as string, count: Number(r.count) }))
}
