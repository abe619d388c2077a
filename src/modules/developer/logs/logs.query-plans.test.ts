import assert from 'node:assert/strict'
import { after, before, describe, it } from 'node:test'
import { createQueryId, sql, type KyselyPlugin, type PluginTransformQueryArgs, type PluginTransformResultArgs, type QueryResult, type RootOperationNode, type UnknownRow } from 'kysely'
import type { Db } from '../../../kernel/db/database.js'
import { countApiLogsBefore, purgeApiLogsBefore } from '../../../kernel/http/api-log.store.js'
import { createTestApp, ENGINE, type TestApp } from '../../../../test/helpers.js'
import * as repo from './logs.repository.js'

// Every filter of listApiLogs, the usage report and the retention purge use an index on both engines (the
// method of test/query-plans.test.ts: the repositories' own SQL, explained by the engine).
class Recorder implements KyselyPlugin {
  readonly nodes: RootOperationNode[] = []
  transformQuery({ node }: PluginTransformQueryArgs): RootOperationNode {
    this.nodes.push(node)
    return node
  }
  async transformResult({ result }: PluginTransformResultArgs): Promise<QueryResult<UnknownRow>> {
    return result
  }
}

async function plansOf(db: Db, run: (db: Db) => Promise<unknown>): Promise<string[]> {
  const recorder = new Recorder()
  await run(db.withPlugin(recorder))
  const out: string[] = []
  for (const node of recorder.nodes) {
    const q = db.getExecutor().compileQuery(node, createQueryId())
    const explained = await db.executeQuery({ ...q, sql: `${ENGINE === 'sqlite' ? 'explain query plan' : 'explain'} ${q.sql}` })
    out.push(...explained.rows.map((r) => String((r as Record<string, unknown>)[ENGINE === 'sqlite' ? 'detail' : 'QUERY PLAN'])))
  }
  return out
}

const fullScans = (plan: string[]) => plan.filter((line) => (ENGINE === 'sqlite' ? /^SCAN \w+$/.test(line.trim()) : /Seq Scan on/.test(line)))
/** A sort step: the index did not give the list's order. */
const sorts = (plan: string[]) => plan.filter((line) => (ENGINE === 'sqlite' ? /USE TEMP B-TREE FOR ORDER BY/.test(line) : /^\s*(->\s*)?Sort\b/.test(line)))

describe(`query plans of API logs and usage (${ENGINE})`, () => {
  let h: TestApp
  let db: Db
  const t = () => ({ workspaceId: h.a.workspaceId, mode: 'live' as const })
  before(async () => {
    h = await createTestApp()
    db = h.app.kernel.db
  })
  after(() => h.close())

  const page = { after: 'alog_01JD0000000000000000000000', limit: 20 }
  const range = { created_gte: '2026-11-01T00:00:00Z', created_lt: '2026-12-01T00:00:00Z' }
  // SQLite names a primary key's index itself.
  const pkOf = (table: string) => (ENGINE === 'sqlite' ? `sqlite_autoindex_${table}_1` : `${table}_pk`)
  const pk = pkOf('api_logs')
  const lists: [string, Parameters<typeof repo.listApiLogs>[2], string][] = [
    ['no filter', {}, pk],
    ['a time range', range, pk],
    ['?status', { status: 404 }, 'api_logs_status_class'],
    ['?status_class', { status_class: '5xx' }, 'api_logs_status_class'],
    ['?status and ?status_class', { status: 503, status_class: '5xx' }, 'api_logs_status_class'],
    // The dense values walk the primary key: nearly every row matches.
    ['?status=200', { status: 200 }, pk],
    ['?status_class=2xx', { status_class: '2xx' }, pk],
    ['?method', { method: 'POST' }, 'api_logs_method'],
    ['?method=GET', { method: 'GET' }, pk],
    ['?operation_id', { operation_id: 'sendMessage' }, 'api_logs_operation_id'],
    ['?key_id', { key_id: 'key_01JD0000000000000000000000' }, 'api_logs_key_id'],
    ['?request_id', { request_id: 'req_abc' }, 'api_logs_request_id'],
    ['?operation_id and a time range', { operation_id: 'sendMessage', ...range }, 'api_logs_operation_id'],
  ]
  const cases: [string, (db: Db) => Promise<unknown>, string, boolean][] = [
    ...lists.map(([name, q, index]): [string, (db: Db) => Promise<unknown>, string, boolean] => [`listApiLogs ${name}`, (d) => repo.listApiLogs(d, t(), q, page), index, true]),
    ['usage: requests per day', (d) => repo.usageDays(d, t(), '2026-11-01', '2026-11-30'), pkOf('api_usage_days'), false],
    ['usage: latency histograms', (d) => repo.latencyBuckets(d, t(), '2026-11-01', '2026-11-30'), pkOf('api_latency_days'), false],
    // A count may take any (tenant, …, id) index: each holds every row of the tenant.
    ['retention: count', (d) => countApiLogsBefore(d, t(), '2026-11-01T00:00:00Z'), 'api_logs', false],
    ['retention: purge', (d) => purgeApiLogsBefore(d, t(), '2026-11-01T00:00:00Z', 500), pk, false],
  ]

  for (const [name, run, index, ordered] of cases) {
    it(`${name} uses ${index}${ordered ? ', in list order' : ''}`, async () => {
      const plan = await db.transaction().execute(async (tx) => {
        if (ENGINE === 'postgres') await sql`set local enable_seqscan = off`.execute(tx)
        return plansOf(tx as unknown as Db, run)
      })
      assert.ok(plan.length > 0, 'no plan recorded')
      assert.deepEqual(fullScans(plan), [], plan.join('\n'))
      assert.ok(
        plan.some((line) => line.includes(index)),
        `${index} not used:\n${plan.join('\n')}`,
      )
      if (ordered) assert.deepEqual(sorts(plan), [], `sorted after the index:\n${plan.join('\n')}`)
    })
  }
})
