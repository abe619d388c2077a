/**
 * The ranking of knowledge search, pure and engine-independent: query planning over the per-base term
 * statistics the database keeps (knowledge-stats.repository.ts), and the BM25F score computed in JS
 * over the candidates the engine's full-text index selected. Both engines feed it the same numbers,
 * so SQLite and PostgreSQL rank the same candidates the same way.
 */

/** BM25F parameters: title and headings count 2.5× the text; the text is length-normalised harder. */
export const BM25F = { k1: 1.2, bHead: 0.5, bBody: 0.75, headWeight: 2.5 } as const

/** Postings the engine may rank per search: what keeps a search's cost bounded whatever the base size. */
export const POSTINGS_BUDGET = 500

/** Term statistics of the searched bases (summed when several are searched together). */
export interface TermStats {
  /** Chunks holding each term; a term absent from the map is in none. */
  df: ReadonlyMap<string, number>
  chunks: number
  avgHead: number
  avgBody: number
}

/** Lucene's BM25 idf: always positive, so a term in every chunk still counts a little. */
export const idf = (df: number, chunks: number): number => Math.log(1 + (chunks - df + 0.5) / (df + 0.5))

/** Chunks holding the common terms together that join the candidates, newest first. */
export const COMMON_CAP = 50

/**
 * Which chunks the engine selects. Ranking a posting is the engine's costly step, so
 * - `any`: chunks holding any of the rarest terms whose postings fit POSTINGS_BUDGET together, ranked by
 *   the engine (bm25() / ts_rank() over those terms);
 * - `newest`: chunks holding the next rarest terms all together (two, or three when two are likely to
 *   co-occur in more chunks than the budget), not ranked: the newest COMMON_CAP, which the engine finds
 *   by walking postings, not scoring them. It brings in chunks that answer with common words only.
 * Every term of the question still counts in the BM25F of every candidate. A question of one common
 * word gets only `newest` on it.
 */
export type FilterPlan = { any: string[] } | { newest: string[]; cap: number }

export function planFilters(terms: readonly string[], stats: TermStats, budget = POSTINGS_BUDGET): FilterPlan[] {
  const df = (t: string) => stats.df.get(t) ?? 0
  const present = terms.filter((t) => df(t) > 0).sort((a, b) => df(a) - df(b) || (a < b ? -1 : 1))
  const any: string[] = []
  let postings = 0
  for (const t of present) {
    if (postings + df(t) > budget) break
    any.push(t)
    postings += df(t)
  }
  const plans: FilterPlan[] = any.length > 0 ? [{ any }] : []
  const rest = present.slice(any.length)
  if (rest.length === 1 && any.length === 0) plans.push({ newest: rest, cap: COMMON_CAP })
  if (rest.length >= 2) {
    // Estimated co-occurrence if the terms were independent: a third term narrows a pair that is too common.
    const together = (df(rest[0]) * df(rest[1])) / Math.max(1, stats.chunks)
    plans.push({ newest: rest.slice(0, together > budget && rest.length >= 3 ? 3 : 2), cap: COMMON_CAP })
  }
  return plans
}

/**
 * The stored term frequencies of a chunk: ` term:head:body` for each distinct term (leading spaces), so
 * one query term is found with an indexOf and nothing else is parsed.
 */
export function termFrequencies(head: readonly string[], body: readonly string[]): string {
  const tf = new Map<string, [number, number]>()
  for (const t of head) (tf.get(t) ?? tf.set(t, [0, 0]).get(t)!)[0]++
  for (const t of body) (tf.get(t) ?? tf.set(t, [0, 0]).get(t)!)[1]++
  let out = ''
  for (const t of [...tf.keys()].sort()) out += ` ${t}:${tf.get(t)![0]}:${tf.get(t)![1]}`
  return out
}

/** The distinct terms of a stored ` term:head:body …` string. */
export function termsOfFrequencies(tf: string): string[] {
  const out: string[] = []
  for (const entry of tf.split(' ')) if (entry) out.push(entry.slice(0, entry.indexOf(':')))
  return out
}

export interface Rankable {
  terms: string
  head_len: number
  body_len: number
}

export interface Bm25fScore {
  raw: number
  /** BM25F with each term's saturated frequency capped at SCORE_TERM_CAP (the calibrated score's part). */
  capped: number
  score: number
  matched: number
}

/**
 * BM25F of a chunk for `terms`: the title/headings and text frequencies are length-normalised per field,
 * weighted, summed, then saturated once per term (k1) and weighted by the term's idf. Also returns the
 * score in [0, 1]: BM25F over the BM25F of a chunk holding each term once in a text of average length
 * (Σ idf), capped at 1 — a chunk holding the terms that carry half of the question's weight scores
 * about 0.5.
 */
export function bm25f(c: Rankable, terms: readonly string[], stats: TermStats): Bm25fScore {
  return bm25fScorer(terms, stats)(c)
}

/**
 * The BM25F of one question, ready to score many candidates: the idf of each term and the `term:` it is
 * found by are computed once, and a candidate's frequencies are read in place (no split, slice or
 * number parsing of its stored string: this runs for every candidate of every search).
 */
export function bm25fScorer(terms: readonly string[], stats: TermStats): (c: Rankable) => Bm25fScore {
  const { k1, bHead, bBody, headWeight } = BM25F
  // `term:` without the leading space, checked after: V8 scans for the needle's first character, and a
  // letter is far rarer than the space before every entry (measured 3× faster).
  const needles = terms.map((t) => `${t}:`)
  const weights = terms.map((t) => idf(stats.df.get(t) ?? 0, stats.chunks))
  const weight = weights.reduce((n, w) => n + w, 0)
  const avgHead = stats.avgHead || 1
  const avgBody = stats.avgBody || 1
  return (c) => {
    const headNorm = 1 - bHead + bHead * (Number(c.head_len) / avgHead)
    const bodyNorm = 1 - bBody + bBody * (Number(c.body_len) / avgBody)
    const tf = c.terms
    let raw = 0
    let capped = 0
    let matched = 0
    for (let i = 0; i < needles.length; i++) {
      let at = tf.indexOf(needles[i])
      while (at > 0 && tf.charCodeAt(at - 1) !== 32) at = tf.indexOf(needles[i], at + 1)
      if (at <= 0) continue
      // ` term:head:body`: two decimal numbers after the needle.
      let p = at + needles[i].length
      let h = 0
      for (let ch = tf.charCodeAt(p); ch !== 58; ch = tf.charCodeAt(++p)) h = h * 10 + ch - 48
      let b = 0
      for (let ch = tf.charCodeAt(++p); ch >= 48 && ch <= 57; ch = tf.charCodeAt(++p)) b = b * 10 + ch - 48
      if (h === 0 && b === 0) continue
      matched++
      const f = (headWeight * h) / headNorm + b / bodyNorm
      const saturated = (f * (k1 + 1)) / (k1 + f)
      raw += weights[i] * saturated
      capped += weights[i] * Math.min(SCORE_TERM_CAP, saturated)
    }
    return { raw, capped, score: weight > 0 ? Math.min(1, raw / weight) : 0, matched }
  }
}

/**
 * How much a question term that no chunk of the searched bases holds weighs against the score, relative to
 * its idf: a question about "pizza" asked of a base that never says "pizza" is about something else,
 * however well its other words ("recommend", "good", "place") match. Measured on the bench's questions
 * (docs/knowledge.md, with SCORE_TERM_CAP): 2 × idf(df = 1) declines 30 of 30 off-topic questions and
 * answers 101 of 116 in-scope ones.
 */
export const ABSENT_TERM_WEIGHT = 2

/**
 * In the calibrated score (not the order) one term counts at most 1.5× its idf, where BM25F saturates at
 * (k1 + 1) = 2.2×: a question sharing one word with a title ("opening hours of the Louvre" asked of a
 * shop's "Opening hours") must not reach the threshold on that word's repeats alone.
 */
export const SCORE_TERM_CAP = 1.5

/**
 * Words of the question's form, not its subject ("how long", "how much", "how many", "how often", "how
 * far", "how soon"; stemmed English): absent from the bases, they are no sign of another subject.
 */
const QUESTION_FORMS = new Set(['long', 'much', 'mani', 'often', 'far', 'soon'])

export interface Relevance {
  /** What results are ordered by: BM25F × the chunk's prose factor. */
  order: number
  /** The calibrated relevance in [0, 1] that knowledge.relevance.ts compares with its threshold. */
  score: number
  raw: number
  matched: number
}

/**
 * The ranking and the calibrated relevance of one question over many candidates. Order: the chunk's BM25F
 * (as bm25fScorer) times its prose factor (knowledge-boilerplate.ts: navigation pages rank low). Score:
 *
 *     score = prose × min(1, BM25F₁.₅ / (Σ idf(t) of terms some chunk holds + 2 × idf(df=1) × terms none holds))
 *
 * BM25F₁.₅ is BM25F with each term's saturated frequency capped at SCORE_TERM_CAP (1.5). So a chunk holding each question term once in a text of average length scores 1, one holding the terms
 * that carry half of the question's idf weight about 0.5, and a rare word that nothing in the bases holds
 * (the subject of an off-topic question) pulls every score down twice the weight of the rarest word it holds.
 */
export function relevanceScorer(terms: readonly string[], stats: TermStats): (c: Rankable & { prose?: number }) => Relevance {
  const bm25 = bm25fScorer(terms, stats)
  const weight = terms.reduce((n, t) => {
    const df = stats.df.get(t) ?? 0
    if (df === 0 && QUESTION_FORMS.has(t)) return n
    // An absent term weighs as the rarest present one would (df 1), times ABSENT_TERM_WEIGHT: idf(0) itself
    // would be twice idf(1) in a base of three chunks and let one unknown word decline everything there.
    return n + (df === 0 ? ABSENT_TERM_WEIGHT * idf(1, stats.chunks) : idf(df, stats.chunks))
  }, 0)
  return (c) => {
    const k = bm25(c)
    const prose = c.prose ?? 1
    return { order: k.raw * prose, score: weight > 0 ? prose * Math.min(1, k.capped / weight) : 0, raw: k.raw, matched: k.matched }
  }
}
