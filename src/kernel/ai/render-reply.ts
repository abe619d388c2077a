import { speakable } from './render-speech.js'

/** Where a reply goes: how it may look there. */
export type ReplyChannel = 'chat' | 'email' | 'voice' | 'sms' | 'api'

/** What a citation marker leads to. */
export interface ReplyLink {
  title: string | null
  url: string | null
}

/** [n] cites reference n; "[1](https://…)" is a Markdown link, not a marker. */
const MARKER = /[ \t]*\[(\d{1,2})\](?!\()/g
const URL = /\bhttps?:\/\/[^\s<>()"']*[^\s<>()"'.,;:!?]/g

/**
 * A reply as its channel shows it. `text` may hold [n] markers citing `citations[n - 1]` (a hole or a
 * marker past the end leads nowhere and is dropped); citations are data, the markers only a view of it.
 * - api: unchanged (the caller gets the citations as data beside it).
 * - chat: Markdown; markers kept where they lead somewhere, and a "Sources:" list of Markdown links.
 * - email: plain text; Markdown links as "text (url)", markers kept, "Sources:" as "[n] Title (url)".
 * - sms: plain text without markers; the first cited link at the end (a phone makes it tappable).
 * - voice: what is said: no markers, URLs (a site is said by its host name) or Markdown, lines as
 *   sentences, money, times, dates, ranges and percentages as a person says them (`speakable`).
 */
export function renderReply(text: string, citations: readonly (ReplyLink | null | undefined)[], channel: ReplyChannel): string {
  if (channel === 'api') return text
  const leads = (n: number) => !!citations[n - 1] && (citations[n - 1]!.url !== null || citations[n - 1]!.title !== null)
  const used = [...new Set([...text.matchAll(MARKER)].map((m) => Number(m[1])).filter(leads))].sort((a, b) => a - b)
  const keepMarkers = (t: string) => t.replace(MARKER, (all, n: string) => (leads(Number(n)) ? all : ''))
  const noMarkers = (t: string) => t.replace(MARKER, '')
  switch (channel) {
    case 'chat': {
      const list = used.map((n) => `[${n}] ${mdLink(citations[n - 1]!)}`)
      return tidy(keepMarkers(text)) + (list.length ? `\n\nSources:\n${list.join('\n')}` : '')
    }
    case 'email': {
      const list = used.map((n) => `[${n}] ${plainLink(citations[n - 1]!)}`)
      return tidy(plain(keepMarkers(text), 'email')) + (list.length ? `\n\nSources:\n${list.join('\n')}` : '')
    }
    case 'sms': {
      const body = tidy(plain(noMarkers(text), 'sms'))
      const url = used.map((n) => citations[n - 1]!.url).find((u): u is string => !!u && !body.includes(u))
      return url ? `${body}\n${url}` : body
    }
    case 'voice':
      return spoken(noMarkers(text))
  }
}

const mdLink = (c: ReplyLink) => (c.url ? `[${(c.title ?? c.url).replace(/([[\]])/g, '\\$1')}](${c.url})` : (c.title ?? ''))
const plainLink = (c: ReplyLink) => (c.url ? (c.title ? `${c.title} (${c.url})` : c.url) : (c.title ?? ''))

/** Markdown → plain text, line by line (lists and table rows stay lines). */
function plain(md: string, channel: 'email' | 'sms' | 'voice'): string {
  const lines: string[] = []
  for (const raw of md.replace(/\r\n?/g, '\n').split('\n')) {
    if (/^\s*(```|~~~)/.test(raw)) continue // a fence; the code inside stays as its lines
    if (/^\s*([-*_])(\s*\1){2,}\s*$/.test(raw)) continue // a horizontal rule
    if (/^\s*\|?\s*:?-{3,}:?\s*(\|\s*:?-{3,}:?\s*)*\|?\s*$/.test(raw)) continue // a table's header rule
    let line = raw
      .replace(/^\s{0,3}#{1,6}\s+(.*?)\s*#*\s*$/, '$1')
      .replace(/^\s*>\s?/, '')
      .replace(/^\s*[-*+•]\s+/, channel === 'voice' ? '' : '- ')
      .replace(/^\s*(\d{1,2})[.)]\s+/, channel === 'voice' ? 'Step $1: ' : '$1. ')
    if (/^\s*\|.*\|\s*$/.test(line))
      line = line
        .trim()
        .slice(1, -1)
        .split('|')
        .map((c) => c.trim())
        .filter(Boolean)
        .join(', ')
    lines.push(inline(line, channel))
  }
  return lines.join('\n')
}

function inline(s: string, channel: 'email' | 'sms' | 'voice'): string {
  return s
    .replace(/!\[([^\]]*)\]\([^)\s]*(?:\s+"[^"]*")?\)/g, '$1')
    .replace(/\[([^\]]+)\]\(([^)\s]+)(?:\s+"[^"]*")?\)/g, (all, label: string, url: string) => (channel === 'voice' || label === url || !/^https?:|^mailto:/.test(url) ? label : `${label} (${url})`))
    .replace(/<((?:https?|mailto):[^>\s]+)>/g, '$1')
    .replace(/`([^`]+)`/g, '$1')
    .replace(/(\*\*|__)(?=\S)(.+?)(?<=\S)\1/g, '$2')
    .replace(/(?<![\w*])\*(?=\S)([^*]+?)(?<=\S)\*(?![\w*])/g, '$1')
    .replace(/(?<![\w_])_(?=\S)([^_]+?)(?<=\S)_(?![\w_])/g, '$1')
    .replace(/~~(?=\S)(.+?)(?<=\S)~~/g, '$1')
}

/** Each line a sentence, URLs said as their site, and the words a synthesiser reads well. */
function spoken(text: string): string {
  const sentences = plain(text, 'voice')
    .split('\n')
    .map((l) => l.replace(URL, (u) => hostOf(u)).trim())
    .filter(Boolean)
    .map((l) => (/[.!?:;,]$/.test(l) ? l : `${l}.`))
  return speakable(sentences.join(' '))
    .replace(/\s+/g, ' ')
    .replace(/ ([.,;:!?])/g, '$1')
    .replace(/\(\s*\)/g, '')
    .trim()
}

function hostOf(url: string): string {
  try {
    return new globalThis.URL(url).hostname.replace(/^www\./, '')
  } catch {
    return ''
  }
}

function tidy(s: string): string {
  return s
    .split('\n')
    .map((l) =>
      l
        .replace(/[ \t]{2,}/g, ' ')
        .replace(/ ([.,;:!?])/g, '$1')
        .trimEnd(),
    )
    .join('\n')
    .replace(/\n{3,}/g, '\n\n')
    .trim()
}
