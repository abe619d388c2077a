import { createHash } from 'node:crypto'
import type { AddressObject, ParsedMail } from 'mailparser'
import sanitizeHtml from 'sanitize-html'

// One email as the channel reads it, from raw MIME (the SMTP listener, SendGrid's raw mode, Mailgun's
// body-mime) through mailparser. Limits are checked before and while parsing: the size by whoever read the
// bytes (SMTP SIZE, the webhook's body limit), nesting and parts here before mailparser sees the message,
// text and HTML lengths after.

export interface EmailLimits {
  /** Largest attachment kept as a blob; larger ones are listed in the message text, not kept. */
  maxAttachmentBytes: number
  /** Attachments kept per message. */
  maxAttachments: number
}

export interface EmailAttachment {
  filename: string | null
  contentType: string
  content: Buffer
}

export interface ParsedEmail {
  /** The Message-ID without angle brackets; `sha256:<hex of the message>` when it has none. */
  messageId: string
  from: { address: string; name: string | null }
  /** Every recipient we can read (To, Cc, Delivered-To, X-Original-To), lower-cased. */
  recipients: string[]
  subject: string
  /** The customer's text: the text part, else the sanitised HTML's text; quoted history trimmed. */
  text: string
  /** The HTML part with scripts, styles, event handlers and non-http(s)/mailto/cid URLs removed. */
  html: string | null
  inReplyTo: string | null
  /** Oldest first, as the References header lists them. */
  references: string[]
  /** RFC 3834 / Precedence auto-replies and delivery-status reports: not answered by the bot. */
  automatic: 'auto_reply' | 'bounce' | null
  /** A delivery report's original message (its Message-ID, from the returned headers) and the reason given. */
  bounce: { of: string; reason: string } | null
  attachments: EmailAttachment[]
  /** Attachments not kept (over the limits), as "name (size)". */
  omitted: string[]
}

export class MimeRefused extends Error {
  constructor(
    readonly reason: 'malformed' | 'too_complex' | 'no_sender',
    message: string,
  ) {
    super(message)
  }
}

/** Nested multiparts and parts beyond these make a message refused before it is parsed (a MIME bomb). */
const MAX_MULTIPARTS = 64
const MAX_PARTS = 500
const MAX_TEXT = 1_000_000
const MAX_HTML = 2_000_000
const MAX_ID = 250

/** A Message-ID without its angle brackets; ids longer than ours to store are hashed. */
export function headerId(raw: string): string | null {
  const id = raw.trim().replace(/^<|>$/g, '').trim()
  if (!id || /[\s<>]/.test(id)) return null
  return id.length > MAX_ID ? `sha256:${createHash('sha256').update(id).digest('hex')}` : id
}

const idsOf = (v: string | string[] | undefined): string[] =>
  (Array.isArray(v) ? v : v ? v.split(/\s+/) : [])
    .flatMap((x) => x.match(/<[^<>\s]+>/g) ?? [x])
    .map(headerId)
    .filter((x): x is string => x !== null)

const addresses = (v: AddressObject | AddressObject[] | undefined): string[] =>
  (Array.isArray(v) ? v : v ? [v] : [])
    .flatMap((o) => o.value.flatMap((a) => (a.group ? a.group.map((g) => g.address) : [a.address])))
    .filter((a): a is string => !!a)
    .map((a) => a.toLowerCase())

const SANITIZE: sanitizeHtml.IOptions = {
  allowedTags: [...sanitizeHtml.defaults.allowedTags, 'img'],
  allowedAttributes: { a: ['href', 'title'], img: ['src', 'alt', 'width', 'height'], td: ['colspan', 'rowspan'], th: ['colspan', 'rowspan'] },
  allowedSchemes: ['http', 'https', 'mailto', 'cid'],
  allowedSchemesByTag: { img: ['https', 'cid'] },
  allowProtocolRelative: false,
  disallowedTagsMode: 'discard',
}

export const sanitizeEmailHtml = (html: string): string => sanitizeHtml(html, SANITIZE)

/** The text of (sanitised) HTML: block ends become line breaks, tags go, entities are decoded. */
export function htmlText(html: string): string {
  const marked = html.replace(/<br\s*\/?>/gi, '\n').replace(/<\/(p|div|li|tr|h[1-6]|blockquote)>/gi, '\n')
  const text = sanitizeHtml(marked, { allowedTags: [], allowedAttributes: {}, nonTextTags: ['style', 'script', 'textarea', 'option', 'noscript', 'head', 'title'] })
  return text
    .replace(/&nbsp;/g, ' ')
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&quot;/g, '"')
    .replace(/&#39;/g, "'")
    .replace(/&amp;/g, '&')
    .replace(/[ \t]+\n/g, '\n')
    .replace(/\n{3,}/g, '\n\n')
    .trim()
}

/**
 * The new part of a reply: the quoted history that mail programs append ("On … wrote:" and the `>` lines
 * after it, Outlook's "-----Original Message-----") is cut, as agents read the thread in the inbox.
 */
export function trimQuoted(text: string): string {
  const lines = text.split(/\r?\n/)
  let cut = lines.length
  for (let i = 0; i < lines.length; i++) {
    const l = lines[i].trim()
    if (/^-{2,}\s*Original Message\s*-{2,}$/i.test(l) || /^_{10,}$/.test(l)) {
      cut = i
      break
    }
    // "On Mon, 1 Jan 2027 at 10:00, Ann <ann@x> wrote:" (possibly wrapped over two lines), then quotes.
    const intro = /^(On|Am) .+(wrote|schrieb)( .+)?:$/i.test(l) || (/^(On|Am) /i.test(l) && /(wrote|schrieb)( .+)?:$/i.test((lines[i + 1] ?? '').trim()))
    if (intro && lines.slice(i + 1).some((x) => x.startsWith('>'))) {
      cut = i
      break
    }
  }
  const kept = lines.slice(0, cut)
  while (kept.length && (kept[kept.length - 1].trim() === '' || kept[kept.length - 1].startsWith('>'))) kept.pop()
  const out = kept.join('\n').trim()
  return out || text.trim()
}

/**
 * Auto-replies and bounces by their headers (names lower-cased, raw values): RFC 3834 Auto-Submitted
 * (anything but `no`), Precedence bulk/junk/list/auto_reply, the X-Autoreply family, a multipart/report
 * (RFC 3464 DSN, RFC 8098 MDN), an empty Return-Path, or a mailer-daemon sender.
 */
export function automaticOf(headers: Record<string, string>, sender: string): ParsedEmail['automatic'] {
  const h = (name: string) => (headers[name] ?? '').trim().toLowerCase()
  if (h('content-type').startsWith('multipart/report')) return 'bounce'
  if (/^(mailer-daemon|postmaster)@/i.test(sender)) return 'bounce'
  if ('return-path' in headers && /^<\s*>$/.test(h('return-path'))) return 'bounce'
  const auto = h('auto-submitted')
  if (auto && !auto.startsWith('no')) return 'auto_reply'
  if (['bulk', 'junk', 'list', 'auto_reply'].includes(h('precedence'))) return 'auto_reply'
  if ('x-autoreply' in headers || 'x-autorespond' in headers || /\b(all|oof|autoreply)\b/.test(h('x-auto-response-suppress'))) return 'auto_reply'
  return null
}

/** The first value of each header of a parsed message, by lower-cased name (folding undone). */
const headerRecord = (p: ParsedMail): Record<string, string> => {
  const out: Record<string, string> = {}
  for (const l of p.headerLines)
    if (!(l.key in out))
      out[l.key] = l.line
        .slice(l.line.indexOf(':') + 1)
        .replace(/\r?\n[ \t]+/g, ' ')
        .trim()
  return out
}

const RETURNED = /^(message\/rfc822|text\/rfc822-headers|message\/rfc822-headers|message\/global|message\/global-headers)$/i

/**
 * The message a delivery report returns (RFC 3464: its headers in a text/rfc822-headers or message/rfc822
 * part) and why it failed (Diagnostic-Code, else Status, from the report's text).
 */
function bounceOf(p: ParsedMail, text: string): { of: string; reason: string } | null {
  for (const a of p.attachments) {
    if (!RETURNED.test(a.contentType)) continue
    const m = a.content.toString('utf8', 0, 64 * 1024).match(/^message-id:[ \t]*<([^<>\s]+)>/im)
    const of = m ? headerId(m[1]) : null
    if (!of) continue
    const reason = text.match(/^Diagnostic-Code:[ \t]*(.+)$/im)?.[1] ?? text.match(/^Status:[ \t]*([245]\.\d{1,3}\.\d{1,3})/im)?.[1] ?? 'The recipient’s mail server returned the message.'
    return { of, reason: reason.trim().slice(0, 300) }
  }
  return null
}

/** Counts the multiparts and parts of a raw message without parsing it: a bomb is refused cheaply. */
function checkStructure(raw: Buffer): void {
  const head = raw.toString('latin1')
  const multiparts = head.match(/content-type:\s*multipart\//gi)?.length ?? 0
  if (multiparts > MAX_MULTIPARTS) throw new MimeRefused('too_complex', `The message nests more than ${MAX_MULTIPARTS} multiparts.`)
  const parts = head.match(/\r?\n--[^\r\n]{1,200}\r?\n/g)?.length ?? 0
  if (parts > MAX_PARTS) throw new MimeRefused('too_complex', `The message has more than ${MAX_PARTS} parts.`)
}

export async function parseEmail(raw: Buffer, limits: EmailLimits): Promise<ParsedEmail> {
  checkStructure(raw)
  // Loaded at the first inbound mail, not at start: the parser and its encodings are ~7 MB of heap a service
  // without an e-mail channel never uses (docs/performance.md, finding 26). Outside the try: a failed load is ours, not
  // the message's.
  const { simpleParser } = await import('mailparser')
  let p: ParsedMail
  try {
    p = await simpleParser(raw, { skipHtmlToText: true, skipTextToHtml: true, skipImageLinks: true, maxHtmlLengthToParse: MAX_HTML })
  } catch (err) {
    throw new MimeRefused('malformed', `The message could not be parsed as MIME: ${(err as Error).message.slice(0, 200)}`)
  }
  const from = (p.from?.value ?? []).find((a) => a.address)
  if (!from?.address || !/^[^\s@]+@[^\s@]+$/.test(from.address) || from.address.length > 254) throw new MimeRefused('no_sender', 'The message has no From address we can answer.')
  const sender = from.address.toLowerCase()
  const html = typeof p.html === 'string' ? sanitizeEmailHtml(p.html.slice(0, MAX_HTML)) : null
  const fullText = (p.text?.trim() ? p.text : html ? htmlText(html) : '').slice(0, MAX_TEXT)
  const automatic = automaticOf(headerRecord(p), sender)
  const bounce = automatic === 'bounce' ? bounceOf(p, fullText) : null
  const attachments: EmailAttachment[] = []
  const omitted: string[] = []
  for (const a of p.attachments) {
    // Inline images of a signature are part of the HTML, not files the customer sent; a report's returned headers are read above.
    if (a.related && a.contentDisposition !== 'attachment') continue
    if (bounce && RETURNED.test(a.contentType)) continue
    const name = a.filename ? a.filename.replace(/[\r\n\\/]/g, '_').slice(0, 255) : null
    if (a.size > limits.maxAttachmentBytes || attachments.length >= limits.maxAttachments) omitted.push(`${name ?? 'attachment'} (${a.size} bytes)`)
    else attachments.push({ filename: name, contentType: /^[a-z]+\/[a-zA-Z0-9.+_-]{1,80}$/.test(a.contentType) ? a.contentType : 'application/octet-stream', content: a.content })
  }
  const recipients = [
    ...addresses(p.to),
    ...addresses(p.cc),
    ...['delivered-to', 'x-original-to'].flatMap((k) =>
      p.headerLines
        .filter((l) => l.key === k)
        .map((l) =>
          l.line
            .slice(l.line.indexOf(':') + 1)
            .trim()
            .replace(/^<|>$/g, '')
            .toLowerCase(),
        ),
    ),
  ]
  return {
    messageId: headerId(p.messageId ?? '') ?? `sha256:${createHash('sha256').update(raw).digest('hex')}`,
    from: { address: sender, name: from.name ? from.name.slice(0, 200) : null },
    recipients: [...new Set(recipients)],
    subject: (p.subject ?? '').replace(/[\r\n]+/g, ' ').slice(0, 500),
    text: trimQuoted(fullText),
    html,
    inReplyTo: idsOf(p.inReplyTo)[0] ?? null,
    references: idsOf(p.references).slice(-50),
    automatic,
    bounce,
    attachments,
    omitted,
  }
}

/** A message a provider already parsed (Postmark's JSON, SendGrid's and Mailgun's parsed forms), read as ours. */
export function emailOfFields(
  f: {
    headers: Record<string, string>
    from: string
    fromName: string | null
    recipients: string[]
    subject: string
    text: string | null
    html: string | null
    attachments: { filename: string | null; contentType: string; content: Buffer }[]
    fallbackId: string
  },
  limits: EmailLimits,
): ParsedEmail {
  const parsedFrom = f.from.match(/<([^<>\s]+@[^<>\s]+)>/)?.[1] ?? f.from.trim()
  if (!/^[^\s@<>]+@[^\s@<>]+$/.test(parsedFrom) || parsedFrom.length > 254) throw new MimeRefused('no_sender', 'The message has no From address we can answer.')
  const sender = parsedFrom.toLowerCase()
  const html = f.html ? sanitizeEmailHtml(f.html.slice(0, MAX_HTML)) : null
  const attachments: EmailAttachment[] = []
  const omitted: string[] = []
  for (const a of f.attachments) {
    const name = a.filename ? a.filename.replace(/[\r\n\\/]/g, '_').slice(0, 255) : null
    if (a.content.length > limits.maxAttachmentBytes || attachments.length >= limits.maxAttachments) omitted.push(`${name ?? 'attachment'} (${a.content.length} bytes)`)
    else attachments.push({ filename: name, contentType: /^[a-z]+\/[a-zA-Z0-9.+_-]{1,80}$/.test(a.contentType) ? a.contentType : 'application/octet-stream', content: a.content })
  }
  return {
    messageId: headerId(f.headers['message-id'] ?? '') ?? f.fallbackId,
    from: { address: sender, name: f.fromName ? f.fromName.slice(0, 200) : null },
    recipients: [...new Set(f.recipients.map((r) => (r.match(/<([^<>\s]+)>/)?.[1] ?? r).trim().toLowerCase()).filter(Boolean))],
    subject: f.subject.replace(/[\r\n]+/g, ' ').slice(0, 500),
    text: trimQuoted((f.text?.trim() ? f.text : html ? htmlText(html) : '').slice(0, MAX_TEXT)),
    html,
    inReplyTo: idsOf(f.headers['in-reply-to'])[0] ?? null,
    references: idsOf(f.headers.references).slice(-50),
    automatic: automaticOf(f.headers, sender),
    bounce: null,
    attachments,
    omitted,
  }
}
