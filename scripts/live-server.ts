// What every client's test suite runs against (not a test file itself): the real app listening on
// 127.0.0.1 with its worker running, keys for both modes, a proxy the tests steer (drop a response, answer
// 429), and a real webhook delivery captured from the server for the signature checks.
//
// A process of its own for the clients' suites (`node --import tsx scripts/live-server.ts`: sdk/ starts it and
// never imports the service, docs/architecture.md "Layering"); it prints one line `SVC_LIVE_SERVER {"env":…}`
// when it answers and stops on SIGTERM, SIGINT or when its stdin closes (the test that started it ended).
// Run by hand, it serves a client's suite started from another shell with those variables. The service's own
// tests (src/modules/developer/sdk-generations) start it in their process with startLiveServer().
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { createServer, request as httpRequest, type IncomingMessage, type Server, type ServerResponse } from 'node:http'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { readModel } from '../lib/sdk-generator/ir.js'
import { LIVE_SERVER_READY, liveServerInfo, type LiveServerEnv, type LiveServerInfo } from '../lib/testing/live-server.js'
import { createTestApp, type TestApp } from '../test/helpers.js'
import { freePort } from '../test/spawn.js'

/** The SVC_* fields and what they mean: lib/testing/live-server.ts; in process, the app too. */
export interface LiveServer extends LiveServerInfo {
  h: TestApp
}

type ProxyMode = 'pass' | 'drop-next' | '429-next'

/** A pass-through proxy: `drop-next` forwards the next request and then cuts the connection without answering. */
function startProxy(
  target: string,
): Promise<{ server: Server; port: number; state: { mode: ProxyMode; requests: { method: string; path: string; idempotency_key: string | null; dropped: boolean }[] } }> {
  const state = { mode: 'pass' as ProxyMode, requests: [] as { method: string; path: string; idempotency_key: string | null; dropped: boolean }[] }
  const server = createServer((req: IncomingMessage, res: ServerResponse) => {
    const chunks: Buffer[] = []
    req.on('data', (c: Buffer) => chunks.push(c))
    req.on('end', () => {
      const body = Buffer.concat(chunks)
      if (req.url === '/__proxy/mode') {
        if (req.method === 'POST') state.mode = (JSON.parse(body.toString() || '{}').mode ?? 'pass') as ProxyMode
        res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(state))
        return
      }
      const mode = state.mode
      if (mode !== 'pass') state.mode = 'pass'
      const seen = { method: req.method ?? '', path: req.url ?? '', idempotency_key: (req.headers['idempotency-key'] as string | undefined) ?? null, dropped: mode === 'drop-next' }
      state.requests.push(seen)
      if (mode === '429-next') {
        res
          .writeHead(429, { 'content-type': 'application/problem+json', 'retry-after': '1' })
          .end(JSON.stringify({ type: 'about:blank', title: 'Too many requests', status: 429, code: 'rate_limited', detail: 'slow down (proxy)', request_id: 'req_proxy429' }))
        return
      }
      const url = new URL(req.url ?? '/', target)
      const upstream = httpRequest(url, { method: req.method, headers: { ...req.headers, host: url.host } }, (up) => {
        const parts: Buffer[] = []
        up.on('data', (c: Buffer) => parts.push(c))
        up.on('end', () => {
          // The effect happened upstream; the client never hears about it.
          if (mode === 'drop-next') return void req.socket.destroy()
          res.writeHead(up.statusCode ?? 502, up.headers).end(Buffer.concat(parts))
        })
      })
      upstream.on('error', () => res.writeHead(502).end())
      upstream.end(body)
    })
  })
  return new Promise((resolve) => server.listen(0, '127.0.0.1', () => resolve({ server, port: (server.address() as { port: number }).port, state })))
}

/** One real delivery of `webhook.test` to a local receiver: its raw body, headers and the endpoint's secret. */
async function captureDelivery(h: TestApp, dir: string): Promise<string> {
  let resolveHit!: (v: { body: string; headers: Record<string, string> }) => void
  const hit = new Promise<{ body: string; headers: Record<string, string> }>((r) => (resolveHit = r))
  const receiver = createServer((req, res) => {
    const chunks: Buffer[] = []
    req.on('data', (c: Buffer) => chunks.push(c))
    req.on('end', () => {
      res.writeHead(200).end('ok')
      resolveHit({ body: Buffer.concat(chunks).toString('utf8'), headers: Object.fromEntries(Object.entries(req.headers).map(([k, v]) => [k, String(v)])) })
    })
  })
  await new Promise<void>((r) => receiver.listen(0, '127.0.0.1', r))
  try {
    const port = (receiver.address() as { port: number }).port
    // Live endpoints must be https: the plain-http receiver is a sandbox endpoint.
    const create = await h.request({ method: 'POST', url: '/sandbox/v2/webhooks/endpoints', key: h.a.test, payload: { url: `http://127.0.0.1:${port}/hook`, event_types: ['webhook.test'] } })
    const endpoint = JSON.parse(create.body)
    await h.request({ method: 'POST', url: `/sandbox/v2/webhooks/endpoints/${endpoint.id}/test`, key: h.a.test, payload: {} })
    const delivery = await Promise.race([hit, new Promise<never>((_, rej) => setTimeout(() => rej(new Error('no webhook delivery within 20 s')), 20_000))])
    const file = join(dir, 'webhook.json')
    writeFileSync(file, JSON.stringify({ secret: endpoint.secret, body: delivery.body, headers: delivery.headers, tolerance_seconds: 300 }, null, 2))
    return file
  } finally {
    receiver.close()
  }
}

/**
 * The operations of the document the live server serves, each with its namespace and method name
 * (lowerCamel; each language spells them its own way), for the suites' "a method for every operation" test.
 */
async function writeOperations(origin: string, dir: string): Promise<string> {
  const res = await fetch(`${origin}/v2/openapi.json`)
  if (!res.ok) throw new Error(`GET /v2/openapi.json answered ${res.status}: ${await res.text()}`)
  const doc = await res.json()
  const ops = readModel(doc).operations.map((o) => ({
    operation_id: o.operationId,
    namespace: o.namespace,
    method_name: o.method_name,
    http_method: o.method,
    path: o.path,
    paginated: o.paginated,
    streaming: o.streaming,
    file_media_type: o.file_media_type,
  }))
  const file = join(dir, 'operations.json')
  writeFileSync(file, JSON.stringify(ops, null, 2))
  return file
}

export async function startLiveServer(): Promise<LiveServer> {
  const port = await freePort()
  const h = await createTestApp({ env: { PUBLIC_URL: `http://127.0.0.1:${port}`, RATE_LIMIT_PER_MINUTE: '100000', WEBHOOK_RETRY_SCHEDULE: '1,1' } })
  await h.app.http.listen({ port, host: '127.0.0.1' })
  h.app.kernel.jobs.start()
  const origin = `http://127.0.0.1:${port}`
  const proxy = await startProxy(origin)
  const dir = mkdtempSync(join(tmpdir(), 'sdk-live-'))
  const webhookFixture = await captureDelivery(h, dir)
  const operationsFixture = await writeOperations(origin, dir)
  const proxyOrigin = `http://127.0.0.1:${proxy.port}`
  const env: LiveServerEnv = {
    SVC_BASE_URL: `${origin}/v2`,
    SVC_SANDBOX_URL: `${origin}/sandbox/v2`,
    SVC_PROXY_BASE_URL: `${proxyOrigin}/v2`,
    SVC_PROXY_CONTROL_URL: `${proxyOrigin}/__proxy/mode`,
    SVC_API_KEY: h.a.live,
    SVC_TEST_KEY: h.a.test,
    SVC_OTHER_API_KEY: h.b.live,
    SVC_WORKSPACE_ID: h.a.workspaceId,
    SVC_WEBHOOK_FIXTURE: webhookFixture,
    SVC_OPERATIONS_FIXTURE: operationsFixture,
  }
  const close = async () => {
    proxy.server.close()
    await h.close()
    rmSync(dir, { recursive: true, force: true })
  }
  return { h, ...liveServerInfo(env, close) }
}

// Run as a program: by its path, or from the test run's bundle (lib/testing/announced-process.ts names it).
if (process.env.SVC_ANNOUNCED_SCRIPT === 'live-server.ts' || (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1])) {
  const live = await startLiveServer()
  let closing: Promise<void> | null = null
  const stop = () =>
    (closing ??= live.close().then(
      () => process.exit(0),
      (err: unknown) => {
        process.stderr.write(`live server: ${(err as Error).stack ?? String(err)}\n`)
        process.exit(1)
      },
    ))
  process.on('SIGTERM', () => void stop())
  process.on('SIGINT', () => void stop())
  // The test that started it is gone (its end of the pipe closed): nothing is left to serve.
  process.stdin.on('end', () => void stop()).resume()
  process.stdout.write(`${LIVE_SERVER_READY} ${JSON.stringify({ env: live.env })}\n`)
}
