import { createHash } from 'node:crypto'
import { excerptOf } from './ai.text.js'
import type { AiStep, RespondRequest, ToolCallRequest, ToolResultInput, ToolSpec } from './ai.types.js'
import { extractiveAnswer } from './extractive.js'
import { rankSources, termsOf } from './ranker.js'

/** Said when neither the passages nor a tool answer the question. */
export const DONT_KNOW = "I don't know the answer to that from the information I have."
/**
 * A tool is chosen when, of the message's terms outside the values extracted for it, it matches more
 * than half or at least two (BM25 over its name and description), and every required argument was found.
 */
export const TOOL_MIN_TERMS = 2
export const TOOL_MIN_COVERAGE = 0.5
/** Confidence of an answer reporting tool calls: all succeeded, or at least one failed (callers hand off). */
export const TOOLS_OK_CONFIDENCE = 0.9
export const TOOLS_FAILED_CONFIDENCE = 0.3

type Answer = Extract<AiStep, { kind: 'answer' }>

const label = (name: string) => {
  const s = name.replace(/_/g, ' ')
  return s.charAt(0).toUpperCase() + s.slice(1)
}

/** What the customer asked: the last customer turn (the question); a JSON input's keys and values count as words. */
function questionOf(req: RespondRequest): string {
  return [...req.transcript].reverse().find((t) => t.role === 'customer')?.text ?? ''
}

function summarise(output: unknown): string {
  if (output === null || output === undefined || output === '') return 'done'
  if (typeof output === 'string') return excerptOf(output.trim())
  if (typeof output !== 'object') return String(output)
  if (Array.isArray(output)) {
    const items = output
      .filter((v) => v !== null && typeof v !== 'object')
      .slice(0, 5)
      .map(String)
    const n = `${output.length} result${output.length === 1 ? '' : 's'}`
    return items.length > 0 ? excerptOf(`${n}: ${items.join('; ')}`) : n
  }
  const o = output as Record<string, unknown>
  for (const key of ['message', 'summary', 'result', 'text', 'detail']) if (typeof o[key] === 'string' && o[key]) return excerptOf((o[key] as string).trim())
  // Scalars as "key: value"; a list as its length ("passages: 3").
  const pairs = Object.entries(o)
    .filter(([, v]) => v !== null && (typeof v !== 'object' || Array.isArray(v)))
    .slice(0, 6)
    .map(([k, v]) => `${k.replace(/_/g, ' ')}: ${Array.isArray(v) ? v.length : String(v)}`)
  return pairs.length > 0 ? excerptOf(pairs.join(', ')) : 'done'
}

async function chooseTool(tools: ToolSpec[], question: string, req: RespondRequest, called: Set<string>): Promise<ToolCallRequest | null> {
  if (tools.length === 0 || question.trim() === '') return null
  // The parsers (chrono-node above all: ~200 ms and ~20 MB to load) are loaded by the first message that has tools.
  const { extractArguments } = await import('./tool-arguments.js')
  const ranked = rankSources(
    question,
    tools.map((t, i) => ({ kind: 'passage' as const, id: String(i), title: t.name.replace(/_/g, ' '), text: t.description })),
    tools.length,
  )
  const now = req.now ?? new Date()
  for (const r of ranked) {
    const tool = tools[Number(r.source.id)]
    if (called.has(tool.name)) continue
    const found = extractArguments(tool.parameters, question, { now, region: req.region })
    if (found.missing.length > 0) continue
    // The values themselves ("ord_123", "tomorrow") say nothing about which tool is meant.
    const rest = [...question].map((ch, i) => (found.spans.some((s) => i >= s.start && i < s.end) ? ' ' : ch)).join('')
    const asked = termsOf(rest)
    const toolTerms = termsOf(`${tool.name.replace(/_/g, ' ')} ${tool.description}`)
    const matched = [...asked].filter((t) => toolTerms.has(t) || [...toolTerms].some((x) => x.length >= 4 && t.startsWith(x))).length
    const coverage = asked.size === 0 ? 0 : matched / asked.size
    if (matched === 0 || (matched < TOOL_MIN_TERMS && coverage <= TOOL_MIN_COVERAGE)) continue
    const step = req.toolResults.length
    const call_id = `call_${createHash('sha256')
      .update(`${step}\n${tool.name}\n${JSON.stringify(found.args)}`)
      .digest('hex')
      .slice(0, 24)}`
    return { call_id, name: tool.name, arguments: found.args }
  }
  return null
}

function reportResults(results: ToolResultInput[]): string {
  return results
    .map((r) => (r.ok ? `${label(r.name)}: ${summarise(r.output)}.` : `I could not complete ${r.name.replace(/_/g, ' ')}: ${r.error?.detail ?? 'the tool failed'}`))
    .map((s) => (/[.!?]$/.test(s) ? s : `${s}.`))
    .join(' ')
}

/**
 * The builtin engine's step: a tool call when a tool matches the question and its arguments can be
 * read from it (one call a step; after successful calls, the next matching tool not yet called), else an
 * extractive answer from the passages, reporting the calls' outcomes first when there were any.
 */
export async function builtinRespond(req: RespondRequest, base: { provider: 'builtin'; model: string }): Promise<AiStep> {
  const question = questionOf(req)
  const called = new Set(req.toolResults.map((r) => r.name))
  if (req.toolResults.every((r) => r.ok)) {
    const call = await chooseTool(req.tools, question, req, called)
    if (call) return { kind: 'tool_calls', calls: [call], ...base }
  }
  const extract = extractiveAnswer(question, req.passages)
  if (req.toolResults.length === 0) {
    if (!extract.grounded) return { kind: 'answer', content: DONT_KNOW, confidence: 0, grounded: false, sources: [], ...base } satisfies Answer
    return { kind: 'answer', content: extract.content, confidence: extract.confidence, grounded: true, sources: extract.sources, ...base }
  }
  const allOk = req.toolResults.every((r) => r.ok)
  const content = [reportResults(req.toolResults), extract.grounded ? extract.content : ''].filter(Boolean).join(' ')
  return {
    kind: 'answer',
    content,
    confidence: allOk ? TOOLS_OK_CONFIDENCE : TOOLS_FAILED_CONFIDENCE,
    grounded: req.toolResults.some((r) => r.ok) || extract.grounded,
    sources: extract.grounded ? extract.sources : [],
    ...base,
  }
}
