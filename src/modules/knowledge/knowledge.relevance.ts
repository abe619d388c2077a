/**
 * The one notion of "answered" (issue 32): a passage's `score` is its calibrated relevance in [0, 1]
 * (knowledge-ranking.ts), and a question is answered when its best passage reaches ANSWERED_THRESHOLD.
 * Search results, gap recording and resolution, `answer: true`, a bot's hand-off and the inbox drafts all
 * compare with this one threshold, so a question recorded as a gap is never answered as grounded.
 * Other modules read it through knowledge.search.schemas.ts (the contract the API publishes).
 */
export const ANSWERED_THRESHOLD = 0.5

/** Whether a passage of this calibrated score answers the question it was found for. */
export function isAnswered(score: number): boolean {
  return score >= ANSWERED_THRESHOLD
}
