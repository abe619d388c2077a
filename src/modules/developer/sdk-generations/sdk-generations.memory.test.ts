import assert from 'node:assert/strict'
import { execFile } from 'node:child_process'
import { mkdtempSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { after, before, describe, it } from 'node:test'
import { promisify } from 'node:util'
import { createTestDatabase, ENGINE, type TestDatabase } from '../../../../test/helpers.js'
import { startServer, type ServerProcess } from '../../../../test/spawn.js'

const run = promisify(execFile)
const ROOT = new URL('../../../../', import.meta.url).pathname
/** Its own bundle folder (the service only): test/build.test.ts rebuilds dist/ while this file may run. */
const BUILD_DIR = `.tmp/sdk-memory-${process.pid}`

// Memory stays flat across generations, in the production bundle (npm start), where it leaked: each
// generation used to import the generator's TypeScript through tsx, and with it the whole app (the
// generator built the app for its document), a fresh module graph every time that was never freed
// (RSS 198 → 673 MB over 7 generations). The generator is now bundled and works on the stored document.
describe(`SDK generation memory in the bundle (${ENGINE})`, () => {
  let db: TestDatabase
  let server: ServerProcess
  let key: string
  const dataDir = mkdtempSync(join(tmpdir(), 'sdk-memory-'))
  before(async () => {
    await run(process.execPath, ['scripts/build.mjs'], { cwd: ROOT, env: { ...process.env, SVC_BUILD_DIR: BUILD_DIR } })
    db = await createTestDatabase()
    // The first start on an empty database makes a workspace and its keys (no CLI process to pay for on a busy machine).
    // test/gc-probe.mjs: a full collection on SIGUSR2, then the memory on stdout (what is live, not garbage).
    const probe = `--import=${join(ROOT, 'test/gc-probe.mjs')}`
    const env = { ...db.env, DATA_DIR: dataDir, JOB_POLL_INTERVAL_MS: '20', RATE_LIMIT_PER_MINUTE: '1000000', NODE_OPTIONS: probe }
    server = await startServer(env, [], `${BUILD_DIR}/main.js`)
    key = /live key \([^)]*\):\s+(\S+)/.exec(readFileSync(join(dataDir, 'first-start-keys.txt'), 'utf8'))![1]
  })
  after(async () => {
    await server?.stop()
    await db?.drop()
    rmSync(join(ROOT, BUILD_DIR), { recursive: true, force: true })
    rmSync(dataDir, { recursive: true, force: true })
  })

  const headers = () => ({ authorization: `Bearer ${key}`, 'content-type': 'application/json' })
  /** One generation through the API, waited for until the job finished it. */
  async function generate(language: string): Promise<void> {
    const r = await fetch(`${server.url}/v2/sdk-generations`, { method: 'POST', headers: headers(), body: JSON.stringify({ language }) })
    const made = (await r.json()) as { id: string }
    assert.equal(r.status, 202, JSON.stringify(made))
    for (let i = 0; i < 1500; i++) {
      const list = (await (await fetch(`${server.url}/v2/sdk-generations?limit=10`, { headers: headers() })).json()) as { data: { id: string; status: string; error: string | null }[] }
      const g = list.data.find((x) => x.id === made.id)!
      if (g.status === 'succeeded') return
      assert.notEqual(g.status, 'failed', g.error ?? '')
      await new Promise((r) => setTimeout(r, 20))
    }
    assert.fail(`generation ${made.id} did not finish: ${server.output()}`)
  }
  /** The server's memory right after a full garbage collection (test/gc-probe.mjs). */
  async function memory(): Promise<{ rss: number; heap: number }> {
    const lines = () =>
      server
        .output()
        .split('\n')
        .filter((l) => l.startsWith('gc-probe '))
    const before = lines().length
    server.child.kill('SIGUSR2')
    for (let i = 0; i < 500 && lines().length === before; i++) await new Promise((r) => setTimeout(r, 20))
    const m = JSON.parse(lines()[before]?.slice('gc-probe '.length) ?? 'null') as { rss: number; heapUsed: number } | null
    assert.ok(m, `the probe answered: ${server.output()}`)
    return { rss: m.rss, heap: m.heapUsed }
  }

  it('10 generations in one process grow its memory by less than 50 MB after warm-up', { timeout: 170_000 }, async (t) => {
    const languages = ['node', 'python', 'php', 'ruby']
    for (const language of languages) await generate(language) // warm-up: every emitter and runtime read once
    const start = await memory()
    assert.ok(start.rss > 0 && start.heap > 0, 'the probe reports memory')
    for (let i = 0; i < 10; i++) await generate(languages[i % languages.length])
    const end = await memory()
    const mb = (n: number) => Math.round(n / 2 ** 20)
    t.diagnostic(`RSS ${mb(start.rss)} → ${mb(end.rss)} MB, heap used ${mb(start.heap)} → ${mb(end.heap)} MB`)
    assert.ok(end.rss - start.rss < 50 * 2 ** 20, `RSS grew ${mb(end.rss - start.rss)} MB over 10 generations (${mb(start.rss)} → ${mb(end.rss)} MB)`)
    assert.ok(end.heap - start.heap < 50 * 2 ** 20, `the heap grew ${mb(end.heap - start.heap)} MB over 10 generations (${mb(start.heap)} → ${mb(end.heap)} MB)`)
  })
})
