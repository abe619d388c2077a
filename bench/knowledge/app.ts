// Shared by the knowledge evaluation and scenarios: the corpus and questions on disk, a service process on
// a fresh database with a workspace and key, and uploading documents through the HTTP API until ready.
import type { ChildProcess } from 'node:child_process'
import { readdirSync, readFileSync, writeFileSync } from 'node:fs'
import { freePort, svc } from '../../test/spawn.js'
import { apiClient, startProcess, stop, type Api } from '../lib.js'

export interface CorpusDocument {
  id: string
  title: string
  heading_path: string[]
  text: string
  source: string
}

export interface Question {
  id: string
  question: string
  /** Corpus ids of the documents that answer it; empty: nothing in the corpus does (a knowledge gap). */
  relevant: string[]
}

export const SMALL = process.env.BENCH_KNOWLEDGE_SMALL === '1'

export function loadCorpus(): CorpusDocument[] {
  const raw = readFileSync(new URL('./corpus.jsonl', import.meta.url), 'utf8')
  return raw
    .split('\n')
    .filter((l) => l.trim())
    .map((l) => JSON.parse(l) as CorpusDocument)
}

export function loadQuestions(): Question[] {
  return JSON.parse(readFileSync(new URL('./questions.json', import.meta.url), 'utf8')) as Question[]
}

/**
 * The smoke subset (BENCH_KNOWLEDGE_SMALL=1): the first 10 questions (8 answerable, 2 gaps), their
 * relevant documents, and other documents up to 50, taken evenly over the corpus so the base is not
 * only the right answers.
 */
export function smallSet(corpus: CorpusDocument[], questions: Question[]): { corpus: CorpusDocument[]; questions: Question[] } {
  const qs = [...questions.filter((q) => q.relevant.length).slice(0, 8), ...questions.filter((q) => !q.relevant.length).slice(0, 2)]
  const ids = new Set(qs.flatMap((q) => q.relevant))
  const step = Math.floor(corpus.length / 50)
  for (let i = 0; ids.size < 50 && i < corpus.length; i += step) ids.add(corpus[i].id)
  return { corpus: corpus.filter((d) => ids.has(d.id)), questions: qs }
}

export interface KnowledgeApp {
  engine: 'sqlite' | 'postgres'
  url: string
  key: string
  api: Api
  child: ChildProcess
  /** Stops the service and starts it again on the same database with `env` added (e.g. WEB_CONCURRENCY). */
  restart(env: Record<string, string>): Promise<void>
  close(): Promise<void>
}

/** The API prefix of the service's routes. */
export const V = '/v2'

/**
 * A fresh database and the service on it, started as `npm start` starts it (dist/main.js, built by
 * `npm run bench`) or from source (src/main.ts through tsx) when run alone, so the result is the code of
 * the working tree.
 */
export async function startKnowledgeApp(engine: 'sqlite' | 'postgres', opts: { entry?: string; env?: Record<string, string> } = {}): Promise<KnowledgeApp> {
  // Loaded here: test/helpers.ts imports the whole app, which the corpus and the baseline do not need.
  const { createTestDatabase } = await import('../../test/helpers.js')
  const { serviceEnv } = await import('../service.js')
  const db = await createTestDatabase(engine)
  const port = await freePort()
  const env = { ...db.env, ...serviceEnv(port), ...opts.env }
  try {
    const ws = JSON.parse(await svc(['workspaces', 'create', '--name', 'Knowledge bench', '--json'], env))
    const key = JSON.parse(await svc(['keys', 'create', '--scopes', 'admin', '--workspace', ws.id, '--json'], env)).key as string
    const url = `http://127.0.0.1:${port}`
    const app: KnowledgeApp = {
      engine,
      url,
      key,
      api: apiClient(url, key),
      child: await startProcess([opts.entry ?? 'src/main.ts'], env, `${url}/livez`),
      async restart(more) {
        await stop(app.child)
        app.child = await startProcess([opts.entry ?? 'src/main.ts'], { ...env, ...more }, `${url}/livez`)
      },
      async close() {
        await stop(app.child)
        await db.drop()
      },
    }
    return app
  } catch (err) {
    await db.drop()
    throw err
  }
}

/** Runs `fn` over `items` with at most `n` at a time, in order of the items. */
export async function pool<T, R>(items: T[], n: number, fn: (item: T, i: number) => Promise<R>): Promise<R[]> {
  const out: R[] = new Array(items.length)
  let next = 0
  await Promise.all(
    Array.from({ length: Math.min(n, items.length) }, async () => {
      while (next < items.length) {
        const i = next++
        out[i] = await fn(items[i], i)
      }
    }),
  )
  return out
}

export interface UploadItem {
  title: string
  text: string
  contentType?: string
  metadata?: Record<string, string>
}

/** Uploads as JSON, `concurrency` at a time; returns the documents' ids in the order of `items`. */
export async function upload(api: Api, kbId: string, items: UploadItem[], concurrency = 8): Promise<string[]> {
  return pool(items, concurrency, async (d) => {
    const doc = await api('POST', `${V}/knowledge/bases/${kbId}/documents`, {
      title: d.title,
      text: d.text,
      content_type: d.contentType ?? 'text/markdown',
      metadata: d.metadata ?? {},
    })
    return doc.id as string
  })
}

export interface DocumentStatus {
  id: string
  status: string
  chunk_count: number
  error: string | null
}

export async function listDocuments(api: Api, kbId: string): Promise<DocumentStatus[]> {
  const all: DocumentStatus[] = []
  let cursor: string | null = null
  do {
    const page: { data: DocumentStatus[]; next_cursor: string | null } = await api('GET', `${V}/knowledge/bases/${kbId}/documents?limit=100${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`)
    all.push(...page.data)
    cursor = page.next_cursor
  } while (cursor)
  return all
}

/**
 * Waits until every document of the base is ready or failed (failed ones are reported, not fatal: the
 * evaluation counts what was indexed). Returns the statuses and the moment the last one settled.
 */
export async function waitSettled(api: Api, kbId: string, expected: number, timeoutMs = 900_000): Promise<{ docs: DocumentStatus[]; at: number }> {
  const deadline = Date.now() + timeoutMs
  let said = Date.now()
  for (;;) {
    const docs = await listDocuments(api, kbId)
    const pending = docs.filter((d) => d.status !== 'ready' && d.status !== 'failed').length
    if (docs.length >= expected && pending === 0) return { docs, at: performance.now() }
    if (Date.now() > deadline) throw new Error(`documents not processed in time: ${pending} of ${docs.length} pending`)
    if (Date.now() - said > 15_000) {
      said = Date.now()
      process.stderr.write(`  … ${docs.length - pending} of ${expected} documents processed\n`)
    }
    await new Promise((r) => setTimeout(r, 250))
  }
}

/** VmRSS (current) and VmHWM (peak) of a process, in MB. */
/** CPU time the process has used so far, in ms (user + system, from /proc; 0 where unavailable). */
export function cpuMs(pid: number): number {
  try {
    const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ')
    return ((Number(fields[11]) + Number(fields[12])) * 1000) / 100 // utime, stime in clock ticks (USER_HZ 100)
  } catch {
    return 0
  }
}

/** The processes whose parent is `pid` (a cluster's HTTP processes). */
export function childPids(pid: number): number[] {
  const out: number[] = []
  for (const name of readdirSync('/proc')) {
    if (!/^\d+$/.test(name)) continue
    try {
      const stat = readFileSync(`/proc/${name}/stat`, 'utf8')
      if (Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]) === pid) out.push(Number(name))
    } catch {
      /* gone meanwhile */
    }
  }
  return out
}

/** The CPU ms of `pid` and of its children. */
export const treeCpuMs = (pid: number): number => childPids(pid).reduce((ms, c) => ms + cpuMs(c), cpuMs(pid))

export function rssMb(pid: number): { rss: number; peak: number } {
  try {
    const s = readFileSync(`/proc/${pid}/status`, 'utf8')
    const kb = (k: string) => Number(new RegExp(`${k}:\\s+(\\d+) kB`).exec(s)?.[1] ?? 0)
    return { rss: Math.round(kb('VmRSS') / 1024), peak: Math.round(kb('VmHWM') / 1024) }
  } catch {
    return { rss: 0, peak: 0 }
  }
}

/** Replaces (or adds, at the end of its section) a `<!-- name:start/end -->` block of a page under docs/ (default knowledge.md). */
export function putDocBlock(name: string, content: string, section: string, page = 'knowledge.md'): void {
  const path = new URL(`../../docs/${page}`, import.meta.url)
  let doc = ''
  try {
    doc = readFileSync(path, 'utf8')
  } catch {
    doc = '# Knowledge\n'
  }
  const block = `<!-- ${name}:start -->\n${content}\n<!-- ${name}:end -->`
  const re = new RegExp(`<!-- ${name}:start -->[\\s\\S]*<!-- ${name}:end -->`)
  if (re.test(doc)) doc = doc.replace(re, () => block)
  else {
    const heading = new RegExp(`^## ${section}[^\\n]*\\n`, 'm')
    const m = heading.exec(doc)
    if (m) {
      // At the end of the section: before the next heading of the same level, or at the end of the file.
      const rest = doc.slice(m.index + m[0].length)
      const next = /^## /m.exec(rest)
      const at = next ? m.index + m[0].length + next.index : doc.length
      doc = `${doc.slice(0, at).trimEnd()}\n\n${block}\n\n${doc.slice(at)}`.trimEnd() + '\n'
    } else doc = `${doc.trimEnd()}\n\n## ${section}\n\n${block}\n`
  }
  writeFileSync(path, doc)
}

/** A deterministic shuffle (mulberry32), so every run indexes the same files. */
export function shuffled<T>(items: T[], seed: number): T[] {
  let s = seed
  const rand = () => {
    s = (s + 0x6d2b79f5) | 0
    let t = Math.imul(s ^ (s >>> 15), 1 | s)
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296
  }
  const a = [...items]
  for (let i = a.length - 1; i > 0; i--) {
    const j = Math.floor(rand() * (i + 1))
    ;[a[i], a[j]] = [a[j], a[i]]
  }
  return a
}
