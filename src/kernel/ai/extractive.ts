import MiniSearch from 'minisearch'
import { excerptOf } from './ai.text.js'
import type { AiSource, Citation } from './ai.types.js'
import { normaliseTerm, termsOf } from './ranker.js'

/** Sentences an extractive answer quotes at most; a question that asks for steps gets the steps instead. */
const MAX_SENTENCES = 3
/** Sentences (when the passage has no list) or list items quoted for a question that asks for steps. */
const MAX_STEP_SENTENCES = 6
const MAX_STEPS = 12
/** Passages read at most (they come best first). */
const MAX_PASSAGES = 8
/**
 * The relevance bar: the chosen sentences share two of the question's terms, or a third of them (a
 * short question has one topic word: "How long do refunds take?"). Passages arrive retrieved already.
 */
const MIN_TERMS = 2
const MIN_COVERAGE = 1 / 3
/** Later passages weigh less: the retriever already put the best first. */
const RANK_DECAY = 0.2

export interface ExtractiveAnswer {
  /** The chosen sentences (or steps, one a line) of one passage, followed by [1]: marker n cites `sources[n - 1]`. */
  content: string
  /** Passage positions (0-based) cited: the one passage answered from, or none. */
  cited: number[]
  /** Kind 'passage' citations in the order of `cited`; excerpt = the sentences used. */
  sources: Citation[]
  /** Share of the question's distinct terms the chosen sentences hold, in [0, 1]. */
  coverage: number
  /** False when no sentence is relevant enough: nothing to say. */
  grounded: boolean
  /** 0.3 + 0.65 × coverage, at most 0.95; 0 when not grounded. */
  confidence: number
}

/** A sentence of prose or an item of a list, as a passage is read. */
export interface Unit {
  text: string
  item: boolean
  /** The list (its first item's position) an item belongs to; -1 for prose. */
  list: number
  /** The paragraph (block between blank lines) it is in. */
  block: number
}

const segmenter = new Intl.Segmenter('en', { granularity: 'sentence' })
const LIST_ITEM = /^(?:[-*•+▪◦]|\(?\d{1,2}[.)]|[a-z][.)])\s+/
const ENDS_SENTENCE = /[.!?…:;]["'”’)\]]*$/
/** Words that lead a sentence that goes on from the one before ("It takes…", "This means…"). */
const CONTINUES = /^(?:it|this|that|these|those|they|then|also|however|otherwise|if so|in that case|after that|once)\b/i

/**
 * A line that titles what follows rather than saying something: a Markdown heading, the passage's own
 * title, or a short line without a sentence's end whose words are capitalised ("Refund Timing",
 * "Shipping costs"). Headings are context, never part of a reply.
 */
export function isHeadingLine(line: string, headings: readonly string[] = []): boolean {
  const t = line.trim()
  if (/^#{1,6}\s/.test(t)) return true
  if (headings.some((h) => t.toLowerCase() === h.trim().toLowerCase())) return true
  if (ENDS_SENTENCE.test(t) || /[.!?,]$/.test(t) || LIST_ITEM.test(t)) return false
  const words = t.split(/\s+/).filter((w) => /\p{L}/u.test(w))
  if (words.length === 0 || words.length > 10) return false
  if (words.length <= 3) return true
  const long = words.filter((w) => w.length > 3)
  return long.length > 0 && long.filter((w) => /^\p{Lu}/u.test(w)).length / long.length >= 0.6
}

/**
 * A passage as sentences and list items in order, headings left out: `isHeadingLine`, the passage's
 * title and heading path (`headings`), and a paragraph of one short line without a sentence's end that
 * more text follows (how ingestion writes a heading). A line cut short by a hard wrap (no sentence end,
 * the next line going on in lower case) is read with the next; a sentence that starts with a heading
 * (run into its text) is read without it.
 */
export function unitsOf(text: string, headings: readonly string[] = []): Unit[] {
  const units: Unit[] = []
  const blocks = text.split(/\n[ \t]*\n/)
  blocks.forEach((block, b) => {
    const single = block.trim()
    if (b < blocks.length - 1 && !single.includes('\n') && !ENDS_SENTENCE.test(single) && !LIST_ITEM.test(single) && single.split(/\s+/).length <= 12) return
    const lines: string[] = []
    for (const raw of block.split('\n')) {
      const line = raw.trim()
      if (!line) continue
      const prev = lines.at(-1)
      if (prev !== undefined && !ENDS_SENTENCE.test(prev) && !isHeadingLine(prev, headings) && /^\p{Ll}/u.test(line) && !LIST_ITEM.test(line)) lines[lines.length - 1] = `${prev} ${line}`
      else lines.push(line)
    }
    let list = -1
    for (const line of lines) {
      if (isHeadingLine(line, headings)) {
        list = -1
        continue
      }
      if (LIST_ITEM.test(line)) {
        if (list < 0) list = units.length
        units.push({ text: line, item: true, list, block: b })
        continue
      }
      list = -1
      for (const s of segmenter.segment(line)) {
        let t = s.segment.trim()
        for (const h of headings) if (h && t.startsWith(`${h} `) && /^\p{Lu}/u.test(t.slice(h.length + 1))) t = t.slice(h.length + 1)
        // A fragment ("Note.", "1.", a lone symbol) says nothing on its own.
        if (t.split(/\s+/).filter((w) => /\p{L}/u.test(w)).length >= 2) units.push({ text: t, item: false, list: -1, block: b })
      }
    }
  })
  return units
}

/** "How do I…", "steps to…", "how to…": the question wants the whole procedure, not its first line. */
export const asksForSteps = (question: string): boolean => /\b(?:how (?:do|can|should|would) (?:i|we|you|one)|how to|steps?|instructions?|procedure|walk me through|guide me)\b/i.test(question)

const finish = (s: string) => (ENDS_SENTENCE.test(s) ? s.replace(/[:;]$/, '.') : `${s}.`)

/**
 * The reply's units from one passage's: the unit holding most of the question's terms, with up to two
 * more that hold at least half as many (or the sentence going on from it), in passage order. For a
 * question that asks for steps, the list nearest after that unit, whole (its lead-in sentence first),
 * else the sentences from it on. Null when no unit holds a term.
 */
export function chooseUnits(units: Unit[], found: (u: Unit) => number, steps: boolean): Unit[] | null {
  const hits = units.map((u, i) => ({ i, n: found(u) })).filter((h) => h.n > 0)
  if (hits.length === 0) return null
  const best = hits.reduce((a, b) => (b.n > a.n ? b : a))
  // "To reset it:" says nothing without the list it leads to.
  if (/:$/.test(units[best.i].text) && units[best.i + 1]?.item) steps = true
  if (steps) {
    const at = units[best.i]
    const after = units.findIndex((u, i) => i > best.i && u.item && u.block - at.block <= 1)
    const list = at.item ? at.list : after >= 0 ? units[after].list : -1
    if (list >= 0) {
      const items = units.filter((u) => u.list === list).slice(0, MAX_STEPS)
      // From the best sentence to its list ("You can reset it from the sign-in page. To reset it: 1. …").
      if (!at.item) return [...units.slice(best.i, list).slice(-MAX_SENTENCES), ...items]
      const lead = units[list - 1]
      return lead && !lead.item && lead.block >= at.block - 1 ? [lead, ...items] : items
    }
    return units.slice(best.i, best.i + MAX_STEP_SENTENCES).filter((u) => !u.item)
  }
  const chosen = new Set([best.i])
  for (const h of [...hits].sort((a, b) => b.n - a.n || Math.abs(a.i - best.i) - Math.abs(b.i - best.i))) {
    if (chosen.size >= MAX_SENTENCES) break
    if (h.n * 2 >= best.n && !units[h.i].item && !/:$/.test(units[h.i].text)) chosen.add(h.i)
  }
  const next = units[best.i + 1]
  if (chosen.size < MAX_SENTENCES && next && !next.item && next.block === units[best.i].block && CONTINUES.test(next.text)) chosen.add(best.i + 1)
  return [...chosen].sort((a, b) => a - b).map((i) => units[i])
}

/** Units as a reply: prose sentences joined by a space, list items one a line (a lead-in keeps its colon). */
export function joinUnits(units: Unit[]): string {
  let out = ''
  units.forEach((u, i) => {
    const text = u.item || (units[i + 1]?.item && /:$/.test(u.text)) ? u.text : finish(u.text)
    out += i === 0 ? text : u.item || units[i - 1].item ? `\n${text}` : ` ${text}`
  })
  return out
}

export interface Reply {
  text: string
  units: Unit[]
  /** The question's terms the reply holds. */
  terms: Set<string>
}

/** A passage a reply may come from: `found` gives the question's terms a text holds; `weight` its retrieval relevance. */
export interface ReplyCandidate {
  text: string
  headings: readonly string[]
  found: (text: string) => Iterable<string>
  weight: number
}

/**
 * The passage that answers, and its reply: by the share of the question (`questionTerms` distinct terms)
 * its best sentence holds, then all its sentences, times its weight. One passage only: a reply never
 * mixes documents (a shipping answer does not end with a sentence of a tool's manual).
 */
export function bestReply(candidates: ReplyCandidate[], questionTerms: number, steps: boolean): (Reply & { index: number }) | null {
  let best: { index: number; score: number } | null = null
  candidates.forEach((c, index) => {
    const found = unitsOf(c.text, c.headings).map((u) => new Set(c.found(u.text)))
    const top = Math.max(0, ...found.map((f) => f.size))
    const all = new Set(found.flatMap((f) => [...f])).size
    const score = ((0.6 * top + 0.4 * all) / Math.max(1, questionTerms)) * c.weight
    if (top > 0 && (!best || score > best.score)) best = { index, score }
  })
  if (!best) return null
  const { index } = best as { index: number }
  const c = candidates[index]
  const reply = replyFrom(c.text, c.headings, c.found, steps)
  return reply && { ...reply, index }
}

/**
 * The reply one passage gives: its units (`unitsOf`), each weighed by the question terms it holds (a term
 * in every sentence of the passage is its topic; one in few of them is what the question is after),
 * chosen by `chooseUnits` and joined. `found` gives the question's terms a text holds. Null when no
 * sentence holds any.
 */
export function replyFrom(text: string, headings: readonly string[], found: (text: string) => Iterable<string>, steps: boolean): Reply | null {
  const units = unitsOf(text, headings)
  const terms = new Map(units.map((u) => [u, [...new Set(found(u.text))]]))
  const df = new Map<string, number>()
  for (const f of terms.values()) for (const t of f) df.set(t, (df.get(t) ?? 0) + 1)
  const chosen = chooseUnits(units, (u) => terms.get(u)!.reduce((sum, t) => sum + 1 / df.get(t)!, 0), steps)
  if (!chosen) return null
  return { text: joinUnits(chosen), units: chosen, terms: new Set(chosen.flatMap((u) => terms.get(u)!)) }
}

const tokenize = MiniSearch.getDefault('tokenize') as (text: string) => string[]

/**
 * The question's terms a sentence holds, as `[...termsOf(text)].filter((t) => q.has(t))` but without the
 * set of all the sentence's terms: every sentence of every passage goes through here.
 */
function foundIn(text: string, q: Set<string>): string[] {
  const found = new Set<string>()
  for (const token of tokenize(text)) {
    const t = normaliseTerm(token)
    if (t !== null && q.has(t)) found.add(t)
  }
  return [...found]
}

export interface ExtractiveOptions {
  /** Terms of a text (default: the ranker's English normalisation); a caller with language-aware stemming passes its own. */
  terms?: (text: string) => Iterable<string>
  /** Relevance of each passage (e.g. retrieval scores); default a decay by position. */
  weights?: number[]
}

/**
 * A generic extractive answer, written as a person would reply: one to three sentences of the one
 * passage that answers best (the steps, whole, when the question asks for them), never a heading, never
 * a sentence of another passage, cited [1] once (its one source). Below the relevance bar (MIN_TERMS,
 * MIN_COVERAGE) it is not grounded and says nothing.
 */
export function extractiveAnswer(question: string, passages: AiSource[], opts: ExtractiveOptions = {}): ExtractiveAnswer {
  const terms = opts.terms ? (t: string) => new Set(opts.terms!(t)) : termsOf
  const matches = opts.terms ? (t: string, q: Set<string>) => [...terms(t)].filter((x) => q.has(x)) : foundIn
  const weightOf = (i: number) => opts.weights?.[i] ?? 1 / (1 + RANK_DECAY * i)
  const none: ExtractiveAnswer = { content: '', cited: [], sources: [], coverage: 0, grounded: false, confidence: 0 }
  const q = terms(question)
  if (q.size === 0) return none
  const candidates = passages.slice(0, MAX_PASSAGES).map((p, i) => ({ text: p.text, headings: p.title ? [p.title] : [], found: (t: string) => matches(t, q), weight: weightOf(i) }))
  const reply = bestReply(candidates, q.size, asksForSteps(question))
  if (!reply) return none
  const passage = reply.index
  const source = passages[passage]
  const chosen = reply.units
  const coverage = reply.terms.size / q.size
  if (reply.terms.size < MIN_TERMS && coverage < MIN_COVERAGE - 1e-9) return none
  const text = reply.text
  const sources: Citation[] = [{ kind: 'passage', id: source.id, title: source.title ?? null, excerpt: excerptOf(chosen.map((u) => u.text).join(' ')), score: 1 }]
  const confidence = Math.round(Math.min(0.95, 0.3 + 0.65 * coverage) * 100) / 100
  return { content: `${text} [1]`, cited: [passage], sources, coverage: Math.round(coverage * 100) / 100, grounded: true, confidence }
}
