// Every request a receiver saw is an attempt of its delivery, even when the server is SIGKILLed while
// requests are in flight: the attempt is recorded (status "sending") before the request is sent, and the
// restarted worker marks it interrupted and makes it again (docs/webhooks.md, "Durability").
import assert from 'node:assert/strict'
import type { ChildProcess } from 'node:child_process'
import { createServer, type ServerResponse } from 'node:http'
import type { AddressInfo } from 'node:net'
import { after, before, describe, it } from 'node:test'
import { Ajv } from 'ajv'
import addFormatsModule, { type FormatsPlugin } from 'ajv-formats'
import { createTestApp, createTestDatabase, ENGINE, json, type TestApp, type TestDatabase } from '../../../test/helpers.js'
import { createDatabase } from '../../kernel/db/database.js'
import { INTERRUPTED_ERROR } from './jobs/deliver-webhook.job.js'
import { WebhookDeliveryDetail } from './webhooks.schemas.js'
import './webhooks.tables.js'
import { api, createEndpoint, createKey, exited, freePort, getDelivery, sendTest, startReceiver, startServer, waitFor, type Receiver } from './webhooks.testkit.js'

const addFormats = ((addFormatsModule as unknown as { default?: FormatsPlugin }).default ?? addFormatsModule) as FormatsPlugin

const EVENTS = 240
const CONCURRENCY = 24

function serverEnv(db: TestDatabase, port: number): NodeJS.ProcessEnv {
  return {
    ...process.env,
    ...db.env,
    PORT: String(port),
    HOST: '127.0.0.1',
    LOG_LEVEL: 'silent',
    SVC_ROLE: 'all',
    WEBHOOK_RETRY_SCHEDULE: '1,1,1',
    WEBHOOK_ALLOW_PRIVATE_NETWORKS: 'true',
    RATE_LIMIT_PER_MINUTE: '1000000',
    JOB_POLL_INTERVAL_MS: '50',
    JOB_CONCURRENCY: String(CONCURRENCY),
    // Attempts cut off by the SIGKILL are taken over once their lease expires.
    JOB_LEASE_SECONDS: '2',
    SHUTDOWN_TIMEOUT_MS: '1000',
  }
}

/**
 * A receiver that counts every request per `svc-delivery-id` as soon as its headers arrive. It answers
 * slowly (300–500 ms): 500 to the first request of every fifth delivery, 200 otherwise. In `hold` mode it
 * answers nothing, so the requests stay in flight until the test kills the server.
 */
async function startCountingReceiver() {
  const seen = new Map<string, number>()
  const held: { id: string; res: ServerResponse }[] = []
  const order: string[] = []
  let hold = false
  let answering = 0
  let answered = 0
  let lastActivity = Date.now()
  const server = createServer((req, res) => {
    const id = String(req.headers['svc-delivery-id'])
    const n = (seen.get(id) ?? 0) + 1
    seen.set(id, n)
    if (n === 1) order.push(id)
    lastActivity = Date.now()
    req.resume()
    req.on('end', () => {
      if (hold) {
        held.push({ id, res })
        return
      }
      answering++
      setTimeout(
        () => {
          const fail = n === 1 && order.indexOf(id) % 5 === 0
          res.writeHead(fail ? 500 : 200, { 'content-type': 'text/plain' }).end(fail ? 'try again' : 'ok')
          answering--
          answered++
          lastActivity = Date.now()
        },
        300 + Math.random() * 200,
      )
    })
  })
  server.keepAliveTimeout = 60_000
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r))
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/hook`,
    seen,
    held,
    get answered() {
      return answered
    },
    /** Holding, nothing being answered and no request arrived for `ms`: every attempt in flight is here. */
    settled(ms: number) {
      return hold && answering === 0 && held.length > 0 && Date.now() - lastActivity >= ms
    },
    setHold(v: boolean) {
      hold = v
      if (!v) for (const h of held.splice(0)) h.res.destroy()
    },
    close: () =>
      new Promise<void>((resolve) => {
        for (const h of held.splice(0)) h.res.destroy()
        server.closeAllConnections()
        server.close(() => resolve())
      }),
  }
}

describe(`webhook attempts across a SIGKILL (${ENGINE})`, () => {
  const children: ChildProcess[] = []
  const cleanup: (() => Promise<void>)[] = []
  after(async () => {
    for (const c of children) if (c.exitCode === null && c.signalCode === null) c.kill('SIGKILL')
    await Promise.all(children.map(exited))
    for (const f of cleanup.reverse()) await f()
  })

  it('records every request the receiver saw as an attempt, and delivers every event, across a SIGKILL mid-flight', { timeout: 120_000 }, async () => {
    const db = await createTestDatabase()
    cleanup.push(() => db.drop())
    const rx = await startCountingReceiver()
    cleanup.push(() => rx.close())
    const port = await freePort()
    const env = serverEnv(db, port)
    const key = createKey(env)
    let server = await startServer(env)
    children.push(server)

    const ep = await api(port, key, 'POST', '/webhooks/endpoints', { url: rx.url, event_types: ['webhook.test'] })
    const ids: string[] = []
    for (let i = 0; i < EVENTS; i += 20) {
      const batch = await Promise.all(Array.from({ length: 20 }, () => api(port, key, 'POST', `/webhooks/endpoints/${ep.id}/test`)))
      ids.push(...batch.map((d) => d.id as string))
    }
    // Let some deliveries finish (with a few 500s, so retries are pending), then hold every new request and
    // wait until every worker slot is stuck at the receiver: those attempts are in flight at the kill.
    await waitFor(() => rx.answered >= 60, 30_000, '60 answered requests')
    rx.setHold(true)
    await waitFor(() => rx.settled(300), 10_000, 'requests held at the receiver')
    // While a request is held, the API shows its attempt (checked against the response schema below).
    const heldView = await api(port, key, 'GET', `/webhooks/deliveries/${rx.held[0].id}`)

    const heldAtKill = rx.held.length
    server.kill('SIGKILL')
    await exited(server)
    rx.setHold(false)
    server = await startServer(env)
    children.push(server)

    const store = createDatabase(env.DATABASE_URL!, { schema: env.DATABASE_SCHEMA })
    cleanup.push(() => store.close())
    await waitFor(
      async () => {
        const open = await store.db.selectFrom('webhook_deliveries').select('id').where('endpoint_id', '=', ep.id).where('status', '=', 'pending').execute()
        const sending = await store.db.selectFrom('webhook_attempts').select('id').where('status', 'not in', ['succeeded', 'failed']).execute()
        return open.length === 0 && sending.length === 0
      },
      45_000,
      'every delivery finished',
    )

    const deliveries = await store.db.selectFrom('webhook_deliveries').selectAll().where('endpoint_id', '=', ep.id).execute()
    const attempts = await store.db.selectFrom('webhook_attempts').selectAll().execute()
    assert.equal(deliveries.length, EVENTS)
    const rows = new Map<string, number>()
    for (const a of attempts) rows.set(a.delivery_id, (rows.get(a.delivery_id) ?? 0) + 1)
    const mismatched = deliveries
      .filter((d) => (rows.get(d.id) ?? 0) !== (rx.seen.get(d.id) ?? 0) || Number(d.attempts_count) !== (rx.seen.get(d.id) ?? 0))
      .map((d) => ({ id: d.id, receiver_saw: rx.seen.get(d.id) ?? 0, attempt_rows: rows.get(d.id) ?? 0, attempts_count: Number(d.attempts_count) }))
    assert.deepEqual(mismatched, [], 'attempts recorded != requests the receiver saw')
    assert.deepEqual(
      deliveries.filter((d) => d.status !== 'succeeded').map((d) => [d.id, d.status, d.last_error]),
      [],
      'every delivery succeeded',
    )
    assert.deepEqual(
      attempts.filter((a) => a.status !== 'succeeded' && a.status !== 'failed'),
      [],
      'no attempt left in flight',
    )
    const interrupted = attempts.filter((a) => a.status === 'failed' && /^interrupted/.test(a.error ?? ''))
    assert.equal(interrupted.length, heldAtKill, 'every attempt cut off by the kill (held at the receiver) is marked interrupted')

    // The API agrees with the receiver, attempt by attempt, and its answers match the response schema.
    const ajv = new Ajv({ strict: false })
    addFormats(ajv)
    const validate = ajv.compile(WebhookDeliveryDetail)
    for (let i = 0; i < ids.length; i += 24) {
      const views = await Promise.all(ids.slice(i, i + 24).map((id) => api(port, key, 'GET', `/webhooks/deliveries/${id}`)))
      for (const v of views) {
        assert.ok(validate(v), ajv.errorsText(validate.errors))
        assert.equal(v.attempts_count, rx.seen.get(v.id), `attempts_count of ${v.id}`)
        assert.equal(v.attempts.length, rx.seen.get(v.id), `attempts of ${v.id}`)
      }
    }
    // Seen while the request was held: the attempt in flight, valid against the schema.
    assert.ok(validate(heldView), ajv.errorsText(validate.errors))
    assert.equal(heldView.attempts[0]?.status, 'sending', 'the attempt in flight is shown as sending')
    server.kill('SIGTERM')
    await exited(server)
  })
})

// The same recovery, step by step in one process: a run whose lease was taken over (a "zombie") keeps
// running while the job's re-run marks its attempt interrupted and makes it again.
describe(`an attempt whose worker lost its lease (${ENGINE})`, () => {
  let h: TestApp
  const receivers: Receiver[] = []
  const ajv = new Ajv({ strict: false })
  addFormats(ajv)
  const validate = ajv.compile(WebhookDeliveryDetail)
  before(async () => {
    h = await createTestApp({ env: { WEBHOOK_RETRY_SCHEDULE: '1,1,1' } }) // no runner: jobs are run by hand
  })
  after(async () => {
    await h.close()
    await Promise.all(receivers.map((r) => r.close()))
  })

  /** First request: held until `release()`, then answered 500; later requests: 200. */
  async function gatedReceiver() {
    let release!: () => void
    const gate = new Promise<void>((r) => (release = r))
    const rx = await startReceiver((_r, n) => (n === 1 ? gate.then(() => ({ status: 500, body: 'late' })) : { status: 200, body: 'ok' }))
    receivers.push(rx)
    return { rx, release }
  }
  const run = (payload: object, jobId: string) => h.app.kernel.jobs.definitions.get('webhooks.deliver')!.run(payload, { jobId, attempt: 1 })
  const payloadOf = (d: { id: string }, attempt: number | null) => ({ delivery_id: d.id, workspace_id: h.a.workspaceId, mode: 'test', attempt })
  const deliverJobs = async (deliveryId: string) =>
    (await h.app.kernel.db.selectFrom('jobs').select(['payload', 'status']).where('name', '=', 'webhooks.deliver').execute())
      .map((j) => ({ ...JSON.parse(j.payload), status: j.status }))
      .filter((j) => j.delivery_id === deliveryId)

  it('shows the attempt in flight as sending; the re-run marks it interrupted and makes it again; the late answer is not recorded', async () => {
    const { rx, release } = await gatedReceiver()
    const ep = await createEndpoint(h, rx.url)
    const d = await sendTest(h, ep.id)
    const zombie = run(payloadOf(d, 1), 'job_a')
    await waitFor(() => rx.requests.length === 1)
    const inFlight = await getDelivery(h, d.id)
    assert.ok(validate(inFlight), ajv.errorsText(validate.errors))
    assert.deepEqual([inFlight.status, inFlight.attempts_count, inFlight.attempts.length, inFlight.attempts[0].status, inFlight.attempts[0].duration_ms], ['pending', 0, 1, 'sending', 0])
    const list = json(await h.request({ method: 'GET', url: `/sandbox/v2/webhooks/deliveries?endpoint_id=${ep.id}`, key: h.a.test }))
    assert.equal(list.data[0].attempts_count, 0)

    await run(payloadOf(d, 1), 'job_a') // the lease expired: the job runs again
    release()
    await zombie
    const done = await getDelivery(h, d.id)
    assert.ok(validate(done), ajv.errorsText(validate.errors))
    assert.equal(rx.requests.length, 2)
    assert.deepEqual([done.status, done.attempts_count, done.last_response_status, done.last_error], ['succeeded', 2, 200, INTERRUPTED_ERROR])
    assert.deepEqual(
      done.attempts.map((a: any) => [a.attempt, a.trigger, a.status, a.response_status, a.error]),
      [
        [2, 'scheduled', 'succeeded', 200, null],
        [1, 'scheduled', 'failed', null, INTERRUPTED_ERROR],
      ],
    )
    // The zombie's 500 forked nothing: no job for a second scheduled attempt; the endpoint is not failing.
    assert.deepEqual(
      (await deliverJobs(d.id)).filter((j) => j.attempt !== 1),
      [],
    )
    const e = json(await h.request({ method: 'GET', url: `/sandbox/v2/webhooks/endpoints/${ep.id}`, key: h.a.test }))
    assert.equal(e.failing_since, null)
    // A further run of the same job (after its outcome was recorded) sends nothing.
    await run(payloadOf(d, 1), 'job_a')
    assert.equal(rx.requests.length, 2)
  })

  it('a replay cut off is made again by its re-run, and only once', async () => {
    const { rx, release } = await gatedReceiver()
    const ep = await createEndpoint(h, rx.url)
    const d = await sendTest(h, ep.id)
    const zombie = run(payloadOf(d, null), 'job_r')
    await waitFor(() => rx.requests.length === 1)
    await run(payloadOf(d, null), 'job_r')
    release()
    await zombie
    await run(payloadOf(d, null), 'job_r') // re-run after the replay was recorded: nothing more
    const done = await getDelivery(h, d.id)
    assert.equal(rx.requests.length, 2)
    assert.deepEqual(
      done.attempts.map((a: any) => [a.attempt, a.trigger, a.status]),
      [
        [2, 'replay', 'succeeded'],
        [1, 'replay', 'failed'],
      ],
    )
    assert.equal(done.attempts_count, 2)
  })

  it('an attempt cut off while its endpoint was disabled is marked interrupted and the delivery fails, with no new request', async () => {
    const { rx, release } = await gatedReceiver()
    const ep = await createEndpoint(h, rx.url)
    const d = await sendTest(h, ep.id)
    const zombie = run(payloadOf(d, 1), 'job_x')
    await waitFor(() => rx.requests.length === 1)
    await h.request({ method: 'PATCH', url: `/sandbox/v2/webhooks/endpoints/${ep.id}`, key: h.a.test, payload: { enabled: false } })
    await run(payloadOf(d, 1), 'job_x')
    release()
    await zombie
    const done = await getDelivery(h, d.id)
    assert.equal(rx.requests.length, 1)
    assert.deepEqual([done.status, done.attempts_count, done.last_error], ['failed', 1, 'The endpoint is disabled.'])
    assert.deepEqual(
      done.attempts.map((a: any) => [a.status, a.error]),
      [['failed', INTERRUPTED_ERROR]],
    )
  })
})
