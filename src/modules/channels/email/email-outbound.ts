import type nodemailerTypes from 'nodemailer'
import { checkOutboundUrl, OutboundUrlRefused } from '../../../kernel/outbound/address-policy.js'
import type { Kernel } from '../../../kernel/kernel.js'
import type { Tenant } from '../../../kernel/tenant.js'
import type { ChannelDeliveriesTable, ChannelsTable } from '../channels.tables.js'
import * as emails from './email.repository.js'
import { replyAttachments, type MailAttachment, type ReplyAttachment } from './email-attachments.js'
import { replyAddress, type EmailInboundService } from './email-inbound.service.js'
import type { ChannelEmailsTable } from './email.tables.js'

/** One reply as it goes out: threading headers made from the conversation's thread. */
export interface OutboundEmail {
  from: { name: string; address: string }
  to: string
  replyTo: string
  subject: string
  text: string
  html: string
  messageId: string
  inReplyTo: string | null
  references: string[]
  /** A bot's answer: `Auto-Submitted: auto-replied` (RFC 3834), so that auto-responders stay quiet. */
  automatic: boolean
  /** The reply's files as MIME parts (those that could not go are links in the text). */
  attachments: MailAttachment[]
}

/** A relay to send through: host and port as configured, the address the policy checked, credentials opened. */
export interface Relay {
  host: string
  port: number
  secure: boolean
  user: string | null
  password: string | null
}

export type SendOutcome =
  | { kind: 'sent'; sid: string }
  /** Refused before the message was taken (4xx, no connection): nothing was sent, try again later. */
  | { kind: 'retry'; code: string; message: string }
  /** Refused for good (5xx, auth, the address policy). */
  | { kind: 'failed'; code: string; message: string }
  /** The connection broke while the message was being handed over: it may have been taken. */
  | { kind: 'unknown'; message: string }

/** The simulated provider's sends (offline: the sandbox, tests, demos), newest last, at most 1,000 per process; files by name, type and size only. */
export const simulatedOutbox: (Omit<OutboundEmail, 'attachments'> & { attachments: { filename: string; contentType: string; size: number }[] })[] = []

const escapeHtml = (s: string) => s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;')

/** Plain text as simple HTML: paragraphs, line breaks, http(s) links made clickable. */
export function textToHtml(text: string): string {
  const para = (p: string) =>
    `<p>${escapeHtml(p)
      .replace(/(https?:\/\/[^\s<&]+)/g, '<a href="$1">$1</a>')
      .replace(/\n/g, '<br>')}</p>`
  return `<!doctype html><html><body>${text
    .split(/\n{2,}/)
    .map(para)
    .join('')}</body></html>`
}

export const replySubject = (subject: string) => (/^\s*(re|aw|sv)\s*:/i.test(subject) ? subject : `Re: ${subject || 'Your message'}`)

/** The relay of EMAIL_RELAY_URL (`smtp://user:pass@host:587`, `smtps://host:465`). */
export function relayOfUrl(raw: string): Relay {
  const u = new URL(raw)
  if (u.protocol !== 'smtp:' && u.protocol !== 'smtps:') throw new Error('EMAIL_RELAY_URL must be smtp:// or smtps://')
  const secure = u.protocol === 'smtps:'
  return {
    host: u.hostname.replace(/^\[(.*)\]$/, '$1'),
    port: Number(u.port) || (secure ? 465 : 587),
    secure,
    user: u.username ? decodeURIComponent(u.username) : null,
    password: u.password ? decodeURIComponent(u.password) : null,
  }
}

/** Checks a relay host against the kernel's outbound address policy; returns the address to connect to. */
export async function checkRelay(k: Kernel, relay: Pick<Relay, 'host' | 'port'>): Promise<string> {
  const host = relay.host.includes(':') ? `[${relay.host}]` : relay.host
  const { addresses } = await checkOutboundUrl(`smtp://${host}:${relay.port}`, { allowPrivateNetworks: k.config.outbound.allowPrivateNetworks, allowedSchemes: ['smtp'] })
  return addresses[0]
}

/**
 * Sends one reply through SMTP with nodemailer. The relay's host passes the outbound address policy on
 * every send and the connection goes to the address checked (TLS still verifies the host's name), so a
 * name cannot point at an internal address between the check and the connection.
 */
export async function sendSmtp(k: Kernel, relay: Relay, mail: OutboundEmail): Promise<SendOutcome> {
  let address: string
  try {
    address = await checkRelay(k, relay)
  } catch (err) {
    if (err instanceof OutboundUrlRefused)
      return err.reason === 'unresolvable'
        ? { kind: 'retry', code: 'relay_unresolvable', message: err.message }
        : { kind: 'failed', code: 'relay_refused', message: `The relay is not an allowed destination: ${err.message}` }
    throw err
  }
  // Loaded at the first send, not at start (~3 MB of heap; finding 26).
  const nodemailer: typeof nodemailerTypes = (await import('nodemailer')).default
  const transport = nodemailer.createTransport({
    host: address,
    port: relay.port,
    secure: relay.secure,
    name: k.config.email.hostname,
    tls: { servername: relay.host },
    ...(relay.user ? { auth: { user: relay.user, pass: relay.password ?? '' } } : {}),
    connectionTimeout: 15_000,
    greetingTimeout: 15_000,
    socketTimeout: 60_000,
    disableFileAccess: true,
    disableUrlAccess: true,
  })
  try {
    const info = await transport.sendMail({
      from: { name: mail.from.name, address: mail.from.address },
      to: mail.to,
      replyTo: mail.replyTo,
      subject: mail.subject,
      text: mail.text,
      html: mail.html,
      messageId: `<${mail.messageId}>`,
      ...(mail.inReplyTo ? { inReplyTo: `<${mail.inReplyTo}>` } : {}),
      ...(mail.references.length ? { references: mail.references.map((r) => `<${r}>`) } : {}),
      headers: mail.automatic ? { 'Auto-Submitted': 'auto-replied' } : {},
      attachments: mail.attachments.map((a) => ({ filename: a.filename, contentType: a.contentType, content: a.content, contentDisposition: 'attachment' as const })),
    })
    if (info.rejected.length > 0 && info.accepted.length === 0) return { kind: 'failed', code: 'smtp_rejected', message: `The relay refused ${mail.to}.` }
    return { kind: 'sent', sid: mail.messageId }
  } catch (err) {
    return outcomeOf(err as Error & { code?: string; responseCode?: number; command?: string; response?: string })
  } finally {
    transport.close()
  }
}

/** Before DATA's final answer nothing was taken; after the message was handed over, the outcome is unknown. */
function outcomeOf(err: Error & { code?: string; responseCode?: number; command?: string; response?: string }): SendOutcome {
  const text = (err.response ?? err.message).slice(0, 500)
  const rc = err.responseCode
  if (rc && rc >= 400 && rc < 500) return { kind: 'retry', code: `smtp_${rc}`, message: text }
  if (rc && rc >= 500) return { kind: 'failed', code: err.code === 'EAUTH' ? 'smtp_auth' : `smtp_${rc}`, message: text }
  const before = ['CONN', 'EHLO', 'HELO', 'STARTTLS', 'AUTH', 'AUTH PLAIN', 'AUTH LOGIN', 'MAIL FROM', 'RCPT TO'].includes(err.command ?? '')
  if (err.code === 'EAUTH') return { kind: 'failed', code: 'smtp_auth', message: text }
  if (before || ['ECONNECTION', 'EDNS', 'ETLS', 'EENVELOPE'].includes(err.code ?? '')) return { kind: 'retry', code: 'smtp_connection', message: text }
  return { kind: 'unknown', message: text }
}

/**
 * The reply of a delivery as an email, from the thread's state; null when the conversation has no email
 * thread. The first mail of a thread an agent started (nothing exchanged yet) takes the subject as it is and
 * no In-Reply-To; later ones answer the thread's newest Message-ID.
 */
export async function composeReply(
  k: Kernel,
  tenant: Tenant,
  inbound: EmailInboundService,
  email: ChannelEmailsTable,
  channel: ChannelsTable,
  d: ChannelDeliveriesTable,
  message: { conversation_id: string; content: string; author: { type: string }; attachments: ReplyAttachment[] },
): Promise<OutboundEmail | null> {
  const thread = await emails.findEmailConversation(k.db, tenant, message.conversation_id)
  if (!thread) return null
  const { files, links } = await replyAttachments(k, tenant, inbound, message.attachments)
  const text = links.length ? `${message.content}\n\n${links.map((l) => `${l.filename}: ${l.url}`).join('\n')}` : message.content
  const first = thread.last_header_id === null
  return {
    from: { name: email.from_name ?? channel.name, address: email.address },
    to: d.to_phone,
    replyTo: replyAddress(email.address, thread.reply_token),
    subject: first ? thread.subject || `Message from ${email.from_name ?? channel.name}` : replySubject(thread.subject),
    text,
    html: textToHtml(text),
    messageId: messageIdOf(k, d.message_id),
    inReplyTo: thread.last_header_id,
    references: thread.references_ids.split(' ').filter(Boolean),
    automatic: message.author.type === 'bot',
    attachments: files,
  }
}

/** Our Message-ID for an inbox message: the same on every attempt, so a receiver can tell a repeat. */
export const messageIdOf = (k: Kernel, messageId: string) => `${messageId.toLowerCase()}@${k.config.email.hostname}`
