import assert from 'node:assert/strict'
import { after, before, describe, it } from 'node:test'
import { createTestApp, json, type TestApp } from '../../../../test/helpers.js'

describe('getApiHealth', () => {
  let h: TestApp
  before(async () => (h = await createTestApp()))
  after(() => h.close())

  it('reports the database, the job queue and every module of the 2.4.0 list', async () => {
    const res = await h.request({ method: 'GET', url: '/v2/health' })
    assert.equal(res.statusCode, 200)
    const body = json(res)
    assert.equal(body.database.status, 'ok')
    assert.equal(typeof body.database.latency_ms, 'number')
    assert.equal(body.job_queue.status, 'ok')
    assert.equal(typeof body.job_queue.pending, 'number')
    for (const m of ['inbox', 'bots', 'voice', 'knowledge', 'webhooks', 'compliance']) {
      assert.ok(['ok', 'degraded', 'down', 'not_available'].includes(body.modules[m].status), m)
    }
    // Modules not built yet say so instead of pretending.
    assert.equal(body.modules.compliance.status, 'ok')
    assert.equal(body.modules.voice.status, 'ok')
    assert.match(body.modules.voice.carrier, /simulated/)
    assert.match(body.modules.voice.speech, /espeak-ng|unavailable/)
    assert.equal(body.modules.bots.status, 'ok')
    assert.equal(body.status, 'ok')
  })

  it('reports a backlog of overdue jobs as degraded', async () => {
    const old = new Date(Date.now() - 3600_000).toISOString()
    await h.app.kernel.db
      .insertInto('jobs')
      .values({
        id: 'job_overdue',
        name: 'nobody.handles',
        payload: '{}',
        status: 'pending',
        run_at: old,
        attempts: 0,
        max_attempts: 1,
        retry_schedule: '[]',
        locked_by: null,
        locked_until: null,
        last_error: null,
        created_at: old,
        updated_at: old,
      })
      .execute()
    const body = json(await h.request({ method: 'GET', url: '/v2/health' }))
    assert.equal(body.job_queue.status, 'degraded')
    assert.ok(body.job_queue.oldest_due_age_seconds >= 3500)
    assert.equal(body.status, 'degraded')
    await h.app.kernel.db.deleteFrom('jobs').where('id', '=', 'job_overdue').execute()
  })

  it('answers 503 when the database is unreachable, and /readyz follows', async () => {
    const h2 = await createTestApp()
    const key = h2.a.live
    // Authenticate first (needs the database), then take the database away for the health check itself.
    const { findPrincipal } = await import('../../../kernel/auth/api-keys.js')
    assert.ok(await findPrincipal(h2.app.kernel.db, key))
    const live = await h2.request({ method: 'GET', url: '/livez', key: null })
    assert.equal(live.statusCode, 200)
    await h2.app.kernel.database.close()
    const ready = await h2.request({ method: 'GET', url: '/readyz', key: null })
    assert.equal(ready.statusCode, 503)
    assert.equal((await h2.request({ method: 'GET', url: '/livez', key: null })).statusCode, 200)
    const health = await h2.request({ method: 'GET', url: '/v2/health', key })
    assert.equal(health.statusCode, 503, health.body)
    // With the key still cached the report itself answers (status down); otherwise authentication
    // already meets the outage and answers a service_unavailable problem. Both are 503.
    const body = json(health)
    assert.ok(body.status === 'down' || body.code === 'service_unavailable', health.body)
    if (body.status === 'down') assert.equal(body.database.status, 'down')
    await h2.app.http.close()
    await h2.app.redis?.quit()
  })
})
