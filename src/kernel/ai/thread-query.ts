import MiniSearch from 'minisearch'
import type { AiTurn } from './ai.types.js'
import { normaliseTerm } from './ranker.js'

/**
 * What a conversation asks, for choosing a reply's sources: the latest customer message first, earlier
 * ones weighted less, and inside a message the sentences that ask (a question, a request) over the story
 * around them. A realistic e-mail is mostly greeting, narrative, order numbers and a signature; counted
 * word for word, those words outweigh the one sentence that says what the customer wants, and the source
 * that matches the most words (an index page of links) beats the one that answers.
 */
export interface ThreadQuery {
  /** The asking sentences of the latest customer message (the whole message when none asks): its words. */
  question: WeightedTerm[]
  /** Everything else: the latest message's other sentences, then earlier messages, each weighted down. */
  context: WeightedTerm[]
  /** Plain text of the question, for a search that takes a text (knowledge passages, gap records). */
  text: string
}

export interface WeightedTerm {
  term: string
  /** In (0, 1]: 1 for the latest message's question, less for its story and for earlier messages. */
  weight: number
}

/** Customer messages read, latest first; each earlier one counts TURN_DECAY times the next one. */
const QUERY_TURNS = 3
const TURN_DECAY = 0.5
/** A sentence of a message that asks nothing (the story around the question). */
const STORY_WEIGHT = 0.35
/** Terms kept of the context: the heaviest, so a long thread cannot drown the question. */
const MAX_CONTEXT_TERMS = 24
/** Bounds the work on a pasted novel: the start of a message holds its request. */
const MAX_MESSAGE_CHARS = 4000

// Words of asking, not of a topic ("can I get…", "I need to know…", "let me know"): topic words decide.
const ASKING = new Set('also already ago anyway back get got help know let like long make many much need really since still take tell thing want wonder'.split(' ').map((w) => normaliseTerm(w) ?? w))

const GREETING = /^(?:hi|hello|hey|dear|greetings|good (?:morning|afternoon|evening))\b[^.!?\n]{0,40}[,.!:]?$/i
const SIGN_OFF = /^(?:thanks|thank you|many thanks|thx|cheers|best|best wishes|kind regards|best regards|warm regards|regards|sincerely|yours(?: truly| sincerely)?|all the best)\b[^?\n]{0,30}$/i
// Where a reply quotes the message before it, or a signature block starts: nothing after it is new.
const QUOTE_START = /^(?:on .{1,200} wrote:|-{2,} ?original message ?-{2,}|from: .+|-- ?|_{5,})$/i
const ASKS =
  /\?|^(?:can|could|would|will|when|where|what|which|how|why|is|are|do|does|did|should|may|has|have)\b|\b(?:please|i(?:'d| would) like|i want|i need|let me know|tell me|i'm looking for|i am looking for|wondering)\b/i

const tokenize = MiniSearch.getDefault('tokenize') as (text: string) => string[]
const segmenter = new Intl.Segmenter('en', { granularity: 'sentence' })

/** The message without its greeting, sign-off, signature and quoted earlier messages. */
export function messageBody(text: string): string[] {
  const lines = text
    .slice(0, MAX_MESSAGE_CHARS)
    .split(/\r?\n/)
    .map((l) => l.trim())
  const kept: string[] = []
  for (const line of lines) {
    if (QUOTE_START.test(line)) break
    if (line.startsWith('>') || line === '') continue
    // A short sign-off after some content ends the message: what follows is a name and a signature.
    if (kept.length > 0 && SIGN_OFF.test(line) && line.split(/\s+/).length <= 5) break
    if (kept.length === 0 && GREETING.test(line)) continue
    kept.push(line)
  }
  return kept
}

/** The sentences of a message and whether each asks something. */
export function sentencesOf(text: string): { text: string; asks: boolean }[] {
  const out: { text: string; asks: boolean }[] = []
  for (const line of messageBody(text)) {
    for (const s of segmenter.segment(line)) {
      const sentence = s.segment.trim()
      if (sentence && !GREETING.test(sentence)) out.push({ text: sentence, asks: ASKS.test(sentence) })
    }
  }
  return out
}

/** Topic words of a sentence: no stop words, no asking words, nothing with a digit (order numbers, dates). */
export function topicTerms(text: string): string[] {
  const out: string[] = []
  for (const token of tokenize(text)) {
    if (/\d/.test(token)) continue
    const t = normaliseTerm(token)
    if (t && !ASKING.has(t)) out.push(t)
  }
  return out
}

export function threadQuery(transcript: readonly AiTurn[]): ThreadQuery {
  const turns = transcript.filter((t) => t.role === 'customer').reverse()
  const question = new Map<string, number>()
  const context = new Map<string, number>()
  const add = (into: Map<string, number>, terms: string[], weight: number) => {
    for (const t of terms) if ((into.get(t) ?? 0) < weight) into.set(t, weight)
  }
  let text = ''
  let weight = 1
  let read = 0
  for (const turn of turns) {
    if (read === QUERY_TURNS) break
    const sentences = sentencesOf(turn.text)
      .map((s) => ({ ...s, terms: topicTerms(s.text) }))
      .filter((s) => s.terms.length > 0)
    // A message of thanks or "ok" says nothing about the topic: the one before it is still the question.
    if (sentences.length === 0) continue
    read++
    const asking = sentences.some((s) => s.asks)
    const latest = read === 1
    for (const s of sentences) {
      const isQuestion = !asking || s.asks
      // The latest message with topic words holds the question; all else is context.
      if (latest && isQuestion) add(question, s.terms, 1)
      else add(context, s.terms, weight * (isQuestion ? 1 : STORY_WEIGHT))
    }
    if (latest)
      text = sentences
        .filter((s) => !asking || s.asks)
        .map((s) => s.text)
        .join(' ')
    weight *= TURN_DECAY
  }
  for (const t of question.keys()) context.delete(t)
  const byWeight = (m: Map<string, number>) => [...m].map(([term, w]) => ({ term, weight: w })).sort((a, b) => b.weight - a.weight)
  return { question: byWeight(question), context: byWeight(context).slice(0, MAX_CONTEXT_TERMS), text }
}
