// Test support for the webhooks tests (not a test file itself): real HTTP receivers on 127.0.0.1 and an
// independent implementation of signature verification (deliberately not importing webhooks.signing.ts).
import { spawn, spawnSync, type ChildProcess } from 'node:child_process'
import { createHmac, timingSafeEqual } from 'node:crypto'
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import type { TestApp } from '../../../test/helpers.js'
import { entryArgs } from '../../../test/spawn.js'

export interface Received {
  method: string
  url: string
  headers: IncomingHttpHeaders
  body: string
  at: number
}

export interface Reply {
  status?: number
  headers?: Record<string, string>
  body?: string
  /** Never answer (the test closes the server). */
  hang?: boolean
}

export interface Receiver {
  url: string
  port: number
  requests: Received[]
  close(): Promise<void>
}

export async function startReceiver(reply: (r: Received, n: number) => Reply | Promise<Reply> = () => ({ status: 200 }), port = 0): Promise<Receiver> {
  const requests: Received[] = []
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = []
    req.on('data', (c: Buffer) => chunks.push(c))
    req.on('end', () => {
      // A failure here (a test's answer that throws) answers 500, which the test sees, not an unhandled rejection.
      void (async () => {
        const r: Received = { method: req.method ?? '', url: req.url ?? '', headers: req.headers, body: Buffer.concat(chunks).toString('utf8'), at: Date.now() }
        requests.push(r)
        const out = await reply(r, requests.length)
        if (out.hang) return
        res.writeHead(out.status ?? 200, out.headers ?? {})
        res.end(out.body ?? 'ok')
      })().catch((err: unknown) => {
        if (!res.headersSent) res.writeHead(500, { 'content-type': 'text/plain' })
        res.end(String(err))
      })
    })
  })
  server.keepAliveTimeout = 60_000
  await new Promise<void>((resolve) => server.listen(port, '127.0.0.1', resolve))
  const p = (server.address() as AddressInfo).port
  return {
    url: `http://127.0.0.1:${p}/hook`,
    port: p,
    requests,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections()
        server.close(() => resolve())
      }),
  }
}

export async function freePort(): Promise<number> {
  const s = createServer()
  await new Promise<void>((r) => s.listen(0, '127.0.0.1', r))
  const port = (s.address() as AddressInfo).port
  await new Promise<void>((r) => s.close(() => r()))
  return port
}

/** Stripe-style check of `Svc-Status-Signature`: true when any v1 is the HMAC of `t.body` under `secret`. */
export function verifySvcSignature(header: string | undefined, body: string, secret: string, toleranceSeconds = 300): boolean {
  if (!header) return false
  const parts = header.split(',').map((p) => p.split('=') as [string, string])
  const t = parts.find(([k]) => k === 't')?.[1]
  if (!t || Math.abs(Date.now() / 1000 - Number(t)) > toleranceSeconds) return false
  const expected = createHmac('sha256', secret).update(`${t}.${body}`).digest()
  return parts
    .filter(([k]) => k === 'v1')
    .some(([, v]) => {
      const got = Buffer.from(v, 'hex')
      return got.length === expected.length && timingSafeEqual(got, expected)
    })
}

/** The Standard Webhooks check (`webhook-id`, `webhook-timestamp`, `webhook-signature: v1,<base64>`). */
export function verifyStandardSignature(headers: IncomingHttpHeaders, body: string, secret: string): boolean {
  const id = headers['webhook-id']
  const ts = headers['webhook-timestamp']
  const sig = headers['webhook-signature']
  if (typeof id !== 'string' || typeof ts !== 'string' || typeof sig !== 'string') return false
  const key = Buffer.from(secret.replace(/^whsec_/, ''), 'base64')
  const expected = createHmac('sha256', key).update(`${id}.${ts}.${body}`).digest('base64')
  return sig.split(' ').some((s) => s === `v1,${expected}`)
}

export async function waitFor<T>(check: () => Promise<T | undefined | null | false> | T | undefined | null | false, timeoutMs = 15_000, what = 'condition'): Promise<T> {
  const deadline = Date.now() + timeoutMs
  for (;;) {
    const v = await check()
    if (v) return v
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`)
    await new Promise((r) => setTimeout(r, 50))
  }
}

/** A sandbox endpoint (http allowed there) pointing at `url`. */
export async function createEndpoint(h: TestApp, url: string, extra: Record<string, unknown> = {}, key = h.a.test): Promise<{ id: string; secret: string }> {
  const base = key.startsWith('svc_test_') ? '/sandbox/v2' : '/v2'
  const r = await h.request({ method: 'POST', url: `${base}/webhooks/endpoints`, key, payload: { url, ...extra } })
  if (r.statusCode !== 201) throw new Error(`create endpoint: ${r.statusCode} ${r.body}`)
  const body = JSON.parse(r.body) as { id: string; secret: string }
  return { id: body.id, secret: body.secret }
}

export async function getDelivery(h: TestApp, id: string, key = h.a.test): Promise<any> {
  const base = key.startsWith('svc_test_') ? '/sandbox/v2' : '/v2'
  const r = await h.request({ method: 'GET', url: `${base}/webhooks/deliveries/${id}`, key })
  return JSON.parse(r.body)
}

export async function sendTest(h: TestApp, endpointId: string, key = h.a.test): Promise<any> {
  const base = key.startsWith('svc_test_') ? '/sandbox/v2' : '/v2'
  const r = await h.request({ method: 'POST', url: `${base}/webhooks/endpoints/${endpointId}/test`, key })
  if (r.statusCode !== 201) throw new Error(`test endpoint: ${r.statusCode} ${r.body}`)
  return JSON.parse(r.body)
}

export const randomToken = () => Buffer.from(crypto.getRandomValues(new Uint8Array(18))).toString('base64url')

// ---- the real service as a child process (crash tests) ----

const ROOT = new URL('../../../', import.meta.url).pathname

/** A full-scope key made with the CLI on the server's database (sandbox by default). */
export function createKey(env: NodeJS.ProcessEnv, sandbox = true): string {
  const args = [...entryArgs('cli'), 'keys', 'create', '--scopes', 'admin', '--json', ...(sandbox ? ['--sandbox'] : [])]
  const r = spawnSync(process.execPath, args, { cwd: ROOT, env, encoding: 'utf8' })
  if (r.status !== 0) throw new Error(`keys create failed: ${r.stderr}`)
  return JSON.parse(r.stdout.trim().split('\n').pop()!).key
}

/** The service as a process (this run's bundle or `src/main.ts`: test/spawn.ts); resolves once /livez answers. */
export async function startServer(env: NodeJS.ProcessEnv): Promise<ChildProcess> {
  const child = spawn(process.execPath, entryArgs('main'), { cwd: ROOT, env, stdio: ['ignore', 'ignore', 'inherit'] })
  await waitFor(
    async () => {
      if (child.exitCode !== null) throw new Error('the server exited during start')
      try {
        return (await fetch(`http://127.0.0.1:${env.PORT}/livez`)).ok
      } catch {
        return false
      }
    },
    90_000,
    'server start',
  )
  return child
}

/** A sandbox API call that must succeed. */
export async function api(port: number, key: string, method: string, path: string, body?: unknown): Promise<any> {
  const r = await fetch(`http://127.0.0.1:${port}/sandbox/v2${path}`, {
    method,
    headers: { authorization: `Bearer ${key}`, ...(body ? { 'content-type': 'application/json' } : {}) },
    body: body ? JSON.stringify(body) : undefined,
  })
  const text = await r.text()
  if (r.status >= 300) throw new Error(`${method} ${path}: ${r.status} ${text}`)
  return JSON.parse(text)
}

export const exited = (c: ChildProcess) => new Promise<void>((resolve) => (c.exitCode !== null || c.signalCode !== null ? resolve() : c.once('exit', () => resolve())))
