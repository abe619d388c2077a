import assert from 'node:assert/strict'
import { after, before, describe, it } from 'node:test'
import { ManualClock } from '../../../kernel/clock.js'
import { createTestApp, get, ok, patch, type TestApp } from '../../../../test/helpers.js'

// The compliance module's `api_logs` retention class purges the request log rows and the usage rollups.
describe('API logs under a retention policy', () => {
  let h: TestApp
  const clock = new ManualClock(Date.parse('2026-11-29T09:00:00Z'))
  const tenant = () => ({ workspaceId: h.a.workspaceId, mode: 'live' as const })
  before(async () => {
    h = await createTestApp({ clock })
    const add = (at: string, i: number) =>
      h.app.kernel.apiLogs.add({
        workspaceId: h.a.workspaceId,
        mode: 'live',
        at: Date.parse(at) + i,
        requestId: `req_ret_${at}_${i}`,
        method: 'GET',
        path: '/v2/leads',
        operationId: 'listLeads',
        status: 200,
        durationMs: 2 + i,
        keyId: 'key_R',
        oauthAppId: null,
        ip: null,
        userAgent: null,
        errorCode: null,
      })
    for (let i = 0; i < 3; i++) add('2026-11-20T10:00:00Z', i)
    for (let i = 0; i < 2; i++) add('2026-11-29T08:00:00Z', i)
    await h.app.kernel.apiLogs.flush()
  })
  after(() => h.close())

  it('a dry run counts what enforcement deletes: log rows before the cutoff and the rollups of earlier days; newer ones stay', async () => {
    const db = h.app.kernel.db
    const n = (r: { n: unknown }) => Number(r.n)
    const count = async (table: 'api_logs' | 'api_usage_days' | 'api_latency_days', day: string) =>
      table === 'api_logs'
        ? n(
            await db
              .selectFrom('api_logs')
              .select((eb) => eb.fn.countAll().as('n'))
              .where('created_at', 'like', `${day}%`)
              .executeTakeFirstOrThrow(),
          )
        : n(
            await db
              .selectFrom(table)
              .select((eb) => eb.fn.countAll().as('n'))
              .where('day', '=', day)
              .executeTakeFirstOrThrow(),
          )
    const oldUsage = await count('api_usage_days', '2026-11-20')
    assert.equal(oldUsage, 1)
    const oldLatency = await count('api_latency_days', '2026-11-20')
    assert.equal(oldLatency, 3, 'durations 2, 3 and 4 ms fall in three buckets')
    const dry = await ok(patch(h, '/compliance/retention', { policies: { api_logs: 5 }, dry_run: true }))
    assert.equal(dry.dry_run.api_logs, 3 + oldUsage + oldLatency)
    await ok(patch(h, '/compliance/retention', { policies: { api_logs: 5 } }))
    await h.app.kernel.apiLogs.flush()
    const run = await h.app.services.compliance.retention.enforce(tenant())
    assert.equal(JSON.parse(run!.deleted).api_logs.deleted, dry.dry_run.api_logs)
    assert.equal(await count('api_logs', '2026-11-20'), 0)
    assert.equal((await count('api_logs', '2026-11-29')) >= 2, true)
    assert.equal(await count('api_usage_days', '2026-11-20'), 0)
    assert.equal(await count('api_latency_days', '2026-11-20'), 0)
    const usage = await ok(get(h, '/usage?from=2026-11-20&to=2026-11-29'))
    assert.equal(usage.days[0].requests, 0)
    assert.ok(usage.days.at(-1).requests >= 2)
    const logs = await ok(get(h, '/api-logs?key_id=key_R'))
    assert.deepEqual(
      logs.data.map((e: any) => e.created_at.slice(0, 10)),
      ['2026-11-29', '2026-11-29'],
    )
  })
})
