/**
 * Retrieval quality: the Node.js API corpus (corpus.jsonl) uploaded into a real service through the HTTP
 * API, every question of questions.json asked through POST /knowledge/search, Recall@5 and MRR@10 at
 * document level; the same for a plain BM25 baseline (MiniSearch's BM25+ with its defaults — lower-case
 * words, no stemming, no stop words, no prefix or fuzzy matching — over whole documents, title and text).
 *
 *   node --import tsx bench/knowledge/evaluate.ts
 *
 * BENCH_ENGINES (default "sqlite,postgres"), BENCH_KNOWLEDGE_SMALL=1 (50 documents, 10 questions: a
 * smoke run of seconds), BENCH_KNOWLEDGE_VERBOSE=1 (each question's rank and top documents). A run on both engines with the whole corpus writes the table into the
 * `knowledge-quality` block of docs/knowledge.md. Also called by `npm run bench` (bench/run.ts).
 */
import MiniSearch from 'minisearch'
import { pathToFileURL } from 'node:url'
import { loadCorpus, loadQuestions, putDocBlock, SMALL, smallSet, startKnowledgeApp, upload, V, waitSettled, type CorpusDocument, type Question } from './app.js'

export interface QualityRow {
  engine: string
  system: string
  recall5: number
  mrr10: number
  /** Answerable questions whose search reported a knowledge gap (should be few). */
  falseGaps?: number
  /** Unanswerable (off-topic) questions whose search reported a gap: handled, declined (should be all). */
  gapsFound?: number
  /** p95 of one search's latency, one client, milliseconds. */
  p95?: number
  note?: string
}

export interface QualityResult {
  rows: QualityRow[]
  documents: number
  chunks: number
  answerable: number
  unanswerable: number
}

/** BENCH_KNOWLEDGE_VERBOSE=1: each question's rank of its first relevant document, for tuning the ranking. */
const VERBOSE = process.env.BENCH_KNOWLEDGE_VERBOSE === '1'
const round3 = (v: number) => Math.round(v * 1000) / 1000

/** Mean Recall@5 and MRR@10 over the answerable questions, given each question's ranked corpus ids. */
export function score(questions: Question[], ranked: Map<string, string[]>): { recall5: number; mrr10: number } {
  const answerable = questions.filter((q) => q.relevant.length)
  let recall = 0
  let mrr = 0
  for (const q of answerable) {
    const list = ranked.get(q.id) ?? []
    const rel = new Set(q.relevant)
    recall += list.slice(0, 5).filter((id) => rel.has(id)).length / rel.size
    const first = list.slice(0, 10).findIndex((id) => rel.has(id))
    mrr += first < 0 ? 0 : 1 / (first + 1)
  }
  return { recall5: round3(recall / answerable.length), mrr10: round3(mrr / answerable.length) }
}

/** The baseline: documents ranked by MiniSearch's BM25+ with default settings. */
export function baseline(corpus: CorpusDocument[], questions: Question[]): Map<string, string[]> {
  const index = new MiniSearch<CorpusDocument>({ fields: ['title', 'text'] })
  index.addAll(corpus)
  return new Map(
    questions.map((q) => [
      q.id,
      index
        .search(q.question)
        .slice(0, 10)
        .map((r) => String(r.id)),
    ]),
  )
}

/** Ours on one engine: upload, wait until processed, then every question through the search route. */
async function ours(engine: 'sqlite' | 'postgres', corpus: CorpusDocument[], questions: Question[], entry?: string): Promise<{ row: QualityRow; chunks: number }> {
  const app = await startKnowledgeApp(engine, { entry })
  try {
    const kb = await app.api('POST', `${V}/knowledge/bases`, { name: 'Node.js API', language: 'en' })
    const t0 = performance.now()
    const ids = await upload(
      app.api,
      kb.id,
      corpus.map((d) => ({ title: d.title, text: d.text, metadata: { corpus_id: d.id, module: d.heading_path[0] } })),
    )
    // An identical text uploaded twice is one document (the service de-duplicates by checksum).
    const { docs, at } = await waitSettled(app.api, kb.id, new Set(ids).size)
    const failed = docs.filter((d) => d.status === 'failed')
    const chunks = docs.reduce((n, d) => n + (d.chunk_count ?? 0), 0)
    process.stderr.write(`knowledge quality ${engine}: ${docs.length} documents (${failed.length} failed), ${chunks} chunks in ${((at - t0) / 1000).toFixed(1)} s\n`)
    const corpusIdOf = new Map<string, string>()
    ids.forEach((id, i) => corpusIdOf.has(id) || corpusIdOf.set(id, corpus[i].id))
    const ranked = new Map<string, string[]>()
    let falseGaps = 0
    let gapsFound = 0
    const took: number[] = []
    for (const q of questions) {
      const t = performance.now()
      const r = await app.api('POST', `${V}/knowledge/search`, { query: q.question, knowledge_base_ids: [kb.id], top_k: 50 })
      took.push(performance.now() - t)
      // Document level: a document ranks where its best chunk does.
      const list: string[] = []
      for (const res of r.results as { citation: { document_id: string } }[]) {
        const id = corpusIdOf.get(res.citation.document_id)
        if (id && !list.includes(id)) list.push(id)
      }
      ranked.set(q.id, list.slice(0, 10))
      if (VERBOSE) {
        const rank = list.findIndex((id) => q.relevant.includes(id))
        process.stderr.write(`  ${q.id} ${rank < 0 ? '–' : rank + 1} ${r.gap ? 'gap ' : ''}${q.question} → ${list.slice(0, 3).join(', ')} (best ${r.results[0]?.score ?? '–'})\n`)
      }
      if (r.gap && q.relevant.length) falseGaps++
      if (r.gap && !q.relevant.length) gapsFound++
    }
    const note = failed.length ? `${failed.length} documents failed: ${failed[0].error}` : undefined
    took.sort((a, b) => a - b)
    const p95 = Math.round(took[Math.min(took.length - 1, Math.floor(took.length * 0.95))] * 10) / 10
    return { row: { engine, system: 'ours (POST /knowledge/search)', ...score(questions, ranked), falseGaps, gapsFound, p95, note }, chunks }
  } finally {
    await app.close()
  }
}

export async function evaluateQuality(engines: string[], entry?: string): Promise<QualityResult> {
  let corpus = loadCorpus()
  let questions = loadQuestions()
  if (SMALL) ({ corpus, questions } = smallSet(corpus, questions))
  const rows: QualityRow[] = [{ engine: '—', system: 'BM25 baseline (MiniSearch defaults, whole documents)', ...score(questions, baseline(corpus, questions)) }]
  let chunks = 0
  for (const engine of engines) {
    try {
      const r = await ours(engine as 'sqlite' | 'postgres', corpus, questions, entry)
      rows.push(r.row)
      chunks = r.chunks
    } catch (err) {
      rows.push({ engine, system: 'ours', recall5: 0, mrr10: 0, note: `FAILED: ${(err as Error).message.slice(0, 300)}` })
    }
  }
  const unanswerable = questions.filter((q) => !q.relevant.length).length
  return { rows, documents: corpus.length, chunks, answerable: questions.length - unanswerable, unanswerable }
}

export function qualityTable(r: QualityResult): string {
  const base = r.rows[0]
  const head = '| engine | system | Recall@5 | MRR@10 | vs baseline | off-topic handled (gap, not answered) | in-scope answered | search p95 (1 client, HTTP) |\n|---|---|---:|---:|---|---:|---:|---:|'
  const body = r.rows.map((row, i) => {
    const vs = i === 0 ? '—' : row.recall5 > base.recall5 && row.mrr10 > base.mrr10 ? 'better ✓' : row.recall5 >= base.recall5 && row.mrr10 >= base.mrr10 ? 'not worse' : 'worse ⚠'
    const off = row.gapsFound === undefined ? '—' : `${row.gapsFound} / ${r.unanswerable} (${Math.round((100 * row.gapsFound) / Math.max(1, r.unanswerable))} %)`
    const answered = row.falseGaps === undefined ? '—' : `${r.answerable - row.falseGaps} / ${r.answerable} (${Math.round((100 * (r.answerable - row.falseGaps)) / Math.max(1, r.answerable))} %)`
    const p95 = row.p95 === undefined ? '—' : `${row.p95} ms`
    return `| ${row.engine} | ${row.system}${row.note ? ` (${row.note})` : ''} | ${row.recall5} | ${row.mrr10} | ${vs} | ${off} | ${answered} | ${p95} |`
  })
  return [head, ...body].join('\n')
}

export function qualityHeader(r: QualityResult, machine: string): string {
  return (
    `Latest run: ${machine}. ${r.documents} documents (${r.chunks} chunks), ${r.answerable} answerable questions and ` +
    `${r.unanswerable} off-topic ones that nothing in the corpus answers (a third share a word with document titles). ` +
    `Document level: a document ranks where its best chunk does (top_k 50). Off-topic handled: the search recorded a gap ` +
    `(its best score is below the answered threshold, so answer: true and a bot decline it too).`
  )
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  const engines = (process.env.BENCH_ENGINES ?? 'sqlite,postgres').split(',')
  const r = await evaluateQuality(engines)
  const machine = `Node ${process.version}, ${new Date().toISOString()}`
  const out = `${qualityHeader(r, machine)}\n\n${qualityTable(r)}`
  process.stdout.write(`\n${out}\n`)
  if (!SMALL && engines.join(',') === 'sqlite,postgres') putDocBlock('knowledge-quality', out, 'Retrieval quality')
  process.exit(r.rows.some((row) => row.note?.startsWith('FAILED')) ? 1 : 0)
}
