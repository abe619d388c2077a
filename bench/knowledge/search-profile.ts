/**
 * Where one knowledge search's time goes, step by step, on a kept 50,000-chunk base (not part of
 * `npm run bench`; for working on the search):
 *
 *   node --import tsx bench/knowledge/search-profile.ts              # SQLite
 *   PROFILE_ENGINE=postgres node --import tsx bench/knowledge/search-profile.ts
 *
 * The first run seeds the base as the bench does (the same files, through the API and the service's job
 * worker) into PROFILE_DIR (default /tmp/svc-knowledge-profile: a SQLite file, or the name of a PostgreSQL
 * schema `knowledge_profile`) and keeps it; later runs open it in this process and time every question of
 * the evaluation through `retrieve` and each of its steps: Node CPU (process.cpuUsage) and wall time. On
 * PostgreSQL the wall time also holds the database's own work; on SQLite both are this process.
 * PROFILE_TUNE tries the ranking's settings at this scale, PROFILE_HTTP=1 runs the bench's search load
 * against the kept base (both below; bench/knowledge/README.md).
 */
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import pg from 'pg'
import { buildApp } from '../../src/app.js'
import { loadConfig } from '../../src/config.js'
import * as index from '../../src/modules/knowledge/knowledge-index.repository.js'
import { CANDIDATES } from '../../src/modules/knowledge/knowledge-search.service.js'
import { bm25fScorer, planFilters } from '../../src/modules/knowledge/knowledge-ranking.js'
import { readSearchStats, readStats } from '../../src/modules/knowledge/knowledge-stats.repository.js'
import { analyserFor, queryTerms } from '../../src/modules/knowledge/knowledge.text.js'
import { PG_URL } from '../../test/helpers.js'
import { freePort, svc } from '../../test/spawn.js'
import { apiClient, DURATION, load, startProcess, stop } from '../lib.js'
import { serviceEnv } from '../service.js'
import { loadCorpus, loadQuestions, treeCpuMs, upload, V, waitSettled } from './app.js'
import { score } from './evaluate.js'
import { file } from './scenarios.js'

const ENGINE = (process.env.PROFILE_ENGINE ?? 'sqlite') as 'sqlite' | 'postgres'
const DIR = process.env.PROFILE_DIR ?? '/tmp/svc-knowledge-profile'
const TARGET = Number(process.env.BENCH_KNOWLEDGE_CHUNKS ?? 50_000)
const ROUNDS = Number(process.env.PROFILE_ROUNDS ?? 5)
const SCHEMA = 'knowledge_profile'

const dbEnv = (): Record<string, string> => (ENGINE === 'postgres' ? { DATABASE_URL: PG_URL, DATABASE_SCHEMA: SCHEMA } : { DATABASE_URL: `sqlite:${join(DIR, 'svc.sqlite')}` })

interface Seeded {
  workspaceId: string
  kbId: string
  chunks: number
}

async function seed(): Promise<Seeded> {
  const marker = join(DIR, `${ENGINE}.json`)
  if (existsSync(marker)) return JSON.parse(readFileSync(marker, 'utf8')) as Seeded
  mkdirSync(DIR, { recursive: true })
  if (ENGINE === 'postgres') {
    const c = new pg.Client({ connectionString: PG_URL })
    await c.connect()
    await c.query(`drop schema if exists "${SCHEMA}" cascade`)
    await c.query(`create schema "${SCHEMA}"`)
    await c.end()
  }
  const port = await freePort()
  const env = { ...dbEnv(), ...serviceEnv(port) }
  const ws = JSON.parse(await svc(['workspaces', 'create', '--name', 'Knowledge profile', '--json'], env))
  const key = JSON.parse(await svc(['keys', 'create', '--scopes', 'admin', '--workspace', ws.id, '--json'], env)).key as string
  const url = `http://127.0.0.1:${port}`
  const child = await startProcess(['src/main.ts'], env, `${url}/livez`)
  try {
    const api = apiClient(url, key)
    const corpus = loadCorpus()
    const kb = await api('POST', `${V}/knowledge/bases`, { name: 'Bench', language: 'en' })
    await upload(api, kb.id, [file(corpus, 0)], 1)
    const first = await waitSettled(api, kb.id, 1)
    const files = Math.max(2, Math.ceil(TARGET / Math.max(1, first.docs[0].chunk_count)))
    await upload(
      api,
      kb.id,
      Array.from({ length: files - 1 }, (_, i) => file(corpus, i + 1)),
      4,
    )
    const { docs } = await waitSettled(api, kb.id, files)
    const s: Seeded = { workspaceId: ws.id, kbId: kb.id, chunks: docs.reduce((n, d) => n + d.chunk_count, 0) }
    writeFileSync(marker, JSON.stringify(s))
    return s
  } finally {
    await stop(child)
  }
}

/** CPU µs and wall µs of `fn`, summed into `acc[name]`. */
const acc = new Map<string, { cpu: number; wall: number; n: number }>()
async function timed<T>(name: string, fn: () => Promise<T> | T): Promise<T> {
  const c0 = process.cpuUsage()
  const w0 = performance.now()
  const out = await fn()
  const c = process.cpuUsage(c0)
  const a = acc.get(name) ?? { cpu: 0, wall: 0, n: 0 }
  a.cpu += c.user + c.system
  a.wall += (performance.now() - w0) * 1000
  a.n++
  acc.set(name, a)
  return out
}

const s = await seed()

// PROFILE_HTTP=1: the bench's search load (20 concurrent POST /knowledge/search over the questions; PROFILE_CONNECTIONS=1 for one client) against
// the kept base, on the server as `npm start` runs it (dist/main.js; PROFILE_ENTRY=src/main.ts for the
// sources): p50/p95 and the server's CPU per search, without seeding again.
if (process.env.PROFILE_HTTP === '1') {
  const port = await freePort()
  const env = { ...dbEnv(), ...serviceEnv(port) }
  const key = JSON.parse(await svc(['keys', 'create', '--scopes', 'admin', '--workspace', s.workspaceId, '--json'], env)).key as string
  const url = `http://127.0.0.1:${port}`
  // PROFILE_ENTRY may carry node flags before the file: "--cpu-prof --cpu-prof-dir=/tmp/p dist/main.js".
  const child = await startProcess((process.env.PROFILE_ENTRY ?? 'dist/main.js').split(' '), env, `${url}/livez`)
  try {
    const queries = loadQuestions().map((q) => q.question)
    let n = 0
    const run = (duration: number) =>
      load({
        url: `${url}${V}/knowledge/search`,
        method: 'POST',
        headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
        connections: Number(process.env.PROFILE_CONNECTIONS ?? 20),
        duration,
        requests: [{ setupRequest: (req: any) => ({ ...req, body: JSON.stringify({ query: queries[n++ % queries.length], knowledge_base_ids: [s.kbId], top_k: 5 }) }) }],
      })
    await run(2)
    const cpu0 = treeCpuMs(child.pid!)
    const r = await run(DURATION)
    const perSearch = (treeCpuMs(child.pid!) - cpu0) / Math.max(1, r.rps * DURATION)
    process.stdout.write(
      `${ENGINE} HTTP: ${r.rps} req/s, p50 ${r.p50} ms, p95 ${r.p95} ms, p99 ${r.p99} ms, server CPU ${perSearch.toFixed(2)} ms per search${r.errors || r.non2xx ? `, ${r.errors} errors, ${r.non2xx} non-2xx` : ''}\n`,
    )
  } finally {
    await stop(child)
  }
  process.exit(0)
}

const app = await buildApp({ config: loadConfig({ ...dbEnv(), LOG_LEVEL: 'silent', SVC_ROLE: 'api', RATE_LIMIT_PER_MINUTE: '100000000' }) })
try {
  const db = app.kernel.db
  const search = app.services.knowledge.search
  const tenant = { workspaceId: s.workspaceId, mode: 'live' as const }
  const questions = loadQuestions().map((q) => q.question)
  const a = analyserFor('en')
  // Warm-up: statements prepared, caches filled.
  for (const q of questions) await search.retrieve(tenant, q, { knowledgeBaseIds: [s.kbId], topK: 5 })
  acc.clear()
  let candidates = 0
  for (let r = 0; r < ROUNDS; r++) {
    for (const q of questions) {
      await timed('retrieve (whole)', () => search.retrieve(tenant, q, { knowledgeBaseIds: [s.kbId], topK: 5 }))
      const terms = await timed('1 analyse question', () => queryTerms(q, a))
      const { bases, stats } = await timed('2 bases and statistics', () => readSearchStats(db, tenant, [s.kbId], terms))
      const plans = await timed('3 planFilters', () => planFilters(terms, stats))
      const cands = await timed('4 searchCandidates', () => index.searchCandidates(db, tenant, { kbIds: bases.map((b) => b.id), plans, filters: {}, limit: CANDIDATES, withVectors: false }))
      candidates += cands.length
      for (const p of plans) {
        await timed(`4${'any' in p ? 'a rare terms ranked' : 'b common terms newest'}`, () =>
          index.searchCandidates(db, tenant, { kbIds: [s.kbId], plans: [p], filters: {}, limit: CANDIDATES, withVectors: false }),
        )
      }
      const scored = await timed('5 bm25f', () => {
        const score = bm25fScorer(terms, stats)
        return cands.map((c) => ({ c, k: score(c) })).sort((x, y) => y.k.raw - x.k.raw)
      })
      await timed('6 passagesOf', () =>
        index.passagesOf(
          db,
          tenant,
          scored.slice(0, 5).map((x) => x.c.rid),
        ),
      )
    }
  }
  const n = ROUNDS * questions.length
  process.stdout.write(`${ENGINE}: ${s.chunks} chunks, ${questions.length} questions × ${ROUNDS}, ${Math.round(candidates / n)} candidates per search\n`)
  process.stdout.write(`| step | calls | Node CPU µs per call | wall µs per call |\n|---|---:|---:|---:|\n`)
  for (const [name, v] of [...acc].sort(([x], [y]) => (x < y ? -1 : 1))) {
    process.stdout.write(`| ${name} | ${v.n} | ${Math.round(v.cpu / v.n)} | ${Math.round(v.wall / v.n)} |\n`)
  }
  // PROFILE_TUNE="1000:100,500:100:25,…" (postings budget : candidates [: common terms' cap]): the search's own steps with those
  // settings, Node CPU per search, and Recall@5 / MRR@10 at this scale (a chunk counts for the corpus
  // document whose section it is: the last heading of its path).
  if (process.env.PROFILE_TUNE) {
    const corpusId = new Map(loadCorpus().map((d) => [d.title, d.id]))
    const qs = loadQuestions()
    process.stdout.write(`\n| budget:candidates[:cap] | Node CPU µs per search (top 5) | candidates read | Recall@5 | MRR@10 |\n|---|---:|---:|---:|---:|\n`)
    for (const setting of process.env.PROFILE_TUNE.split(',')) {
      const [budget, limit, cap] = setting.split(':').map(Number)
      const plan = (terms: string[], stats: Parameters<typeof planFilters>[1]) => planFilters(terms, stats, budget).map((p) => ('newest' in p && cap ? { ...p, cap } : p))
      const rank = async (q: string, topK: number) => {
        const terms = queryTerms(q, a)
        const stats = await readStats(db, tenant, [s.kbId], terms)
        const cands = await index.searchCandidates(db, tenant, { kbIds: [s.kbId], plans: plan(terms, stats), filters: {}, limit, withVectors: false })
        const score = bm25fScorer(terms, stats)
        const scored = cands
          .map((c) => ({ c, k: score(c) }))
          .map((x) => ({ ...x, s: Math.round(x.k.score * 10000) / 10000 }))
          .sort((x, y) => y.s - x.s || y.k.raw - x.k.raw || (x.c.chunk_id < y.c.chunk_id ? -1 : 1))
          .filter((x) => x.s > 0)
          .slice(0, topK)
        const passages = await index.passagesOf(
          db,
          tenant,
          scored.map((x) => x.c.rid),
        )
        return { n: cands.length, ids: scored.map((x) => corpusId.get((JSON.parse(passages.get(x.c.rid)?.heading_path ?? '[]') as string[]).at(-1) ?? '')) }
      }
      let read = 0
      const c0 = process.cpuUsage()
      for (let r = 0; r < ROUNDS; r++) for (const q of qs) read += (await rank(q.question, 5)).n
      const c = process.cpuUsage(c0)
      const ranked = new Map<string, string[]>()
      for (const q of qs) {
        const list: string[] = []
        for (const id of (await rank(q.question, 50)).ids) if (id && !list.includes(id)) list.push(id)
        ranked.set(q.id, list.slice(0, 10))
      }
      const quality = score(qs, ranked)
      const n = ROUNDS * qs.length
      process.stdout.write(`| ${setting} | ${Math.round((c.user + c.system) / n)} | ${Math.round(read / n)} | ${quality.recall5} | ${quality.mrr10} |\n`)
    }
  }
} finally {
  await app.close()
}
