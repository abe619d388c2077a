/**
 * Ranking lab (not part of the bench): the evaluation corpus chunked and analysed exactly as the service
 * does (parseDocument, chunkDocument, analyseChunk), every chunk scored in-process by the ranking module, so
 * a change to the ranking or the calibrated score is measured in seconds instead of an upload through the
 * API. Candidate selection is left out (every chunk is scored): evaluate.ts measures the real path.
 *
 *   node --import tsx bench/knowledge/rank-lab.ts
 */
import { chunkDocument, parseDocument } from '../../src/modules/knowledge/ingest/index.js'
import { proseFactor } from '../../src/modules/knowledge/knowledge-boilerplate.js'
import { analyseChunk } from '../../src/modules/knowledge/knowledge-index.analysis.js'
import { relevanceScorer, type TermStats } from '../../src/modules/knowledge/knowledge-ranking.js'
import { isAnswered } from '../../src/modules/knowledge/knowledge.relevance.js'
import { analyserFor, queryTerms } from '../../src/modules/knowledge/knowledge.text.js'
import { baseline, score } from './evaluate.js'
import { loadCorpus, loadQuestions } from './app.js'

const corpus = loadCorpus()
const questions = loadQuestions()
const a = analyserFor('en')
type Row = { doc: string; terms: string; head_len: number; body_len: number; prose: number }
const rows: Row[] = []
for (const d of corpus) {
  const parsed = await parseDocument(Buffer.from(d.text), 'text')
  for (const c of chunkDocument(parsed, { size: 1000, overlap: 150 })) {
    const t = analyseChunk(a, d.title, c.headingPath, c.text)
    rows.push({ doc: d.id, terms: t.terms, head_len: t.head.length, body_len: t.body.length, prose: process.env.NO_PROSE ? 1 : proseFactor(c.text) })
  }
}
const df = new Map<string, number>()
let head = 0
let body = 0
for (const r of rows) {
  head += r.head_len
  body += r.body_len
  for (const e of r.terms.split(' ')) if (e) df.set(e.slice(0, e.indexOf(':')), (df.get(e.slice(0, e.indexOf(':'))) ?? 0) + 1)
}
const stats: TermStats = { df, chunks: rows.length, avgHead: head / rows.length, avgBody: body / rows.length }

const ranked = new Map<string, string[]>()
let offHandled = 0
let inAnswered = 0
const off: string[] = []
const low: string[] = []
for (const q of questions) {
  const terms = queryTerms(q.question, a)
  const s = relevanceScorer(terms, stats)
  const scored = rows.map((r) => ({ r, k: s(r) })).sort((x, y) => y.k.order - x.k.order)
  const beta = Number(process.env.BETA ?? 0)
  const byDoc = new Map<string, number[]>()
  for (const x of scored.slice(0, 100)) (byDoc.get(x.r.doc) ?? byDoc.set(x.r.doc, []).get(x.r.doc)!).push(x.k.order)
  const docScore = (d: string) => {
    const v = byDoc.get(d) ?? [0]
    return v[0] + beta * v.slice(1).reduce((n, x) => n + x, 0)
  }
  const list = [...byDoc.keys()].sort((x, y) => docScore(y) - docScore(x)).slice(0, 10)
  ranked.set(q.id, list)
  const best = scored[0]?.k.score ?? 0
  if (q.relevant.length === 0) {
    if (!isAnswered(best)) offHandled++
    else off.push(`${best.toFixed(2)} ${q.question} → ${scored[0].r.doc}`)
  } else if (isAnswered(best)) inAnswered++
  else low.push(`${best.toFixed(2)} ${q.question}`)
}
const answerable = questions.filter((q) => q.relevant.length).length
console.log('BM25 baseline', score(questions, baseline(corpus, questions)))
console.log('ours', score(questions, ranked), `off-topic handled ${offHandled}/${questions.length - answerable}`, `in-scope answered ${inAnswered}/${answerable}`)
if (process.env.LAB_VERBOSE) console.log('answered off-topic:\n ' + off.join('\n ') + '\nunanswered in-scope:\n ' + low.join('\n '))
