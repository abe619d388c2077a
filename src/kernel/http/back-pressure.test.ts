import assert from 'node:assert/strict'
import { connect, type Socket } from 'node:net'
import { after, before, describe, it } from 'node:test'
import { sql } from 'kysely'
import { createTestApp, ENGINE, type TestApp } from '../../../test/helpers.js'

// Back-pressure on a listening server (light-my-request has no sockets): requests held in flight by bodies
// that have not arrived yet (onRequest has run, the handler waits for the body), then one more.

/** A POST whose headers are sent and whose body is not: in flight until `finish` or `drop`. */
function held(port: number, key: string): { finish(): Promise<string>; drop(): void } {
  const body = '{"subject":"held"}'
  let response = ''
  const socket: Socket = connect(port, '127.0.0.1', () =>
    socket.write(`POST /v2/inbox/conversations HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer ${key}\r\nContent-Type: application/json\r\nContent-Length: ${body.length}\r\n\r\n`),
  )
  socket.setEncoding('latin1')
  socket.on('data', (d) => (response += String(d)))
  socket.on('error', () => {})
  return {
    finish: () =>
      new Promise((resolve) => {
        socket.on('data', () => {
          if (/\r\n\r\n/.test(response)) {
            socket.destroy()
            resolve(response)
          }
        })
        socket.write(body)
      }),
    drop: () => socket.destroy(),
  }
}

const listen = async (h: TestApp) => `http://127.0.0.1:${Number(new URL(await h.http().listen({ port: 0, host: '127.0.0.1' })).port)}`
const waitFor = async (cond: () => boolean | Promise<boolean>) => {
  for (let i = 0; i < 200 && !(await cond()); i++) await new Promise((r) => setTimeout(r, 10))
}

describe(`back-pressure: requests in flight (${ENGINE})`, () => {
  let h: TestApp
  let base: string
  before(async () => {
    h = await createTestApp({ env: { HTTP_MAX_IN_FLIGHT: '2' } })
    base = await listen(h)
  })
  after(() => h.close())

  it('answers 503 problem+json with Retry-After past the bound, serves the probes, and frees a slot when a request ends', async () => {
    const port = Number(new URL(base).port)
    const auth = { authorization: `Bearer ${h.a.live}` }
    const first = held(port, h.a.live)
    const second = held(port, h.a.live)
    // Both are in flight once a third is refused.
    let refused: Response | undefined
    await waitFor(async () => (refused = await fetch(`${base}/v2/workspaces/current`, { headers: auth })).status === 503)
    assert.equal(refused!.status, 503)
    assert.equal(refused!.headers.get('retry-after'), '1')
    assert.match(String(refused!.headers.get('content-type')), /application\/problem\+json/)
    const problem = (await refused!.json()) as { code: string; status: number; request_id: string; detail: string }
    assert.equal(problem.code, 'service_unavailable')
    assert.equal(problem.status, 503)
    assert.ok(problem.request_id)
    assert.match(problem.detail, /HTTP_MAX_IN_FLIGHT/)
    // The orchestrator's probes answer while the process is saturated.
    assert.equal((await fetch(`${base}/livez`)).status, 200)
    assert.equal((await fetch(`${base}/readyz`)).status, 200)

    // A finished request and a client that went away both give their slot back.
    assert.match(await first.finish(), /^HTTP\/1\.1 201 /)
    second.drop()
    let answered: Response | undefined
    await waitFor(async () => (answered = await fetch(`${base}/v2/workspaces/current`, { headers: auth })).status === 200)
    assert.equal(answered!.status, 200)
    // Many sequential requests never leak a slot.
    for (let i = 0; i < 20; i++) assert.equal((await fetch(`${base}/v2/workspaces/current`, { headers: auth })).status, 200)
  })

  it('HTTP_MAX_IN_FLIGHT=0 means no bound', async () => {
    const open = await createTestApp({ env: { HTTP_MAX_IN_FLIGHT: '0' } })
    try {
      const url = await listen(open)
      const port = Number(new URL(url).port)
      const holds = [held(port, open.a.live), held(port, open.a.live), held(port, open.a.live)]
      await new Promise((r) => setTimeout(r, 100))
      assert.equal((await fetch(`${url}/v2/workspaces/current`, { headers: { authorization: `Bearer ${open.a.live}` } })).status, 200)
      for (const x of holds) x.drop()
    } finally {
      await open.close()
    }
  })
})

describe(`back-pressure: queries waiting for a pool connection (${ENGINE})`, { skip: ENGINE !== 'postgres' && 'PostgreSQL only: SQLite has one connection and no pool queue' }, () => {
  let h: TestApp
  let base: string
  before(async () => {
    h = await createTestApp({ env: { DATABASE_MAX_WAITING: '2' } })
    base = await listen(h)
  })
  after(() => h.close())

  it('answers 503 while more queries wait for a connection than the bound, and serves again once they ran', async () => {
    const { database } = h.app.kernel
    const total = database.poolStats().total
    // Every pooled connection busy for a moment, and 3 more queries queued behind them.
    const sleeps = Array.from({ length: 10 + 3 }, () => sql`select pg_sleep(1.5)`.execute(h.app.kernel.db))
    await waitFor(() => database.poolStats().waiting > 2)
    assert.ok(database.poolStats().waiting > 2, `waiting ${database.poolStats().waiting} (pool ${total})`)
    const r = await fetch(`${base}/v2/workspaces/current`, { headers: { authorization: `Bearer ${h.a.live}` } })
    assert.equal(r.status, 503)
    assert.equal(r.headers.get('retry-after'), '1')
    assert.match(((await r.json()) as { detail: string }).detail, /DATABASE_MAX_WAITING/)
    assert.equal((await fetch(`${base}/livez`)).status, 200)
    await Promise.all(sleeps)
    assert.equal((await fetch(`${base}/v2/workspaces/current`, { headers: { authorization: `Bearer ${h.a.live}` } })).status, 200)
  })
})
