/**
 * npm run bench — one command, one process tree, one run:
 *   the baselines (bare Fastify: hello, a static copy of our list responses, one indexed SQLite read), each in
 *   its own process like the service; our hot paths on SQLite and on PostgreSQL at a fixed concurrency,
 *   with req/s, p50/p99, peak RSS of the server and the ratio to the matching baseline; webhook deliveries
 *   per second and event → first attempt latency; then the same paths at a million conversations
 *   (bench/scale.ts). Writes the tables and docs/performance.svg on a full run. Not part of npm test.
 *
 * BENCH_DURATION (seconds per scenario, default 8), BENCH_CONNECTIONS (default 50), BENCH_ENGINES
 * (default "sqlite,postgres"), BENCH_DELIVERIES (default 2000), BENCH_SCALE (default 1 = 1,000,000
 * conversations and 10,000,000 messages; 0 skips it; 0.01 for a quick try), BENCH_ONLY (a regular
 * expression: only the scenarios it matches; the scale part only when it mentions "scale"), BENCH_PUBLISH (see FULL). PostgreSQL
 * and Redis as for the tests (TEST_PG_URL, TEST_REDIS_URL). BENCH_SOAK_MINUTES (default 10; 0 skips the soak).
 */
import { readFileSync, writeFileSync } from 'node:fs'
import { cpus, totalmem } from 'node:os'
import { BASELINE_NAMES, bareHello, bareSqliteRead, bareStatic, type Baseline, type BaselineKey } from './baselines.js'
import { chart } from './chart.js'
import { CONNECTIONS, DURATION, pinning } from './lib.js'
import { scaleScenario, SCALE_CONNECTIONS, type ScaleResult } from './scale.js'
import { smallTables, type Captures, type Row } from './service.js'

const ENGINES = (process.env.BENCH_ENGINES ?? 'sqlite,postgres').split(',')
const SCALE = Number(process.env.BENCH_SCALE ?? 1)
const ONLY = process.env.BENCH_ONLY ? new RegExp(process.env.BENCH_ONLY) : null
const wanted = (scenario: string) => !ONLY || ONLY.test(scenario)
// A partial run prints its rows but leaves the published tables and chart alone, unless BENCH_PUBLISH names the
// blocks it ran whole ("bench": the small-table block and the chart; "soak"), on both engines: a quiet re-run of
// the request paths without the hour of knowledge, bots and scale scenarios.
const BOTH = ENGINES.join(',') === 'sqlite,postgres'
const FULL = !ONLY && BOTH
const PUBLISH = new Set(BOTH ? (process.env.BENCH_PUBLISH ?? '').split(',').filter(Boolean) : [])

const baselines = new Map<BaselineKey, Baseline>()
const rows: Row[] = []
let captures: Captures = {}
const scale: ScaleResult[] = []

process.stdout.write(`CPU: ${pinning.label}\n`)
baselines.set('hello', await bareHello())
if (wanted('getConversation')) baselines.set('sqlite-read', await bareSqliteRead())
for (const engine of ENGINES) {
  try {
    const r = await smallTables(engine, wanted)
    rows.push(...r.rows)
    captures = { ...r.captures, ...captures }
  } catch (err) {
    rows.push({ engine, scenario: `FAILED: ${(err as Error).message.slice(0, 200)}`, rps: 0, p50: 0, p99: 0, rssMb: 0, vs: [] })
  }
}
// The same bytes as our responses (captured from the first engine; the other's differ only in ids and times).
if (captures.list && wanted('listConversations')) baselines.set('list-bytes', await bareStatic('list-bytes', 'GET /v2/inbox/conversations?limit=20', captures.list))
if (captures.members && wanted('listWorkspaceMembers')) baselines.set('members-bytes', await bareStatic('members-bytes', 'GET /v2/workspaces/{id}/members?limit=20', captures.members))
if (SCALE > 0 && (!ONLY || process.env.BENCH_ONLY!.includes('scale'))) {
  for (const engine of ENGINES) {
    try {
      const r = await scaleScenario(engine as 'sqlite' | 'postgres', SCALE, (s) => !ONLY || ONLY.test(`scale ${s}`))
      process.stdout.write(`scale ${engine}: seeded small in ${r.seeding.small} s, ${r.shape.conversations} conversations in ${r.seeding.big} s\n`)
      scale.push(r)
    } catch (err) {
      process.stderr.write(`scale ${engine} FAILED: ${(err as Error).stack}\n`)
    }
  }
}

// Knowledge (bench/knowledge/README.md): search p95 and indexing at 50,000 chunks, retrieval quality; own tables in docs/knowledge.md.
const { knowledgeBench } = await import('./knowledge/scenarios.js')
await knowledgeBench(ENGINES, wanted)
// Bots (bench/bots/README.md): sendBotMessage on a bot with 5,000 knowledge chunks; own table in docs/bots.md.
const { botsBench } = await import('./bots/scenarios.js')
await botsBench(ENGINES, wanted)
// API logs (bench/api-logs/README.md): throughput with API_LOGS=on against off, in turns; own block in docs/performance.md.
const { apiLogsBench } = await import('./api-logs/scenarios.js')
await apiLogsBench(ENGINES, wanted)
// The live event stream (bench/live/scenarios.ts): 1,000 streams held by one process, memory per client, event → client latency.
const { liveBench } = await import('./live/scenarios.js')
await liveBench(ENGINES, wanted, 'dist/main.js', FULL)
// Soak (bench/soak.ts): BENCH_SOAK_MINUTES of mixed operations on one process, RSS growth after warm-up; own block in docs/performance.md.
const { soakBench } = await import('./soak.js')
await soakBench(ENGINES, wanted, FULL || PUBLISH.has('soak'))
// Dashboard (bench/dashboard/scenarios.ts): bundle sizes and the inbox's time to interactive in Chromium; own block in docs/performance.md.
const { dashboardBench } = await import('./dashboard/scenarios.js')
await dashboardBench(wanted, FULL)

const round2 = (v: number) => Math.round(v * 100) / 100
const ratio = (row: Row, key: BaselineKey) => {
  const b = baselines.get(key)
  return b && row.rps ? round2(row.rps / b.rps) : undefined
}

function table(): string {
  const head = '| engine | scenario | req/s | p50 ms | p99 ms | peak RSS MB | baseline | × |\n|---|---|---:|---:|---:|---:|---|---:|'
  const base = [...baselines.values()].map((b) => `| — | ${b.label} | ${b.rps} | ${b.p50} | ${b.p99} | ${b.rssMb} | ${BASELINE_NAMES[b.key]} | 1 |`)
  const body = rows.map((r) => {
    const vs = r.vs.filter((k) => baselines.has(k))
    const names = vs.map((k) => BASELINE_NAMES[k]).join(' · ') || '—'
    const xs = vs.map((k) => ratio(r, k)).join(' · ') || '—'
    return `| ${r.engine} | ${r.scenario}${r.note ? ` (${r.note})` : ''} | ${r.rps || '—'} | ${r.p50 || '—'} | ${r.p99 || '—'} | ${r.rssMb} | ${names} | ${xs} |`
  })
  return [head, ...base, ...body].join('\n')
}

function scaleTable(): string {
  const head = '| engine | scenario | p50 ms small → scale | p95 ms small | p95 ms at scale | × p95 (goal ≤ 1.5) | req/s small → scale |\n|---|---|---:|---:|---:|---:|---:|'
  const body = scale.flatMap((s) =>
    s.rows.map((r) => {
      const x = r.small.p95 ? round2(r.big.p95 / r.small.p95) : 0
      const flag = x > 1.5 ? ' ⚠' : ''
      return `| ${r.engine} | ${r.scenario}${r.note ? ` (${r.note})` : ''} | ${r.small.p50} → ${r.big.p50} | ${r.small.p95} | ${r.big.p95} | ${x}${flag} | ${r.small.rps} → ${r.big.rps} |`
    }),
  )
  return [head, ...body].join('\n')
}

/** The chart's bars: every row with a baseline, one label per path (engines side by side). */
function bars() {
  const byLabel = new Map<string, Record<string, number | undefined>>()
  for (const r of rows) {
    for (const k of r.vs.filter((k) => baselines.has(k))) {
      const label = `${/\((\w+)/.exec(r.scenario)?.[1] ?? r.scenario} vs ${BASELINE_NAMES[k]}`
      byLabel.set(label, { ...byLabel.get(label), [r.engine]: ratio(r, k) })
    }
  }
  return [...byLabel].map(([label, values]) => ({ label, values }))
}

const machine = `${cpus().length} × ${cpus()[0]?.model ?? 'cpu'}, ${Math.round(totalmem() / 2 ** 30)} GiB, Node ${process.version}, ${pinning.label}, ${new Date().toISOString()}`
const out = table()
process.stdout.write(`\n${machine}\n${CONNECTIONS} connections, ${DURATION} s per scenario\n\n${out}\n`)
let scaleHeader = ''
if (scale.length) {
  const shape = scale[0].shape
  const seeding = scale.map((s) => `${s.rows[0]?.engine ?? '?'} ${s.seeding.big} s`).join(', ')
  scaleHeader =
    `BENCH_SCALE=${SCALE}: ${shape.conversations.toLocaleString('en')} conversations (~${(shape.conversations * 10).toLocaleString('en')} messages, ` +
    `${(shape.conversations / 10).toLocaleString('en')} webhook deliveries) in one workspace and ${shape.otherWorkspaces.toLocaleString('en')} other workspaces; ` +
    `small: the same shape at 1,000 conversations. Seeding (bulk SQL, the service stopped): ${seeding}. ${SCALE_CONNECTIONS} connections, ${DURATION} s per scenario.`
  process.stdout.write(`\n${scaleHeader}\n\n${scaleTable()}\n`)
}

if (FULL || PUBLISH.has('bench')) {
  const docPath = new URL('../docs/performance.md', import.meta.url)
  let doc = readFileSync(docPath, 'utf8')
  const put = (name: string, content: string) => {
    const block = `<!-- ${name}:start -->\n${content}\n<!-- ${name}:end -->`
    const re = new RegExp(`<!-- ${name}:start -->[\\s\\S]*<!-- ${name}:end -->`)
    doc = re.test(doc) ? doc.replace(re, block) : `${doc}\n${block}\n`
  }
  put('bench', `Latest \`npm run bench\`: ${machine}; ${CONNECTIONS} connections, ${DURATION} s per scenario.\n\n${out}`)
  if (scale.length) put('bench-scale', `Latest \`npm run bench\`: ${machine}. ${scaleHeader}\n\n${scaleTable()}`)
  writeFileSync(docPath, doc)
  writeFileSync(new URL('../docs/performance.svg', import.meta.url), chart(`req/s as a fraction of the matching bare-Fastify baseline (${pinning.label})`, bars()))
}
process.exit(0)
