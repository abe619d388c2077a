import { blockedTermSpans, maskOutput, touchesBlockedTopic } from './guardrails.js'
import type { BotGuardrailsT } from './guardrails.schemas.js'

/**
 * How much of `text` can be shown now (its length when all of it): up to the last space, less what the rest
 * may still turn into — a run of digits with its separators (a phone or card number going on after the
 * space) and the last `holdWords − 1` words (a blocked term of several words). E-mail addresses, URLs and
 * profane words hold no space, so a part cut there masks as the whole text would.
 */
export function safeCut(text: string, holdWords: number): number {
  let cut = 0
  for (const m of text.matchAll(/\s+/g)) cut = m.index! + m[0].length
  // Back over digits and what separates their groups; if that run holds a digit, it is held back whole.
  let d = cut
  while (d > 0 && /[\d\s\-.()/+]/.test(text[d - 1])) d--
  while (d < cut && /\s/.test(text[d])) d++
  if (/\d/.test(text.slice(d, cut))) cut = d
  for (let words = 1; words < holdWords && cut > 0; words++) cut = Math.max(0, text.slice(0, cut).trimEnd().search(/\S+$/))
  // Back to the start of the word the cut fell in.
  while (cut > 0 && !/\s/.test(text[cut - 1])) cut--
  return cut
}

/**
 * A streamed reply's pieces as the reader may see them (streamBotMessage): word by word, holding back what
 * could still become personal data or a blocked term (safeCut), with the output guardrails that work on a
 * part of the text applied — blocked terms, profanity and personal data masked, nothing past
 * max_reply_length. A part touching a blocked topic stops the stream there: the
 * final reply (the blocked reply) replaces what was shown. The rules that judge the whole answer
 * (grounding, languages, hand-off) still decide the final `message`, which replaces every piece.
 */
export function guardedPieces(cfg: BotGuardrailsT, emit: (text: string) => void): { push(piece: string): void; end(): void } {
  let held = ''
  // The raw text released so far (a blocked topic may span parts) and the length shown of it, masked.
  let released = ''
  let shownLength = 0
  let stopped = false
  const holdWords = Math.max(1, ...cfg.blocked_terms.map((t) => t.trim().split(/\s+/).length))
  const release = (part: string) => {
    if (stopped || !part) return
    released += part
    if (touchesBlockedTopic(cfg, released)) {
      stopped = true
      return
    }
    let text = maskOutput(cfg, part).text
    if (shownLength + text.length > cfg.max_reply_length) {
      text = text.slice(0, Math.max(0, cfg.max_reply_length - shownLength))
      stopped = true
    }
    shownLength += text.length
    if (text) emit(text)
  }
  return {
    push(piece) {
      held += piece
      let cut = safeCut(held, holdWords)
      // Never inside a blocked term the held text already holds whole.
      for (const t of blockedTermSpans(cfg, held)) if (t.start < cut && cut < t.end) cut = t.start
      if (cut === 0) return
      const part = held.slice(0, cut)
      held = held.slice(cut)
      release(part)
    },
    end() {
      const rest = held
      held = ''
      release(rest)
    },
  }
}
