import assert from 'node:assert/strict'
import { after, before, describe, it } from 'node:test'
import { ManualClock } from '../../../../kernel/clock.js'
import type { ApiLogEntry } from '../../../../kernel/http/api-log.js'
import { assertProblem, createTestApp, get, ok, type TestApp } from '../../../../../test/helpers.js'

describe('getPublicApiUsage', () => {
  let h: TestApp
  const clock = new ManualClock(Date.parse('2026-11-29T09:00:00Z'))
  before(async () => {
    h = await createTestApp({ clock })
    // A known set of requests, written as the kernel writes them (through the recorder's buffer).
    const entry = (day: string, i: number, e: Partial<ApiLogEntry>): ApiLogEntry => ({
      workspaceId: h.a.workspaceId,
      mode: 'live',
      at: Date.parse(`${day}T10:00:00Z`) + i,
      requestId: `req_known_${day}_${i}`,
      method: 'GET',
      path: '/v2/leads',
      operationId: 'listLeads',
      status: 200,
      durationMs: 1,
      keyId: 'key_K2',
      oauthAppId: null,
      ip: '127.0.0.1',
      userAgent: null,
      errorCode: null,
      ...e,
    })
    const logs = h.app.kernel.apiLogs
    // 2026-11-20: createLead with key K1, durations 1..10 ms, the last two 422.
    for (let i = 1; i <= 10; i++) logs.add(entry('2026-11-20', i, { method: 'POST', operationId: 'createLead', keyId: 'key_K1', durationMs: i, status: i > 8 ? 422 : 201 }))
    // 2026-11-21: listLeads with K2, durations 1..100 ms; five 500s with K1 at 1 s; one unrouted 404 with K1.
    for (let i = 1; i <= 100; i++) logs.add(entry('2026-11-21', i, { durationMs: i }))
    for (let i = 101; i <= 105; i++) logs.add(entry('2026-11-21', i, { keyId: 'key_K1', durationMs: 1000, status: 500 }))
    logs.add(entry('2026-11-21', 200, { operationId: null, path: '/v2/nothing', keyId: 'key_K1', status: 404, durationMs: 0.4 }))
    // An OAuth app's requests count under the app, whichever grant they used.
    logs.add(entry('2026-11-21', 300, { keyId: 'ogr_1', oauthAppId: 'oapp_X', durationMs: 3 }))
    logs.add(entry('2026-11-21', 301, { keyId: 'ogr_2', oauthAppId: 'oapp_X', durationMs: 3 }))
    // Another workspace, and the sandbox of this one, the same day.
    logs.add(entry('2026-11-21', 400, { workspaceId: h.b.workspaceId }))
    logs.add(entry('2026-11-21', 401, { mode: 'test' }))
    await logs.flush()
  })
  after(() => h.close())

  it('counts requests per day by operation, status class and key, and reads p50/p95 per operation', async () => {
    const u = await ok(get(h, '/usage?from=2026-11-20&to=2026-11-22'))
    assert.equal(u.object, 'api_usage')
    assert.equal(u.livemode, true)
    assert.equal(u.requests, 118)
    assert.deepEqual(u.status_classes, { '1xx': 0, '2xx': 110, '3xx': 0, '4xx': 3, '5xx': 5 })
    assert.deepEqual(
      u.days.map((d: any) => [d.date, d.requests]),
      [
        ['2026-11-20', 10],
        ['2026-11-21', 108],
        ['2026-11-22', 0],
      ],
    )
    const [d20, d21, d22] = u.days
    assert.deepEqual(d20.status_classes, { '1xx': 0, '2xx': 8, '3xx': 0, '4xx': 2, '5xx': 0 })
    assert.deepEqual(d20.operations, [{ operation_id: 'createLead', requests: 10 }])
    assert.deepEqual(d20.keys, [{ key_id: 'key_K1', requests: 10 }])
    assert.deepEqual(d21.operations, [
      { operation_id: 'listLeads', requests: 107 },
      { operation_id: null, requests: 1 },
    ])
    assert.deepEqual(d21.keys, [
      { key_id: 'key_K2', requests: 100 },
      { key_id: 'key_K1', requests: 6 },
      { key_id: 'oapp_X', requests: 2 },
    ])
    assert.deepEqual(d22, { date: '2026-11-22', requests: 0, status_classes: { '1xx': 0, '2xx': 0, '3xx': 0, '4xx': 0, '5xx': 0 }, operations: [], keys: [] })

    const ops = new Map(u.operations.map((o: any) => [o.operation_id, o]))
    assert.deepEqual(
      u.operations.map((o: any) => [o.operation_id, o.requests, o.errors]),
      [
        ['listLeads', 107, 5],
        ['createLead', 10, 2],
        [null, 1, 1],
      ],
    )
    // Nearest rank: listLeads' 107 durations (1..100, 3, 3, five of 1000): p50 is the 54th = 52 ms, p95 the 102nd = 100 ms.
    // createLead's 1..10: p50 the 5th = 5 ms, p95 the 10th = 10 ms. Each read from a 5 % bucket: ≥ exact, < 5 % above.
    const near = (got: number, exact: number) => assert.ok(got >= exact && got <= exact * 1.05, `${got} for ${exact}`)
    near((ops.get('listLeads') as any).p50_ms, 52)
    near((ops.get('listLeads') as any).p95_ms, 100)
    near((ops.get('createLead') as any).p50_ms, 5)
    near((ops.get('createLead') as any).p95_ms, 10)
    near((ops.get(null) as any).p50_ms, 0.4)
  })

  it('another workspace and the sandbox see only their own requests', async () => {
    const b = await ok(get(h, '/usage?from=2026-11-20&to=2026-11-22', h.b.live))
    assert.equal(b.requests, 1)
    const sandbox = await ok(h.request({ method: 'GET', url: '/sandbox/v2/usage?from=2026-11-20&to=2026-11-22', key: h.a.test }))
    assert.equal(sandbox.requests, 1)
    assert.equal(sandbox.livemode, false)
  })

  it('the default period is the last 7 days, today included, and counts the API calls themselves', async () => {
    const first = await ok(get(h, '/usage'))
    assert.equal(first.from, '2026-11-23')
    assert.equal(first.to, '2026-11-29')
    assert.equal(first.days.length, 7)
    const again = await ok(get(h, '/usage'))
    const today = again.days.at(-1)
    assert.ok(
      today.operations.some((o: any) => o.operation_id === 'getPublicApiUsage' && o.requests >= 1),
      JSON.stringify(today),
    )
  })

  it('a period is at most 90 days and must not end before it starts', async () => {
    await ok(get(h, '/usage?from=2026-09-01&to=2026-11-29'))
    assertProblem(await get(h, '/usage?from=2026-08-31&to=2026-11-29'), 422, 'validation_failed')
    assertProblem(await get(h, '/usage?from=2026-11-22&to=2026-11-21'), 422, 'validation_failed')
    assertProblem(await get(h, '/usage?from=yesterday'), 422, 'validation_failed')
    assertProblem(await get(h, '/usage?to=2026-11-29&extra=1'), 422, 'validation_failed')
  })
})
