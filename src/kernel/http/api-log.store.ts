import { randomFillSync } from 'node:crypto'
import { CompiledQuery } from 'kysely'
import type { Database, Engine, Executor } from '../db/database.js'
import { scoped } from '../db/scoped.js'
import type { Tenant } from '../tenant.js'
import '../db/kernel.tables.js'
import { ULID_ALPHABET, ulidTime } from '../ids.js'
import { apiLogIdBound, latencyBucket, type ApiLogEntry } from './api-log.js'

// The api_logs writes (one flush of the recorder, as raw multi-row statements) and the retention purge of
// the rows and rollups.

/** The three tables a flush writes, their columns, and for the rollups the key an upsert adds to. */
const TABLES = {
  api_logs: {
    columns: [
      'workspace_id',
      'mode',
      'id',
      'request_id',
      'method',
      'path',
      'operation_id',
      'status',
      'status_class',
      'duration_ms',
      'key_id',
      'oauth_app_id',
      'ip',
      'user_agent',
      'error_code',
      'created_at',
    ],
    conflict: null,
  },
  api_usage_days: {
    columns: ['workspace_id', 'mode', 'day', 'operation_id', 'key_id', 'status_class', 'count'],
    conflict: ['workspace_id', 'mode', 'day', 'operation_id', 'key_id', 'status_class'],
  },
  api_latency_days: {
    columns: ['workspace_id', 'mode', 'day', 'operation_id', 'bucket', 'count'],
    conflict: ['workspace_id', 'mode', 'day', 'operation_id', 'bucket'],
  },
} as const
type Table = keyof typeof TABLES

/**
 * Rows per statement. A flush is cut into statements of these sizes (largest first), so each table has five
 * SQL texts per engine, each prepared once (SQLite's statement cache or the writer thread's; PostgreSQL
 * parses a text it has seen quickly). Kysely's builder is skipped here: building and compiling a
 * 4,096-value query tree cost more than the insert itself.
 */
const CHUNKS = [256, 64, 16, 4, 1]

/** One statement of a flush: `key` names its SQL text (`<table>:<rows>`, statementText), `params` its values. */
export interface Statement {
  key: string
  params: unknown[]
}

const texts = new Map<string, string>()

/** The SQL text of a statement key on an engine: a multi-row INSERT (an upsert adding `count` for the rollups). */
export function statementText(engine: Engine, key: string): string {
  const cacheKey = `${engine}:${key}`
  let text = texts.get(cacheKey)
  if (!text) {
    const [table, rows] = key.split(':') as [Table, string]
    const { columns, conflict } = TABLES[table]
    const n = columns.length
    const tuples: string[] = []
    for (let r = 0; r < Number(rows); r++) tuples.push(`(${columns.map((_, c) => (engine === 'postgres' ? `$${r * n + c + 1}` : '?')).join(', ')})`)
    text = `insert into "${table}" (${columns.map((c) => `"${c}"`).join(', ')}) values ${tuples.join(', ')}`
    if (conflict) text += ` on conflict (${conflict.map((c) => `"${c}"`).join(', ')}) do update set "count" = "${table}"."count" + excluded."count"`
    texts.set(cacheKey, text)
  }
  return text
}

/** Every statement key a flush may use (the SQLite writer thread prepares them from these). */
export const STATEMENT_KEYS = Object.keys(TABLES).flatMap((t) => CHUNKS.map((rows) => `${t}:${rows}`))

/** `values` (rows of `width` values, flattened) as statements of the chunk sizes. */
function chunked(table: Table, values: unknown[], out: Statement[]): void {
  const width = TABLES[table].columns.length
  const rows = values.length / width
  let at = 0
  for (const size of CHUNKS) {
    while (rows - at >= size) {
      out.push({ key: `${table}:${size}`, params: values.slice(at * width, (at + size) * width) })
      at += size
    }
  }
}

const LETTERS = Buffer.from(ULID_ALPHABET, 'latin1')

/** `alog_` + the entry's millisecond + 80 random bits: time ranges are id ranges (apiLogIdBound). */
function idsFor(entries: ApiLogEntry[]): string[] {
  const random = randomFillSync(Buffer.alloc(entries.length * 16))
  for (let i = 0; i < random.length; i++) random[i] = LETTERS[random[i] & 31]
  const ids = new Array<string>(entries.length)
  let lastMs = -1
  let time = ''
  for (let i = 0; i < entries.length; i++) {
    const ms = entries[i].at
    if (ms !== lastMs) {
      lastMs = ms
      time = ulidTime(ms)
    }
    ids[i] = `alog_${time}${random.toString('latin1', i * 16, i * 16 + 16)}`
  }
  return ids
}

/** One flush as statements: the rows, then the day rollups (usage by operation, key and status class; latency histograms). */
export function flushStatements(entries: ApiLogEntry[]): Statement[] {
  const ids = idsFor(entries)
  const width = TABLES.api_logs.columns.length
  const values: unknown[] = new Array(entries.length * width)
  const usage = new Map<string, unknown[]>()
  const latency = new Map<string, unknown[]>()
  let dayStart = -1
  let dayName = ''
  for (let i = 0; i < entries.length; i++) {
    const e = entries[i]
    const created = new Date(e.at).toISOString()
    const cls = Math.floor(e.status / 100)
    let p = i * width
    values[p++] = e.workspaceId
    values[p++] = e.mode
    values[p++] = ids[i]
    values[p++] = e.requestId
    values[p++] = e.method
    values[p++] = e.path
    values[p++] = e.operationId
    values[p++] = e.status
    values[p++] = cls
    values[p++] = Math.round(e.durationMs * 1000) / 1000
    values[p++] = e.keyId
    values[p++] = e.oauthAppId
    values[p++] = e.ip
    values[p++] = e.userAgent
    values[p++] = e.errorCode
    values[p++] = created
    if (e.at < dayStart || e.at >= dayStart + 86_400_000) {
      dayStart = e.at - (e.at % 86_400_000)
      dayName = created.slice(0, 10)
    }
    if (e.counted) continue
    // Usage by credential: an OAuth app's requests count under the app, whichever token it used.
    const op = e.operationId ?? ''
    const credential = e.oauthAppId ?? e.keyId ?? ''
    const uk = `${e.workspaceId}|${e.mode}|${dayName}|${op}|${credential}|${cls}`
    const u = usage.get(uk)
    if (u) (u[6] as number)++
    else usage.set(uk, [e.workspaceId, e.mode, dayName, op, credential, cls, 1])
    const bucket = latencyBucket(e.durationMs)
    const lk = `${e.workspaceId}|${e.mode}|${dayName}|${op}|${bucket}`
    const l = latency.get(lk)
    if (l) (l[5] as number)++
    else latency.set(lk, [e.workspaceId, e.mode, dayName, op, bucket, 1])
  }
  const out: Statement[] = []
  chunked('api_logs', values, out)
  chunked('api_usage_days', [...usage.values()].flat(), out)
  chunked('api_latency_days', [...latency.values()].flat(), out)
  return out
}

/** Runs a flush's statements in one transaction on the service's own connection (PostgreSQL, or SQLite without the writer thread). */
export async function runStatements(database: Database, statements: Statement[]): Promise<void> {
  await database.db.transaction().execute(async (tx) => {
    for (const s of statements) await tx.executeQuery(CompiledQuery.raw(statementText(database.engine, s.key), s.params))
  })
}

// ---- retention (the compliance module's `api_logs` class) ----

/** Log rows older than `before` (ISO), plus the usage rollup rows of days before its day. */
export async function countApiLogsBefore(db: Executor, tenant: Tenant, before: string): Promise<number> {
  const day = before.slice(0, 10)
  const [logs, usage, latency] = await Promise.all([
    scoped(db, tenant)
      .selectFrom('api_logs')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .where('id', '<', apiLogIdBound(before))
      .executeTakeFirstOrThrow(),
    scoped(db, tenant)
      .selectFrom('api_usage_days')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .where('day', '<', day)
      .executeTakeFirstOrThrow(),
    scoped(db, tenant)
      .selectFrom('api_latency_days')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .where('day', '<', day)
      .executeTakeFirstOrThrow(),
  ])
  return Number(logs.n) + Number(usage.n) + Number(latency.n)
}

/**
 * Deletes what countApiLogsBefore counts, oldest log rows first (at most `limit`), then whole days of the
 * rollups while fewer than `limit` rows went: a batch may exceed `limit` by one day of one rollup table.
 */
export async function purgeApiLogsBefore(db: Executor, tenant: Tenant, before: string, limit: number): Promise<number> {
  let n = 0
  const ids = await scoped(db, tenant).selectFrom('api_logs').select('id').where('id', '<', apiLogIdBound(before)).orderBy('id').limit(limit).execute()
  if (ids.length > 0) {
    const r = await scoped(db, tenant)
      .deleteFrom('api_logs')
      .where(
        'id',
        'in',
        ids.map((x) => x.id),
      )
      .executeTakeFirst()
    n += Number(r.numDeletedRows)
  }
  // Then the rollups, a whole day of one table at a time, until the batch is full.
  const day = before.slice(0, 10)
  for (const table of ['api_usage_days', 'api_latency_days'] as const) {
    while (n < limit) {
      const oldest = await scoped(db, tenant).selectFrom(table).select('day').where('day', '<', day).orderBy('day').limit(1).executeTakeFirst()
      if (!oldest) break
      const r = await scoped(db, tenant).deleteFrom(table).where('day', '=', oldest.day).executeTakeFirst()
      n += Number(r.numDeletedRows)
    }
  }
  return n
}
