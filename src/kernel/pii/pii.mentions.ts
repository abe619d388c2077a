import type { DataSubject } from '../module.js'

// Where a data subject's own identifiers stand in a free text: the one rule every module's privacy part
// uses to find and cut out a person named in someone else's record (docs/compliance.md).

export const ERASED = '[erased]'

const escapeRegExp = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')

/**
 * Where the subject's email (any case) or phone (as stored, E.164) stands in a text as a whole: not inside
 * a longer address (`nada@…`, `…@example.com.au`) or a longer number. Literal only: `+1 415 555 0123`
 * written with spaces is not found.
 */
export function mentionSpans(text: string, s: DataSubject): { start: number; end: number }[] {
  const out: { start: number; end: number }[] = []
  const find = (needle: string, whole: (before: string, after: string) => boolean) => {
    for (const m of text.matchAll(new RegExp(escapeRegExp(needle), 'gi'))) {
      const start = m.index!
      const end = start + m[0].length
      if (whole(text.slice(Math.max(0, start - 1), start), text.slice(end, end + 2))) out.push({ start, end })
    }
  }
  if (s.email) find(s.email, (b, a) => !/[A-Za-z0-9._%+-]/.test(b) && !/^([A-Za-z0-9_-]|\.[A-Za-z0-9])/.test(a))
  if (s.phone) find(s.phone, (b, a) => !/[0-9+]/.test(b) && !/^[0-9]/.test(a))
  return out.sort((x, y) => x.start - y.start)
}

/** Whether the text names the subject (mentionSpans finds something). */
export const namesSubject = (text: string, s: DataSubject): boolean => mentionSpans(text, s).length > 0

/** The text with every mention replaced by `[erased]` (overlapping ones by one). */
export function eraseMentions(text: string, s: DataSubject): string {
  let out = ''
  let at = 0
  for (const { start, end } of mentionSpans(text, s)) {
    if (start < at) {
      at = Math.max(at, end)
      continue
    }
    out += text.slice(at, start) + ERASED
    at = end
  }
  return out + text.slice(at)
}
