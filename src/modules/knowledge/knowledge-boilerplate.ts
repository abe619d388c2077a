/**
 * Boilerplate detection (issue 32): navigation and index pages — a help centre's list of article titles,
 * a site map, a table of contents — hold the words of many questions and answer none of them. A chunk's
 * `prose` factor, stored with its index row when the document is processed, is what share of its text
 * reads as prose; ranking multiplies a chunk's order and calibrated score by it, so such a page ranks
 * below the passage it links to.
 *
 * A line is a *link-like* line when it is short (at most LINK_WORDS words) and carries nothing of a
 * sentence or of code: no closing or inner punctuation, no brackets, operators or quotes — the shape of a
 * menu entry or a link title ("Refund timing", "How refunds work"). Code and sentences are prose for this
 * purpose (an API reference's example is not navigation). With `share` the link-like lines' share of the
 * chunk's non-empty lines:
 *
 *     prose = 1                                               when share ≤ 0.6 or the chunk has < 4 lines
 *     prose = 1 − (1 − FLOOR) × (share − 0.6) / 0.4           otherwise (down to FLOOR when every line is a link)
 */
const LINK_WORDS = 6
const MIN_LINES = 4
const SHARE_FROM = 0.6
/** The factor of a chunk made only of link-like lines: ranked low, never dropped. */
export const PROSE_FLOOR = 0.4

const SENTENCE_OR_CODE = /[.!?:;,()[\]{}<>=`"/\\*+$%#@|]/
const BULLET = /^\s*(?:[-*•·–]|\d+[.)])\s+/

export function proseFactor(text: string): number {
  let lines = 0
  let links = 0
  for (const raw of text.split('\n')) {
    const line = raw.replace(BULLET, '').trim()
    if (!line) continue
    lines++
    const words = line.split(/\s+/).length
    if (words <= LINK_WORDS && !SENTENCE_OR_CODE.test(line)) links++
  }
  if (lines < MIN_LINES) return 1
  const share = links / lines
  if (share <= SHARE_FROM) return 1
  return Math.round((1 - ((1 - PROSE_FLOOR) * (share - SHARE_FROM)) / (1 - SHARE_FROM)) * 1000) / 1000
}
