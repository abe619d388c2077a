// The knowledge evaluation's questions answered by a bot whose engine is an OpenAI-compatible model: the
// service is started with AI_PROVIDER=openai pointed at any such server (OpenAI, vLLM, Ollama, LM Studio…),
// the corpus uploaded, a bot linked to it and published, and each question sent as a test exchange (no
// inbox, no knowledge gaps). Reports, for answerable and for off-topic questions, the share answered,
// handed off and grounded, and how often the first citation is a document that answers.
//
//   BENCH_OPENAI_BASE_URL=http://127.0.0.1:11434/v1 BENCH_OPENAI_MODEL=llama3.1 npx tsx bench/knowledge/evaluate-llm.ts
//   BENCH_OPENAI_API_KEY   the server's key, if it wants one
//   BENCH_KNOWLEDGE_SMALL=1 the smoke subset (10 questions, ~50 documents); BENCH_DB=postgres for PostgreSQL
import { loadCorpus, loadQuestions, smallSet, startKnowledgeApp, upload, V, waitSettled, type Question } from './app.js'

export interface LlmEvalOptions {
  baseUrl: string
  model: string
  apiKey?: string
  engine?: 'sqlite' | 'postgres'
  small?: boolean
  timeoutMs?: number
}

export interface LlmEvalGroup {
  questions: number
  answered: number
  handedOff: number
  grounded: number
  /** Answered with a first citation from a document that answers (answerable questions only). */
  citedRight: number
}

export interface LlmEvalResult {
  model: string
  answerable: LlmEvalGroup
  offTopic: LlmEvalGroup
  /** Per-reply latency, ms. */
  p50: number
  p95: number
  handoffReasons: Record<string, number>
}

const empty = (): LlmEvalGroup => ({ questions: 0, answered: 0, handedOff: 0, grounded: 0, citedRight: 0 })
const pct = (n: number, of: number) => (of === 0 ? '–' : `${Math.round((n / of) * 100)} %`)
const quantile = (xs: number[], q: number) => {
  const s = [...xs].sort((a, b) => a - b)
  return s.length === 0 ? 0 : s[Math.min(s.length - 1, Math.floor(q * s.length))]
}

export async function evaluateLlm(opts: LlmEvalOptions): Promise<LlmEvalResult> {
  const all = { corpus: loadCorpus(), questions: loadQuestions() }
  const { corpus, questions } = opts.small ? smallSet(all.corpus, all.questions) : all
  const app = await startKnowledgeApp(opts.engine ?? 'sqlite', {
    env: { AI_PROVIDER: 'openai', AI_BASE_URL: opts.baseUrl, AI_MODEL: opts.model, AI_API_KEY: opts.apiKey ?? 'bench', AI_TIMEOUT_MS: String(opts.timeoutMs ?? 60_000) },
  })
  try {
    const kb = await app.api('POST', `${V}/knowledge/bases`, { name: 'Evaluation corpus', language: 'en' })
    const ids = await upload(
      app.api,
      kb.id,
      corpus.map((d) => ({ title: d.title, text: d.text, metadata: { corpus_id: d.id } })),
    )
    await waitSettled(app.api, kb.id, new Set(ids).size)
    const corpusIdOf = new Map<string, string>()
    ids.forEach((id, i) => corpusIdOf.has(id) || corpusIdOf.set(id, corpus[i].id))
    const bot = await app.api('POST', `${V}/bots`, { name: 'Evaluation bot', knowledge_base_ids: [kb.id], ai: { provider: 'openai' } })
    await app.api('POST', `${V}/bots/${bot.id}/publish`, {})
    const result: LlmEvalResult = { model: opts.model, answerable: empty(), offTopic: empty(), p50: 0, p95: 0, handoffReasons: {} }
    const took: number[] = []
    for (const q of questions as Question[]) {
      const t = performance.now()
      const r = await app.api('POST', `${V}/bots/${bot.id}/messages`, { content: q.question, test: true })
      took.push(performance.now() - t)
      const g = q.relevant.length > 0 ? result.answerable : result.offTopic
      g.questions++
      if (r.handoff) {
        g.handedOff++
        result.handoffReasons[r.handoff_reason] = (result.handoffReasons[r.handoff_reason] ?? 0) + 1
      } else g.answered++
      if (r.grounded) g.grounded++
      const first = corpusIdOf.get(r.citations[0]?.citation.document_id ?? '')
      if (!r.handoff && first && q.relevant.includes(first)) g.citedRight++
    }
    result.p50 = quantile(took, 0.5)
    result.p95 = quantile(took, 0.95)
    return result
  } finally {
    await app.close()
  }
}

export function formatLlmEval(r: LlmEvalResult): string {
  const row = (name: string, g: LlmEvalGroup, offTopic: boolean) =>
    `| ${name} | ${g.questions} | ${pct(g.answered, g.questions)} | ${pct(g.handedOff, g.questions)} | ${pct(g.grounded, g.questions)} | ${offTopic ? '–' : pct(g.citedRight, g.questions)} |`
  return [
    `Model ${r.model} (OpenAI-compatible), bot replies as test exchanges; reply p50 ${r.p50.toFixed(0)} ms, p95 ${r.p95.toFixed(0)} ms; hand-offs by reason ${JSON.stringify(r.handoffReasons)}.`,
    '',
    '| questions | n | answered | handed off | grounded | first citation answers |',
    '|---|---:|---:|---:|---:|---:|',
    row('answerable', r.answerable, false),
    row('off-topic (handed off = handled)', r.offTopic, true),
  ].join('\n')
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const baseUrl = process.env.BENCH_OPENAI_BASE_URL
  const model = process.env.BENCH_OPENAI_MODEL
  if (!baseUrl || !model) {
    process.stderr.write('Set BENCH_OPENAI_BASE_URL (e.g. http://127.0.0.1:11434/v1) and BENCH_OPENAI_MODEL.\n')
    process.exit(2)
  }
  const r = await evaluateLlm({
    baseUrl,
    model,
    apiKey: process.env.BENCH_OPENAI_API_KEY,
    engine: process.env.BENCH_DB === 'postgres' ? 'postgres' : 'sqlite',
    small: process.env.BENCH_KNOWLEDGE_SMALL === '1',
  })
  process.stdout.write(`${formatLlmEval(r)}\n`)
}
