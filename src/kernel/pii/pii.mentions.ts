import type { DataSubject } from '../module.js'

// Where a data subject's own identifiers stand in a free text: the one rule every module's privacy part
// uses to find and cut out a person named in someone else's record (docs/compliance.md).

export const ERASED = '[erased]'

const escapeRegExp = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')

/**
 * The names that count as the subject's: a full name (two words or more, each of two letters or more,
 * spaces collapsed). A lone first name ("Ada") would cut every other Ada out of the workspace's texts.
 */
export function mentionableNames(s: DataSubject): string[] {
  const out = new Set<string>()
  for (const raw of s.names ?? []) {
    const name = raw.trim().replace(/\s+/g, ' ')
    const words = name.split(' ')
    if (words.length >= 2 && words.every((w) => /^[\p{L}][\p{L}'’.-]+$/u.test(w))) out.add(name)
  }
  return [...out]
}

/** What a repository's LIKE pre-filter looks for (case-insensitively): every string mentionSpans matches on. */
export const mentionNeedles = (s: DataSubject): string[] => [s.email, s.phone, ...mentionableNames(s)].filter((n): n is string => !!n)

/**
 * Where the subject's email (any case), phone (as stored, E.164) or full name (any case, mentionableNames)
 * stands in a text as a whole: not inside a longer address (`nada@…`, `…@example.com.au`), number or word.
 * Literal only: `+1 415 555 0123` written with spaces is not found.
 */
export function mentionSpans(text: string, s: DataSubject): { start: number; end: number }[] {
  const out: { start: number; end: number }[] = []
  const find = (needle: string, whole: (before: string, after: string) => boolean) => {
    for (const m of text.matchAll(new RegExp(escapeRegExp(needle), 'giu'))) {
      const start = m.index!
      const end = start + m[0].length
      if (whole(text.slice(Math.max(0, start - 1), start), text.slice(end, end + 2))) out.push({ start, end })
    }
  }
  if (s.email) find(s.email, (b, a) => !/[A-Za-z0-9._%+-]/.test(b) && !/^([A-Za-z0-9_-]|\.[A-Za-z0-9])/.test(a))
  if (s.phone) find(s.phone, (b, a) => !/[0-9+]/.test(b) && !/^[0-9]/.test(a))
  // A name as a whole: not inside a longer word ("Ada Lovelaces").
  for (const name of mentionableNames(s)) find(name, (b, a) => !/[\p{L}\p{N}]/u.test(b) && !/^[\p{L}\p{N}]/u.test(a))
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
