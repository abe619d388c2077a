import type { Tenant } from '../../kernel/tenant.js'

// Text handling of inbox search, the same on both engines: words are runs of letters and digits (so an
// e-mail address is its parts, as FTS5's unicode61 tokenizer sees it), compared lower-cased; the last
// word of a query is a prefix (search as you type).

const WORD = /[\p{L}\p{N}]+/gu
/** At most this many words of a query are used: each one narrows, and each costs an index lookup. */
export const MAX_QUERY_WORDS = 8

/** The query's words, lower-cased, de-duplicated, in order; empty when it has none. */
export function queryWords(q: string): string[] {
  return [...new Set(q.normalize('NFKC').toLowerCase().match(WORD) ?? [])].slice(0, MAX_QUERY_WORDS)
}

/** The FTS5 MATCH expression of the body alone: every word (the last as a prefix), in every tenant. */
export function ftsBodyMatch(words: string[]): string {
  return `body : (${words.map((w, i) => `"${w}"${i === words.length - 1 ? ' *' : ''}`).join(' AND ')})`
}

/** The FTS5 MATCH expression: the tenant's token, then every word (the last as a prefix) in the body. */
export function ftsMatch(tenant: Tenant, words: string[]): string {
  return `tenant : "${tenantToken(tenant)}" AND ${ftsBodyMatch(words)}`
}

/** The to_tsquery text: every word, the last as a prefix (`:*`). Words are letters and digits only. */
export const tsQuery = (words: string[]): string => words.map((w, i) => `'${w}'${i === words.length - 1 ? ':*' : ''}`).join(' & ')

/** What PostgreSQL's to_tsvector('simple', …) is given: words separated by spaces, as FTS5 splits them. */
export const indexText = (body: string): string => (body.normalize('NFKC').match(WORD) ?? []).join(' ')

/** One token per workspace and mode (FTS5 `tenant` column): a search reads only its tenant's postings. */
export const tenantToken = (t: Tenant): string => `w${t.workspaceId.replace(/_/g, '').toLowerCase()}${t.mode}`

/** A conversation's own search text: subject, contact name and e-mail. */
export const conversationText = (c: { subject: string | null; contact_name: string | null; contact_email: string | null }): string =>
  [c.subject, c.contact_name, c.contact_email].filter(Boolean).join(' ')

const escapeHtml = (s: string) => s.replace(/[&<>"']/g, (ch) => `&#${ch.charCodeAt(0)};`)

/**
 * Up to ~`width` words of `body` around its first match, HTML-escaped, each matching word in <mark>…</mark>
 * (a word matches a query word exactly, or the last query word as a prefix). Computed here for the page's
 * rows only, the same on both engines.
 */
export function snippetOf(body: string, words: string[], width = 16): string {
  const last = words[words.length - 1]
  const matches = (w: string) => {
    const l = w.normalize('NFKC').toLowerCase()
    return words.includes(l) || (last !== undefined && l.startsWith(last))
  }
  const tokens: { start: number; end: number; hit: boolean }[] = []
  for (const m of body.matchAll(WORD)) tokens.push({ start: m.index!, end: m.index! + m[0].length, hit: matches(m[0]) })
  if (tokens.length === 0) return escapeHtml(body.slice(0, 200))
  const first = Math.max(
    0,
    tokens.findIndex((t) => t.hit),
  )
  const from = Math.max(0, first - Math.floor(width / 3))
  const to = Math.min(tokens.length, from + width)
  let out = from > 0 ? '…' : ''
  let pos = from > 0 ? tokens[from].start : 0
  for (let i = from; i < to; i++) {
    const t = tokens[i]
    out += escapeHtml(body.slice(pos, t.start))
    const word = escapeHtml(body.slice(t.start, t.end))
    out += t.hit ? `<mark>${word}</mark>` : word
    pos = t.end
  }
  return out + (to < tokens.length ? '…' : escapeHtml(body.slice(pos)))
}
