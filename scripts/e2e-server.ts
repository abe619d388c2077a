// The dashboard's browser tests' server (not a test itself): the real app (createTestApp: a real database, every
// module) listening on 127.0.0.1 with its job runner started as the server's is, in a process of its own.
// dashboard/ never imports the service (docs/architecture.md, "Layering"): dashboard/e2e/server.ts starts this
// with `node --import tsx scripts/e2e-server.ts '<options JSON>'` and talks to it over HTTP only.
//
// Options: { env?: {…}, password?: string, ownerEmail?: string, chat?: { text, chunkDelayMs? } } (chat: an
// imitation OpenAI-compatible engine the app is configured with). Once it answers, the process prints one line
// `SVC_E2E_SERVER {"url", "control", "a", "b"}` and stops on SIGTERM, SIGINT or when its stdin closes.
//
// `control` is a second listener on 127.0.0.1, never part of the app: the few steps a browser test takes that
// the public API has no operation for (a password, running due jobs now, dropping every connection, …). Each is
// POST /<step> with a JSON body, answering JSON.
import { createHash } from 'node:crypto'
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http'
import { fileURLToPath } from 'node:url'
import { startChatServer } from '../src/kernel/ai/ai.testkit.js'
import { authorizationInA } from '../src/modules/developer/oauth/oauth.testkit.js'
import { memberWithPassword } from '../src/modules/workspaces/sign-in/sign-in.testkit.js'
import { createTestApp, type TestApp } from '../test/helpers.js'
import { freePort } from '../test/spawn.js'

export const READY = 'SVC_E2E_SERVER'

export interface E2eOptions {
  env?: Record<string, string>
  /** The owner of workspace A (owner@acme.example) signs in with this. */
  password?: string
  chat?: { text: string; chunkDelayMs?: number }
}

type Step = (h: TestApp, body: any) => Promise<unknown>

/** The test steps, by name (POST /<name> on the control listener). */
function steps(chat: Awaited<ReturnType<typeof startChatServer>> | null): Record<string, Step> {
  return {
    'drain-jobs': async (h) => void (await h.drainJobs()),
    password: async (h, b: { email: string; password: string }) => void (await h.app.services.signIn.setPassword(b.email, b.password)),
    member: async (h, b: { email: string; password: string; role?: string; workspace_id?: string; key?: string }) =>
      void (await memberWithPassword(h, b.email, b.password, { role: b.role, workspaceId: b.workspace_id, key: b.key })),
    'oauth-authorization-in-a': (h) => authorizationInA(h),
    'close-connections': async (h) => void h.app.http.server.closeAllConnections(),
    /** An OpenAPI snapshot as an older build left it: its stored document replaced by `text`. */
    'snapshot-document': async (h, b: { snapshot_id: string; text: string }) => {
      const hash = createHash('sha256').update(b.text).digest('hex')
      const key = `developer/openapi/${hash}.json`
      await h.app.kernel.blobs.put(key, Buffer.from(b.text), { contentType: 'application/json' })
      await h.app.kernel.db.updateTable('developer_openapi_snapshots').set({ sha256: hash, document_key: key }).where('id', '=', b.snapshot_id).execute()
    },
    'web-chat-visitors': async (h, b: { channel_id: string }) => (await h.app.kernel.db.selectFrom('channel_web_visitors').select('id').where('channel_id', '=', b.channel_id).execute()).length,
    'chat-requests': async () => chat?.requests ?? [],
  }
}

function startControl(h: TestApp, table: Record<string, Step>): Promise<{ url: string; close(): Promise<void> }> {
  const server = createServer((req: IncomingMessage, res: ServerResponse) => {
    const chunks: Buffer[] = []
    req.on('data', (c: Buffer) => chunks.push(c))
    req.on('end', () => {
      const step = req.method === 'POST' ? table[(req.url ?? '').slice(1)] : undefined
      if (!step) return void res.writeHead(404, { 'content-type': 'application/json' }).end(JSON.stringify({ error: `no step ${req.method} ${req.url}` }))
      const body = chunks.length ? JSON.parse(Buffer.concat(chunks).toString('utf8')) : {}
      step(h, body).then(
        (out) => res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(out ?? null)),
        (err: unknown) => res.writeHead(500, { 'content-type': 'application/json' }).end(JSON.stringify({ error: (err as Error).stack ?? String(err) })),
      )
    })
  })
  return new Promise((resolve) =>
    server.listen(0, '127.0.0.1', () =>
      resolve({
        url: `http://127.0.0.1:${(server.address() as { port: number }).port}`,
        close: () => new Promise<void>((r) => server.close(() => r())),
      }),
    ),
  )
}

// Run as a program: by its path, or from the test run's bundle (lib/testing/announced-process.ts names it).
if (process.env.SVC_ANNOUNCED_SCRIPT === 'e2e-server.ts' || (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1])) {
  const opts = JSON.parse(process.argv[2] ?? '{}') as E2eOptions
  const chat = opts.chat ? await startChatServer(() => ({ text: opts.chat!.text, chunkDelayMs: opts.chat!.chunkDelayMs })) : null
  const aiEnv: Record<string, string> = chat ? { AI_PROVIDER: 'openai', AI_BASE_URL: chat.baseUrl, AI_MODEL: 'test-model', AI_TIMEOUT_MS: '10000' } : {}
  const port = await freePort()
  const url = `http://127.0.0.1:${port}`
  const h = await createTestApp({ env: { PUBLIC_URL: url, ...aiEnv, ...opts.env } })
  await h.app.http.listen({ port, host: '127.0.0.1' })
  h.app.kernel.jobs.start()
  if (opts.password) await h.app.services.signIn.setPassword('owner@acme.example', opts.password)
  const control = await startControl(h, steps(chat))
  let closing: Promise<void> | null = null
  const stop = () =>
    (closing ??= (async () => {
      await control.close()
      await h.close()
      await chat?.close()
    })().then(
      () => process.exit(0),
      (err: unknown) => {
        process.stderr.write(`e2e server: ${(err as Error).stack ?? String(err)}\n`)
        process.exit(1)
      },
    ))
  process.on('SIGTERM', () => void stop())
  process.on('SIGINT', () => void stop())
  process.stdin.on('end', () => void stop()).resume()
  process.stdout.write(`${READY} ${JSON.stringify({ url, control: control.url, a: h.a, b: h.b })}\n`)
}
