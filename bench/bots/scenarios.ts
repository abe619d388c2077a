/**
 * Bots scenarios of `npm run bench` (issue 12: "sendBotMessage p95 ≤ 30 ms with the builtin engine on a bot
 * with 5,000 knowledge chunks"). Per engine: the built service (one all-role process) on a fresh database, a
 * knowledge base of ~5,000 chunks seeded through the API, a bot on it published, then POST /bots/{id}/messages
 * one at a time, then at 10 and 20 concurrent requests — each request a new conversation, then each
 * connection continuing its own — with the evaluation's questions in turn. Reports req/s, p50/p95/p99, the
 * server's CPU time per reply, RSS, and the share of replies that were grounded / handed off, read from the
 * responses. Writes the `bots-bench` block of docs/bots.md on a full run (both engines, 5,000 chunks, every
 * run). See bench/bots/README.md.
 */
import { execFileSync } from 'node:child_process'
import { cpus, loadavg, totalmem } from 'node:os'
import { pathToFileURL } from 'node:url'
import { rssMb } from '../knowledge/app.js'
import { DURATION, pinning, progress, ROOT } from '../lib.js'
import { botLoad, cpuSeconds, putBotsDocBlock, seedBot, TARGET, type BotLoad } from './seed.js'

/** Goal of issue 12, ms. */
const GOAL_P95 = 30
/** One at a time first: a reply's own latency, before requests queue behind each other in the one process. */
export const RUNS: { mode: 'new' | 'continue'; connections: number }[] = [
  { mode: 'new', connections: 1 },
  { mode: 'new', connections: 10 },
  { mode: 'new', connections: 20 },
  { mode: 'continue', connections: 10 },
  { mode: 'continue', connections: 20 },
]

export interface BotsRow {
  engine: string
  chunks: number
  mode: 'new' | 'continue'
  connections: number
  load?: BotLoad
  /** The server's CPU time (user + system, all threads) per reply, ms: what a reply costs, whatever else runs on the machine. */
  cpuMs?: number
  /** RSS MB after seeding and after the loads; peak over the process's life (indexing included). */
  rss?: { seeded: number; after: number; peak: number }
  note?: string
}

async function engineRows(engine: 'sqlite' | 'postgres', entry: string, wanted: (s: string) => boolean): Promise<BotsRow[]> {
  const seeded = await seedBot(engine, entry)
  try {
    const pid = seeded.app.child.pid!
    const rssSeeded = rssMb(pid).rss
    const rows: BotsRow[] = []
    for (const { mode, connections } of RUNS) {
      if (!wanted(`bots ${mode} ${connections}`)) continue
      await botLoad(seeded, mode, connections, 2)
      const cpu0 = cpuSeconds(pid)
      const r = await botLoad(seeded, mode, connections, DURATION)
      const cpuMs = r.times.length ? Math.round(((cpuSeconds(pid) - cpu0) * 1000 * 10) / r.times.length) / 10 : 0
      progress(`bots ${engine} ${mode} @${connections}: ${r.rps} req/s, p95 ${r.p95} ms, ${cpuMs} ms server CPU a reply, ${share(r.tally.handoff, r.tally.replies)} handed off`)
      rows.push({ engine, chunks: seeded.chunks, mode, connections, load: r, cpuMs, note: r.errors || r.non2xx ? `${r.errors} errors, ${r.non2xx} non-2xx` : undefined })
    }
    const { rss, peak } = rssMb(pid)
    for (const row of rows) row.rss = { seeded: rssSeeded, after: rss, peak }
    return rows
  } finally {
    await seeded.app.close()
  }
}

const share = (n: number, of: number) => (of ? `${Math.round((100 * n) / of)} %` : '—')

export function botsTable(rows: BotsRow[]): string {
  const head =
    '| engine | chunks | conversation | concurrent | req/s | p50 ms | p95 ms (goal ≤ 30 at 1 concurrent) | p99 ms | server CPU ms / reply | grounded | handed off (why) | RSS MB seeded → after | peak RSS MB |\n' +
    '|---|---:|---|---:|---:|---:|---:|---:|---:|---:|---|---|---:|'
  const body = rows.map((r) => {
    if (!r.load) return `| ${r.engine} | ${r.note} | | | | | | | | | | | |`
    const t = r.load.tally
    const why = Object.entries(t.reasons)
      .sort((a, b) => b[1] - a[1])
      .map(([k, v]) => `${k} ${share(v, t.replies)}`)
      .join(', ')
    // The goal is a reply's own latency: judged on the 1-concurrent rows only (see goalLine).
    const flag = r.connections !== 1 ? '' : r.load.p95 > GOAL_P95 ? ' ⚠' : ' ✓'
    return (
      `| ${r.engine} | ${r.chunks.toLocaleString('en')} | ${r.mode === 'new' ? 'new each request' : 'one per connection'} | ${r.connections} | ${r.load.rps} | ` +
      `${r.load.p50} | ${r.load.p95}${flag} | ${r.load.p99} | ${r.cpuMs} | ${share(t.grounded, t.replies)} | ${share(t.handoff, t.replies)}${why ? ` (${why})` : ''} | ` +
      `${r.rss?.seeded} → ${r.rss?.after} | ${r.rss?.peak} |${r.note ? ` ${r.note}` : ''}`
    )
  })
  return [head, ...body].join('\n')
}

/**
 * Whether issue 12's goal is met, read from the 1-concurrent rows: one client's request is a reply's own
 * latency. At N concurrent a closed loop against one process queues (p50 ≈ N × CPU per reply), so those
 * rows say how much the service serves, not how long a reply takes.
 */
export function goalLine(rows: BotsRow[]): string {
  const ones = rows.filter((r) => r.load && r.connections === 1)
  if (ones.length === 0) return ''
  const verdicts = ones.map((r) => `${r.engine} ${r.load!.p95} ms (${r.load!.p95 <= GOAL_P95 ? 'met' : 'not met'})`)
  return `Goal (issue 12, p95 ≤ ${GOAL_P95} ms, judged at 1 concurrent request): ${verdicts.join(', ')}.`
}

const loadNow = () =>
  loadavg()
    .map((l) => l.toFixed(1))
    .join(' / ')

/** The machine and how busy it was: on a shared machine the latencies say as much about the neighbours as about the code. */
export function machineLine(loadAtStart: string): string {
  return `${cpus().length} × ${cpus()[0]?.model ?? 'cpu'}, ${Math.round(totalmem() / 2 ** 30)} GiB, Node ${process.version}, ${pinning.label}, load average (1/5/15 min) ${loadAtStart} at the start, ${loadNow()} at the end, ${new Date().toISOString()}`
}

/** Called by bench/run.ts after the knowledge bench: the runs `wanted` selects ("bots new 10" …), printed, written to docs/bots.md when measured in full. */
export async function botsBench(engines: string[], wanted: (scenario: string) => boolean, entry = 'dist/main.js'): Promise<BotsRow[]> {
  if (!RUNS.some((r) => wanted(`bots ${r.mode} ${r.connections}`))) return []
  const loadAtStart = loadNow()
  const rows: BotsRow[] = []
  for (const engine of engines) {
    try {
      rows.push(...(await engineRows(engine as 'sqlite' | 'postgres', entry, wanted)))
    } catch (err) {
      const msg = `FAILED: ${(err as Error).message.slice(0, 300)}`
      progress(`bots ${engine} ${msg}`)
      rows.push({ engine, chunks: 0, mode: 'new', connections: 0, note: msg })
    }
  }
  const out =
    `Latest run: ${machineLine(loadAtStart)}. The built service (dist/main.js, one all-role process) on a fresh database; one knowledge ` +
    `base of ~${TARGET.toLocaleString('en')} chunks (the evaluation corpus as ~60 KB Markdown files, uploaded through the API and processed by ` +
    `the service's worker); a bot with default settings (builtin engine, hand-off below confidence 0.5, answer only when grounded) ` +
    `linked to it and published. POST /v2/bots/{id}/messages with the knowledge evaluation's questions in turn (1, 10 and 20 concurrent requests), ${DURATION} s per run after 2 s of ` +
    `warm-up; "new each request": a new conversation and contact per request; "one per connection": each connection continues its ` +
    `own conversation (the engine sees up to 10 earlier messages). Grounded and handed-off shares are read from the replies; server CPU is the process's user + system time over the run divided by its replies.\n\n${goalLine(rows)}\n\n${botsTable(rows)}`
  process.stdout.write(`\n${out}\n`)
  const full = engines.join(',') === 'sqlite,postgres' && TARGET === 5000 && RUNS.every((r) => wanted(`bots ${r.mode} ${r.connections}`))
  if (full && rows.every((r) => r.load)) putBotsDocBlock('bots-bench', out, 'Speed')
  return rows
}

// Alone: `node --import tsx bench/bots/scenarios.ts` builds dist/main.js as `npm run bench` does, then runs the bots bench only.
if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  const engines = (process.env.BENCH_ENGINES ?? 'sqlite,postgres').split(',')
  const only = process.env.BENCH_ONLY ? new RegExp(process.env.BENCH_ONLY) : null
  const entry = process.env.BENCH_BOTS_ENTRY ?? 'dist/main.js'
  if (entry === 'dist/main.js') execFileSync(process.execPath, ['scripts/build.mjs'], { cwd: ROOT, stdio: 'inherit' })
  const rows = await botsBench(engines, (s) => !only || only.test(s), entry)
  process.exit(rows.some((r) => !r.load) ? 1 : 0)
}
