import type { Executor } from '../../../kernel/db/database.js'
import type { ApiLogsTable } from '../../../kernel/db/kernel.tables.js'
import { scoped } from '../../../kernel/db/scoped.js'
import { apiLogIdBound } from '../../../kernel/http/api-log.js'
import type { Tenant } from '../../../kernel/tenant.js'
import type { ListApiLogsQueryT } from './logs.schemas.js'

// The SQL of API logs and usage: the kernel writes these tables (kernel/http/api-log.store.ts); this part
// reads them. Every filter has an index (workspace_id, mode, <column>, id), walked newest first — for status
// class and method a partial one without the dense 2xx and GET rows; a time range is an id range (ids carry
// the request's millisecond), so it narrows whichever index is used.

type Page = { after: string | null; limit: number }

export function listApiLogs(db: Executor, tenant: Tenant, q: ListApiLogsQueryT, page: Page): Promise<ApiLogsTable[]> {
  let s = scoped(db, tenant).selectFrom('api_logs').selectAll()
  // Status classes and methods: 2xx and GET walk the primary key (nearly every row matches); the others
  // their partial index, whose predicate the query repeats so that both engines see it applies.
  const classes = new Set<number>()
  if (q.status !== undefined) classes.add(Math.floor(q.status / 100))
  if (q.status_class) classes.add(Number(q.status_class[0]))
  for (const c of classes) s = s.where('status_class', '=', c)
  if ([...classes].some((c) => c !== 2)) s = s.where('status_class', '<>', 2)
  if (q.status !== undefined) s = s.where('status', '=', q.status)
  if (q.method) s = s.where('method', '=', q.method)
  if (q.method && q.method !== 'GET') s = s.where('method', '<>', 'GET')
  if (q.operation_id) s = s.where('operation_id', '=', q.operation_id)
  if (q.key_id) s = s.where('key_id', '=', q.key_id)
  if (q.request_id) s = s.where('request_id', '=', q.request_id)
  if (q.created_gte) s = s.where('id', '>=', apiLogIdBound(q.created_gte))
  if (q.created_lt) s = s.where('id', '<', apiLogIdBound(q.created_lt))
  if (page.after) s = s.where('id', '<', page.after)
  return s
    .orderBy('id', 'desc')
    .limit(page.limit + 1)
    .execute()
}

/** Requests per day, operation, credential and status class over UTC days `from`..`to` (inclusive). */
export async function usageDays(db: Executor, tenant: Tenant, from: string, to: string) {
  const rows = await scoped(db, tenant).selectFrom('api_usage_days').select(['day', 'operation_id', 'key_id', 'status_class', 'count']).where('day', '>=', from).where('day', '<=', to).execute()
  return rows.map((r) => ({ ...r, status_class: Number(r.status_class), count: Number(r.count) }))
}

/** Latency histogram per operation over the days, buckets merged across days. */
export async function latencyBuckets(db: Executor, tenant: Tenant, from: string, to: string) {
  const rows = await scoped(db, tenant)
    .selectFrom('api_latency_days')
    .select((eb) => ['operation_id', 'bucket', eb.fn.sum<number>('count').as('n')])
    .where('day', '>=', from)
    .where('day', '<=', to)
    .groupBy(['operation_id', 'bucket'])
    .execute()
  return rows.map((r) => ({ operation_id: r.operation_id, bucket: Number(r.bucket), n: Number(r.n) }))
}
