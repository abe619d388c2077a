import assert from 'node:assert/strict'
import { randomBytes } from 'node:crypto'
import { createServer } from 'node:http'
import { connect, type Socket } from 'node:net'
import { after, before, describe, it } from 'node:test'
import { loadConfig, trustProxy } from '../src/config.js'
import { trackSilentConnections } from '../src/kernel/http/connection-limits.js'
import { randomToken } from '../src/modules/webhooks/webhooks.testkit.js'
import { createTestApp, type TestApp } from './helpers.js'

// Slow and idle clients (header and request timeouts, a cap on connections per address) and where the
// client address comes from (TRUST_PROXY), on a listening server: light-my-request has no sockets.

/** A raw connection that writes `bytes` and then waits; resolves with what came back and when it closed. */
function hold(port: number, bytes: string): Promise<{ response: string; closedAfterMs: number }> {
  return new Promise((resolve, reject) => {
    const started = performance.now()
    let response = ''
    const socket: Socket = connect(port, '127.0.0.1', () => socket.write(bytes))
    socket.setEncoding('latin1')
    socket.on('data', (d) => (response += String(d)))
    socket.on('error', () => {})
    socket.on('close', () => resolve({ response, closedAfterMs: performance.now() - started }))
    setTimeout(() => {
      socket.destroy()
      reject(new Error(`still open after 10 s; received: ${response.slice(0, 200)}`))
    }, 10_000)
  })
}

const listen = async (h: TestApp) => Number(new URL(await h.http().listen({ port: 0, host: '127.0.0.1' })).port)

describe('request timeouts', () => {
  let h: TestApp
  let port: number
  before(async () => {
    h = await createTestApp({ env: { HTTP_HEADERS_TIMEOUT_MS: '500', HTTP_REQUEST_TIMEOUT_MS: '1000' } })
    port = await listen(h)
  })
  after(() => h.close())

  it('cuts off a body that never finishes (408 problem, connection closed), anonymously on the Playground too', async () => {
    const partial = (path: string, auth: string) => `POST ${path} HTTP/1.1\r\nHost: x\r\n${auth}Content-Type: application/json\r\nContent-Length: 1000\r\n\r\n{"subject":"never`
    for (const [path, auth] of [
      [`/v2/webhooks/playground/${randomToken()}`, ''],
      ['/v2/inbox/conversations', `Authorization: Bearer ${h.a.live}\r\n`],
    ]) {
      const { response, closedAfterMs } = await hold(port, partial(path, auth))
      assert.ok(closedAfterMs < 3000, `${path}: closed after ${Math.round(closedAfterMs)} ms`)
      assert.match(response, /^HTTP\/1\.1 408 /, path)
      assert.match(response, /application\/problem\+json/)
    }
  })

  it('cuts off a header section that never finishes', async () => {
    const { closedAfterMs } = await hold(port, `GET /v2/health HTTP/1.1\r\nHost: x\r\nX-Slow: `)
    assert.ok(closedAfterMs < 3000, `closed after ${Math.round(closedAfterMs)} ms`)
  })

  it('refuses timeouts that would wait forever or that Node cannot apply', () => {
    assert.throws(() => loadConfig({ HTTP_REQUEST_TIMEOUT_MS: '0' }), /at least 1/)
    assert.throws(() => loadConfig({ HTTP_HEADERS_TIMEOUT_MS: '5000', HTTP_REQUEST_TIMEOUT_MS: '1000' }), /must not exceed/)
  })
})

describe('connections per client address', () => {
  const open: Socket[] = []
  const apps: TestApp[] = []
  after(async () => {
    for (const s of open) s.destroy()
    for (const h of apps) await h.close()
  })
  const connectTo = (port: number) =>
    new Promise<Socket>((resolve, reject) => {
      const s = connect(port, '127.0.0.1', () => resolve(s))
      s.on('error', reject)
      open.push(s)
    })
  const closedSoon = (s: Socket, ms = 1500) =>
    new Promise<boolean>((resolve) => {
      if (s.destroyed) return resolve(true)
      const t = setTimeout(() => resolve(false), ms)
      s.once('close', () => {
        clearTimeout(t)
        resolve(true)
      })
    })

  it('closes a connection over HTTP_MAX_CONNECTIONS_PER_IP at once; one freed makes room', async () => {
    const h = await createTestApp({ env: { HTTP_MAX_CONNECTIONS_PER_IP: '3' } })
    apps.push(h)
    const port = await listen(h)
    const held = [await connectTo(port), await connectTo(port), await connectTo(port)]
    const extra = await connectTo(port)
    assert.equal(await closedSoon(extra), true, 'the fourth idle connection is closed')
    assert.equal(await closedSoon(held[0], 300), false, 'the first three stay open')
    held[0].destroy()
    await new Promise((r) => setTimeout(r, 100))
    const res = await fetch(`http://127.0.0.1:${port}/livez`)
    assert.equal(res.status, 200)
  })

  it('exempts a trusted proxy, whose connections carry many clients', async () => {
    const h = await createTestApp({ env: { HTTP_MAX_CONNECTIONS_PER_IP: '2', TRUST_PROXY: 'loopback' } })
    apps.push(h)
    const port = await listen(h)
    const sockets = [await connectTo(port), await connectTo(port), await connectTo(port), await connectTo(port)]
    assert.equal(await closedSoon(sockets[3], 500), false)
  })
})

describe('TRUST_PROXY and the anonymous rate-limit bucket', () => {
  const apps: TestApp[] = []
  after(async () => {
    for (const h of apps) await h.close()
  })
  // Fresh addresses per run: with Redis the buckets outlive this process.
  const fresh = () => `2001:db8:${randomBytes(2).toString('hex')}:${randomBytes(2).toString('hex')}::1`
  const anonymous = (h: TestApp, remoteAddress: string, forwardedFor: string) =>
    h.http().inject({ method: 'GET', url: '/v2/workspaces/current', remoteAddress, headers: { 'x-forwarded-for': forwardedFor } })

  it('without it, X-Forwarded-For is ignored: one address, one bucket, whatever the header says', async () => {
    const h = await createTestApp({ env: { RATE_LIMIT_PER_MINUTE: '3' } })
    apps.push(h)
    const peer = fresh()
    for (let i = 0; i < 3; i++) assert.equal((await anonymous(h, peer, fresh())).statusCode, 401)
    assert.equal((await anonymous(h, peer, fresh())).statusCode, 429, 'a forged X-Forwarded-For opens no new bucket')
  })

  it('with it, each forwarded client has its own bucket; an untrusted peer still cannot forge one', async () => {
    const h = await createTestApp({ env: { RATE_LIMIT_PER_MINUTE: '3', TRUST_PROXY: '127.0.0.1,10.0.0.0/8' } })
    apps.push(h)
    const [one, two] = [fresh(), fresh()]
    for (let i = 0; i < 3; i++) assert.equal((await anonymous(h, '127.0.0.1', one)).statusCode, 401)
    assert.equal((await anonymous(h, '127.0.0.1', one)).statusCode, 429)
    // Another client behind the same proxy: its own bucket (through one trusted hop, or two).
    assert.equal((await anonymous(h, '127.0.0.1', two)).statusCode, 401, 'another client behind the proxy: its own bucket')
    assert.equal((await anonymous(h, '10.1.2.3', `${two}, 10.9.9.9`)).statusCode, 401)
    // A peer outside TRUST_PROXY is the client itself, whatever it forwards.
    const stranger = fresh()
    for (let i = 0; i < 3; i++) assert.equal((await anonymous(h, stranger, fresh())).statusCode, 401)
    assert.equal((await anonymous(h, stranger, fresh())).statusCode, 429)
  })

  it('parses TRUST_PROXY: off, on, a hop count, or addresses and CIDRs', () => {
    assert.equal(trustProxy(undefined), false)
    assert.equal(trustProxy('false'), false)
    assert.equal(trustProxy('true'), true)
    assert.equal(trustProxy('2'), 2)
    assert.deepEqual(trustProxy(' 10.0.0.0/8, ::1 ,loopback'), ['10.0.0.0/8', '::1', 'loopback'])
    for (const bad of ['proxy.example.com', '10.0.0.0/8/1', '300.1.1.1']) assert.throws(() => trustProxy(bad), /TRUST_PROXY/)
  })
})

describe('closing with silent connections', () => {
  it('ends a connection that never sent a byte when the server closes, instead of waiting for its header timeout', { timeout: 20_000 }, async () => {
    const h = await createTestApp({ env: { HTTP_HEADERS_TIMEOUT_MS: '60000' } })
    await h.app.http.listen({ port: 0, host: '127.0.0.1' })
    const port = (h.app.http.server.address() as { port: number }).port
    const socket: Socket = connect(port, '127.0.0.1')
    socket.on('error', () => {})
    await new Promise((resolve) => socket.once('connect', resolve))
    const closed = new Promise((resolve) => socket.once('close', resolve))
    // Without the fix this waits the whole minute: the test's own timeout fails it first.
    await h.app.http.close()
    await closed
    await h.close()
  })
})

describe('closing while a response is still being written', () => {
  it('a response that finishes after the server began closing closes its connection at once, not after the keep-alive timeout', { timeout: 20_000 }, async () => {
    // The service's server with its keep-alive timeout; preClose (what app.close runs first) then server.close.
    let finish = () => {}
    const server = createServer({ keepAliveTimeout: 72_000 }, (_req, res) => {
      res.writeHead(200, { 'content-type': 'text/plain', 'content-length': '5' })
      // The body's last bytes go out before its end, as a file stream's do: the client is done, the response not yet.
      res.write('hello')
      finish = () => res.end()
    })
    const preClose = trackSilentConnections(server)
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
    const port = (server.address() as { port: number }).port
    const socket: Socket = connect(port, '127.0.0.1', () => socket.write('GET / HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: keep-alive\r\n\r\n'))
    socket.on('error', () => {})
    let received = ''
    const whole = new Promise<void>((resolve) => socket.on('data', (d) => (received += String(d)).endsWith('hello') && resolve()))
    const closed = new Promise<void>((resolve) => socket.once('close', () => resolve()))
    await whole
    preClose()
    const closing = new Promise<void>((resolve) => server.close(() => resolve()))
    // Node's closeIdleConnections (in server.close) passed this connection by: its response had not finished.
    finish()
    // Without the fix both wait for the keep-alive timeout (72 s): the test's own timeout fails first.
    await closed
    await closing
    assert.match(received, /^HTTP\/1\.1 200/)
  })
})
