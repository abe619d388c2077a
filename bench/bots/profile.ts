/**
 * Where a bot reply's CPU time goes: `node --import tsx bench/bots/profile.ts`. Seeds the bots bench's base
 * and bot on a service started from the TypeScript sources (so every frame names its file) through
 * profiled-main.ts, loads POST /bots/{id}/messages (new conversation each request, PROFILE_CONNECTIONS,
 * default 10) for BENCH_DURATION seconds with the server's sampling profiler on for that load only, and
 * prints the main thread's busy time as: inclusive time per source file of ours (a file counts once per
 * sample however deep it is on the stack), self time by place (bench/profile.ts's grouping), and the top
 * functions by self time. PROFILE_ENGINE (default sqlite), BENCH_BOTS_CHUNKS as for the bench.
 */
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { loadQuestions, V } from '../knowledge/app.js'
import { DURATION, load, type LoadResult } from '../lib.js'
import { place, type Profile, type ProfileNode } from '../cpu-profile.js'
import { botLoad, cpuSeconds, seedBot, type SeededBot } from './seed.js'

const fn = (f: ProfileNode['callFrame']) => `${f.functionName || '(anonymous)'} ${f.url.replace(/^.*\/(node_modules|src)\//, '$1/')}:${f.lineNumber + 1}`
const ourFile = (f: ProfileNode['callFrame']) => /\/src\/(.+\.ts)$/.exec(f.url)?.[1] ?? null

/** Self time by `key`, inclusive time by our source file, and the busy total. */
function analyse(p: Profile, key: (f: ProfileNode['callFrame']) => string) {
  const byId = new Map(p.nodes.map((n) => [n.id, n]))
  const parent = new Map<number, number>()
  for (const n of p.nodes) for (const c of n.children ?? []) parent.set(c, n.id)
  const self = new Map<string, number>()
  const inclusive = new Map<string, number>()
  const inclusiveFn = new Map<string, number>()
  let total = 0
  p.samples.forEach((id, i) => {
    const dt = p.timeDeltas[i] ?? 0
    const frame = byId.get(id)!.callFrame
    if (place(frame) === 'idle') return
    total += dt
    self.set(key(frame), (self.get(key(frame)) ?? 0) + dt)
    const files = new Set<string>()
    const fns = new Set<string>()
    for (let at: number | undefined = id; at !== undefined; at = parent.get(at)) {
      const f = byId.get(at)!.callFrame
      const file = ourFile(f)
      if (file) {
        files.add(file)
        if (f.functionName) fns.add(`${f.functionName} (${file})`)
      }
    }
    for (const file of files) inclusive.set(file, (inclusive.get(file) ?? 0) + dt)
    for (const f of fns) inclusiveFn.set(f, (inclusiveFn.get(f) ?? 0) + dt)
  })
  const sorted = (m: Map<string, number>) => [...m.entries()].sort((a, b) => b[1] - a[1])
  return { total, self: sorted(self), inclusive: sorted(inclusive), inclusiveFn: sorted(inclusiveFn) }
}

/**
 * The reply's parts measured alone on the same service, unprofiled: the knowledge search the turn makes
 * (POST /knowledge/search, top_k 5, the same questions) and an inbox write of about the same size
 * (POST /inbox/conversations with a first message), next to the whole reply; server CPU per request.
 */
async function parts(s: SeededBot, connections: number): Promise<string> {
  const questions = loadQuestions().map((q) => q.question)
  const headers = { authorization: `Bearer ${s.app.key}`, 'content-type': 'application/json' }
  const pid = s.app.child.pid!
  let n = 0
  const paths: [string, () => Promise<LoadResult>][] = [
    ['POST /bots/{id}/messages (the whole reply)', () => botLoad(s, 'new', connections, DURATION)],
    [
      'POST /knowledge/search (top_k 5): the retrieval alone',
      () =>
        load({
          url: `${s.app.url}${V}/knowledge/search`,
          method: 'POST',
          headers,
          connections,
          duration: DURATION,
          requests: [{ setupRequest: (req: any) => ({ ...req, body: JSON.stringify({ query: questions[n++ % questions.length], knowledge_base_ids: [s.kbId], top_k: 5 }) }) }],
        }),
    ],
    [
      'POST /inbox/conversations with a message: an inbox write alone',
      () =>
        load({
          url: `${s.app.url}${V}/inbox/conversations`,
          method: 'POST',
          headers,
          connections,
          duration: DURATION,
          requests: [
            {
              setupRequest: (req: any) => {
                const i = n++
                return { ...req, body: JSON.stringify({ channel: 'chat', contact: { name: `Visitor ${i}`, email: `visitor${i}@example.com` }, message: { content: questions[i % questions.length] } }) }
              },
            },
          ],
        }),
    ],
  ]
  const rows = ['| path (alone, unprofiled) | req/s | p50 ms | p95 ms | server CPU ms / request |', '|---|---:|---:|---:|---:|']
  for (const [label, run] of paths) {
    await run()
    const cpu0 = cpuSeconds(pid)
    const r = await run()
    const cpuMs = r.times.length ? ((cpuSeconds(pid) - cpu0) * 1000) / r.times.length : 0
    rows.push(`| ${label} | ${r.rps} | ${r.p50} | ${r.p95} | ${cpuMs.toFixed(1)} |${r.errors || r.non2xx ? ` ${r.errors} errors, ${r.non2xx} non-2xx` : ''}`)
  }
  return rows.join('\n')
}

const engine = (process.env.PROFILE_ENGINE ?? 'sqlite') as 'sqlite' | 'postgres'
const connections = Number(process.env.PROFILE_CONNECTIONS ?? 10)
const dir = mkdtempSync(join(tmpdir(), 'bots-prof-'))
const out = join(dir, 'server.cpuprofile')
const seeded = await seedBot(engine, 'bench/bots/profiled-main.ts', { BOTS_PROFILE_OUT: out })
let result: Awaited<ReturnType<typeof botLoad>>
let partsTable = ''
try {
  partsTable = await parts(seeded, connections)
  const pid = seeded.app.child.pid!
  process.kill(pid, 'SIGUSR2')
  await new Promise((r) => setTimeout(r, 200))
  result = await botLoad(seeded, 'new', connections, DURATION)
  process.kill(pid, 'SIGUSR2')
  for (let i = 0; i < 100 && !existsSync(out); i++) await new Promise((r) => setTimeout(r, 100))
  await new Promise((r) => setTimeout(r, 500)) // the write may still be under way
} finally {
  await seeded.app.close()
}
try {
  if (!existsSync(out)) throw new Error(`the server wrote no profile to ${out}`)
  const profile = JSON.parse(readFileSync(out, 'utf8')) as Profile
  const pct = (us: number, total: number) => `${((100 * us) / total).toFixed(1)} %`
  const a = analyse(profile, place)
  const replies = result.times.length
  process.stdout.write(
    `\n${engine}, ${seeded.chunks} chunks, ${connections} concurrent, new conversation each request: ${result.rps} req/s under the profiler, p95 ${result.p95} ms; ` +
      `main thread busy ${(a.total / 1e6).toFixed(2)} s for ${replies} replies = ${(a.total / 1000 / replies).toFixed(2)} ms a reply\n`,
  )
  process.stdout.write(`\n${partsTable}\n`)
  process.stdout.write('\n| our file (inclusive: the sample is under it) | share of busy time | ms a reply |\n|---|---:|---:|\n')
  for (const [f, us] of a.inclusive.filter(([, us]) => us / a.total >= 0.02)) process.stdout.write(`| ${f} | ${pct(us, a.total)} | ${(us / 1000 / replies).toFixed(2)} |\n`)
  process.stdout.write('\n| our function (inclusive) | share of busy time | ms a reply |\n|---|---:|---:|\n')
  for (const [f, us] of a.inclusiveFn.filter(([, us]) => us / a.total >= 0.02).slice(0, 40)) process.stdout.write(`| ${f} | ${pct(us, a.total)} | ${(us / 1000 / replies).toFixed(2)} |\n`)
  process.stdout.write('\n| where (self time) | share of busy time |\n|---|---:|\n')
  for (const [w, us] of a.self.filter(([, us]) => us / a.total >= 0.01)) process.stdout.write(`| ${w} | ${pct(us, a.total)} |\n`)
  process.stdout.write('\n| top functions (self time; a native call counts for the JavaScript that made it) | share |\n|---|---:|\n')
  for (const [w, us] of analyse(profile, fn).self.slice(0, 20)) process.stdout.write(`| ${w} | ${pct(us, a.total)} |\n`)
} finally {
  rmSync(dir, { recursive: true, force: true })
}
process.exit(0)
