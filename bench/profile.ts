/**
 * npm run bench:profile — where a hot path's CPU time goes, for docs/performance.md ("Where the remaining
 * time goes"). Starts the service from the TypeScript sources (so every frame names its file) under
 * `--cpu-prof`, loads one path with autocannon, stops the server, and prints the self time of the server's
 * main thread grouped by where the code lives: our kernel and modules by folder, each npm package, Node's
 * own JavaScript, native work (C++ bindings, syscalls such as the socket write) and garbage collection.
 *
 * PROFILE_PATHS (default "get,list,send"): get = GET /v2/inbox/conversations/{id}, list = GET
 * /v2/inbox/conversations?limit=20, send = sendMessage with a fresh Idempotency-Key, ws = GET
 * /v2/workspaces/current. PROFILE_ENGINE (default sqlite), BENCH_DURATION, BENCH_CONNECTIONS as for the bench.
 */
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { createTestDatabase } from '../test/helpers.js'
import { freePort, svc } from '../test/spawn.js'
import { apiClient, load, seedConversations, sendMessageLoad, startProcess, stop } from './lib.js'
import { place, type Profile, type ProfileNode } from './cpu-profile.js'
import { serviceEnv } from './service.js'

/** A frame as a function: its name and file (for the top-functions table). */
const fn = (f: ProfileNode['callFrame']) => `${f.functionName || '(anonymous)'} ${f.url.replace(/^.*\/(node_modules|src)\//, '$1/').replace(/^file:\/\//, '')}:${f.lineNumber + 1}`

function breakdown(p: Profile, key: (f: ProfileNode['callFrame']) => string): { total: number; rows: [string, number][] } {
  const byId = new Map(p.nodes.map((n) => [n.id, n]))
  const self = new Map<string, number>()
  let total = 0
  p.samples.forEach((id, i) => {
    const dt = p.timeDeltas[i] ?? 0
    const frame = byId.get(id)!.callFrame
    if (place(frame) === 'idle') return
    const where = key(frame)
    total += dt
    self.set(where, (self.get(where) ?? 0) + dt)
  })
  return { total, rows: [...self.entries()].sort((a, b) => b[1] - a[1]) }
}

const paths = (process.env.PROFILE_PATHS ?? 'get,list,send').split(',')
const engine = (process.env.PROFILE_ENGINE ?? 'sqlite') as 'sqlite' | 'postgres'
const db = await createTestDatabase(engine)
const dir = mkdtempSync(join(tmpdir(), 'svc-prof-'))
try {
  const ws = JSON.parse(await svc(['workspaces', 'create', '--name', 'Profile', '--json'], db.env))
  const key = JSON.parse(await svc(['keys', 'create', '--scopes', 'admin', '--workspace', ws.id, '--json'], db.env)).key as string
  for (const path of paths) {
    const port = await freePort()
    const url = `http://127.0.0.1:${port}`
    const child = await startProcess([`--cpu-prof`, `--cpu-prof-dir=${dir}/${path}`, 'src/main.ts'], { ...db.env, ...serviceEnv(port) }, `${url}/livez`)
    const api = apiClient(url, key)
    const headers = { authorization: `Bearer ${key}`, 'content-type': 'application/json' }
    const conversations = await seedConversations(api)
    const opts =
      path === 'get'
        ? { url: `${url}/v2/inbox/conversations/${conversations[0]}`, headers }
        : path === 'list'
          ? { url: `${url}/v2/inbox/conversations?limit=20`, headers }
          : path === 'ws'
            ? { url: `${url}/v2/workspaces/current`, headers }
            : sendMessageLoad(url, headers, conversations, 'prof')
    await load({ ...opts, duration: 2 })
    const r = await load(opts)
    await stop(child)
    const file = readdirSync(`${dir}/${path}`).find((f) => f.endsWith('.cpuprofile'))!
    const profile = JSON.parse(readFileSync(`${dir}/${path}/${file}`, 'utf8'))
    const { total, rows } = breakdown(profile, place)
    process.stdout.write(`\n${engine} ${path}: ${r.rps} req/s under the profiler; busy ${(total / 1e6).toFixed(1)} s of the server's main thread\n`)
    process.stdout.write('| where | share of busy time |\n|---|---:|\n')
    for (const [where, us] of rows.filter(([, us]) => us / total >= 0.01)) process.stdout.write(`| ${where} | ${((100 * us) / total).toFixed(1)} % |\n`)
    // Native calls made from JavaScript (better-sqlite3's statements, say) count as the calling frame's self time.
    process.stdout.write('\n| top functions (self time; a native call counts for the JavaScript that made it) | share |\n|---|---:|\n')
    for (const [where, us] of breakdown(profile, fn).rows.slice(0, 15)) process.stdout.write(`| ${where} | ${((100 * us) / total).toFixed(1)} % |\n`)
  }
} finally {
  rmSync(dir, { recursive: true, force: true })
  await db.drop()
}
