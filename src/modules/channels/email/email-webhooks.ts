import { createHash, createHmac, timingSafeEqual } from 'node:crypto'
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify'
import { AppError } from '../../../kernel/errors.js'
import { registerMultipart } from '../../../kernel/http/multipart.js'
import type { Kernel } from '../../../kernel/kernel.js'
import type { Services } from '../../../kernel/services.js'
import * as repo from '../channels.repository.js'
import type { ChannelsTable } from '../channels.tables.js'
import { attachmentKey, type EmailRoute } from './email-inbound.service.js'
import * as emails from './email.repository.js'
import { mailgunKey, webhookPassword } from './email.settings.js'
import type { ChannelEmailsTable } from './email.tables.js'
import { emailOfFields, MimeRefused, type ParsedEmail } from './mime.js'
import { deliveryOfEvent, freshTimestamp, SIGNATURE_HEADER, sendgridSigned, TIMESTAMP_HEADER } from './sendgrid.js'
import { formOf, header, readRaw, type Form } from './webhook-bodies.js'

/** Mailgun's signature is fresh for this long (its token and timestamp are in every request). */
const MAILGUN_TOLERANCE_MS = 15 * 60_000
const MAX_HEADERS = 500
const MAX_FILES = 20
/** SendGrid batches events, a few hundred at most per post: this bounds the work of one post. */
const EVENTS_BODY_LIMIT = 5 * 1024 * 1024

const bad = (detail: string) => new AppError('bad_request', detail)
const unauthorized = (challenge: string | null = null) =>
  new AppError(
    'channel_webhook_unauthorized',
    'The request does not carry the channel’s webhook credentials (basic auth, or the provider’s signature).',
    challenge ? { headers: { 'WWW-Authenticate': challenge } } : {},
  )
const same = (a: string, b: string) => {
  const x = createHash('sha256').update(a).digest()
  const y = createHash('sha256').update(b).digest()
  return timingSafeEqual(x, y)
}
const str = (v: unknown, max = 100_000): string => (typeof v === 'string' ? v.slice(0, max) : '')

/**
 * The inbound webhooks of the common email providers, for one channel (`/channels/{id}/email/…`, outside
 * the API's base URLs; no API key — each is verified as its provider documents):
 * - Postmark inbound (JSON): HTTP basic auth in the URL, password = the channel's webhook_password;
 * - SendGrid Inbound Parse (multipart; raw MIME or parsed fields): HTTP basic auth the same way — Inbound
 *   Parse signs nothing, SendGrid's advice is credentials in the URL;
 * - Mailgun routes (`forward()`, multipart or form; parsed or `body-mime`): HMAC-SHA256 of timestamp +
 *   token with the signing key, compared with `signature`, and the timestamp within 15 minutes.
 * Basic auth is checked before the body is read. A wrong credential, a channel we do not have and a
 * channel that is not email all answer 401 alike. The mail is acknowledged (200) only after it committed;
 * a retry of the same Message-ID writes nothing.
 */
export function emailCallbacks(k: Kernel, services: Services) {
  const limit = k.config.email.maxMessageBytes
  // Base64 in JSON, and a form's boundaries, make the body larger than the message.
  const bodyLimit = Math.ceil(limit * 1.4) + 1024 * 1024
  return async (app: FastifyInstance) => {
    await registerMultipart(app)
    app.addContentTypeParser('application/x-www-form-urlencoded', { parseAs: 'string', bodyLimit }, (_req, body, done) => done(null, Object.fromEntries(new URLSearchParams(String(body)))))

    const channelOf = async (request: FastifyRequest): Promise<{ channel: ChannelsTable; email: ChannelEmailsTable } | null> => {
      const { id } = request.params as { id: string }
      if (id.length > 64) return null
      const channel = await repo.findChannelAnywhere(k.db, id)
      if (!channel || channel.type !== 'email') return null
      const email = await emails.findEmail(k.db, { workspaceId: channel.workspace_id, mode: channel.mode }, channel.id)
      return email ? { channel, email } : null
    }

    /** Basic auth (any user; the password is the channel's webhook_password), before the body is read. */
    const basicAuth = async (request: FastifyRequest) => {
      const found = await channelOf(request)
      const password = found ? webhookPassword(k, found.email) : null
      const header = request.headers.authorization ?? ''
      const given = header.startsWith('Basic ') ? Buffer.from(header.slice(6), 'base64').toString('utf8') : ''
      const colon = given.indexOf(':')
      if (!found || !password || colon < 0 || !same(given.slice(colon + 1), password)) throw unauthorized('Basic realm="inbound email"')
      ;(request as FastifyRequest & { emailChannel?: typeof found }).emailChannel = found
    }

    const receive = async (found: { channel: ChannelsTable; email: ChannelEmailsTable }, mail: ParsedEmail) => {
      const route: EmailRoute = { ...found, conversationId: null }
      // A reply address (+token) among the recipients threads the mail into its conversation.
      const viaToken = await services.channels.email.inbound.routeAny(mail.recipients)
      if (viaToken && viaToken.channel.id === found.channel.id) route.conversationId = viaToken.conversationId
      return services.channels.email.inbound.receive(route, mail)
    }
    const parseRaw = async (raw: string | Buffer) => {
      try {
        return await services.channels.email.inbound.parse(Buffer.isBuffer(raw) ? raw : Buffer.from(raw, 'utf8'))
      } catch (err) {
        if (err instanceof MimeRefused) throw new AppError('bad_request', err.message)
        throw err
      }
    }
    const fields = (f: Parameters<typeof emailOfFields>[0]) => {
      try {
        return emailOfFields(f, services.channels.email.inbound.limits())
      } catch (err) {
        if (err instanceof MimeRefused) throw new AppError('bad_request', err.message)
        throw err
      }
    }
    const readForm = async (request: FastifyRequest): Promise<Form> => {
      if (!request.isMultipart()) return { fields: (request.body ?? {}) as Record<string, string>, files: [] }
      const form: Form = { fields: Object.create(null), files: [] }
      let total = 0
      try {
        for await (const part of request.parts({ limits: { fileSize: limit, files: MAX_FILES, fields: 80, fieldSize: limit, parts: 100 } })) {
          if (part.type === 'file') {
            const content = await part.toBuffer()
            total += content.length
            form.files.push({ field: part.fieldname, filename: part.filename || null, contentType: part.mimetype, content })
          } else {
            if (part.valueTruncated) throw new AppError('payload_too_large', `The form field "${part.fieldname}" exceeds ${limit} bytes.`)
            const value = typeof part.value === 'string' ? part.value : String(part.value)
            total += value.length
            form.fields[part.fieldname] = value
          }
          if (total > bodyLimit) throw new AppError('payload_too_large', `The message exceeds ${limit} bytes.`)
        }
      } catch (err) {
        if (err instanceof AppError) throw err
        const code = (err as { code?: string }).code ?? ''
        if (/LIMIT|TOO_LARGE/.test(code)) throw new AppError('payload_too_large', `The message exceeds the limits (${limit} bytes, ${MAX_FILES} files).`)
        throw bad(`The multipart/form-data body could not be read: ${(err as Error).message.slice(0, 200)}`)
      }
      return form
    }
    /** The raw form, read within the limit, verified, then parsed (multipart/form-data, as SendGrid posts). */
    const signedForm = async (request: FastifyRequest, signed: NonNullable<SignedRequest['sendgridSignature']>): Promise<Form> => {
      if (!request.isMultipart()) throw bad('SendGrid Inbound Parse posts multipart/form-data.')
      const raw = await readRaw(request, bodyLimit)
      if (!sendgridSigned(signed.key, signed.timestamp, raw, signed.signature)) throw unauthorized('Signature realm="sendgrid"')
      return formOf(raw, String(request.headers['content-type']))
    }
    const ok = (reply: FastifyReply, r: { duplicate: boolean; messageId: string | null }) => reply.code(200).send({ received: true, duplicate: r.duplicate, message_id: r.messageId })

    app.post('/channels/:id/email/postmark', { bodyLimit, onRequest: basicAuth }, async (request, reply) => {
      const found = (request as FastifyRequest & { emailChannel?: { channel: ChannelsTable; email: ChannelEmailsTable } }).emailChannel!
      const b = request.body as Record<string, unknown> | null
      if (!b || typeof b !== 'object' || Array.isArray(b)) throw bad('Postmark posts a JSON object.')
      const headerList = Array.isArray(b.Headers) ? b.Headers.slice(0, MAX_HEADERS) : []
      const headers: Record<string, string> = {}
      for (const h of headerList as { Name?: unknown; Value?: unknown }[]) {
        const name = str(h?.Name, 200).toLowerCase()
        if (name && !(name in headers)) headers[name] = str(h?.Value, 10_000)
      }
      const fromFull = (b.FromFull ?? {}) as { Email?: unknown; Name?: unknown }
      const toFull = (Array.isArray(b.ToFull) ? b.ToFull : []).concat(Array.isArray(b.CcFull) ? b.CcFull : []).slice(0, 100) as { Email?: unknown }[]
      const attachments = (Array.isArray(b.Attachments) ? b.Attachments.slice(0, MAX_FILES * 2) : []) as { Name?: unknown; Content?: unknown; ContentType?: unknown }[]
      const mail = fields({
        headers,
        from: str(fromFull.Email, 300) || str(b.From, 300),
        fromName: str(fromFull.Name, 200) || null,
        recipients: [...toFull.map((t) => str(t?.Email, 300)), str(b.OriginalRecipient, 300)],
        subject: str(b.Subject, 1000),
        text: str(b.TextBody, 2_000_000) || null,
        html: str(b.HtmlBody, 4_000_000) || null,
        attachments: attachments.map((a) => ({ filename: str(a?.Name, 255) || null, contentType: str(a?.ContentType, 100), content: Buffer.from(str(a?.Content, bodyLimit), 'base64') })),
        fallbackId: `postmark:${str(b.MessageID, 100) || createHash('sha256').update(JSON.stringify(b)).digest('hex')}`,
      })
      return ok(reply, await receive(found, mail))
    })

    /**
     * SendGrid Inbound Parse: signed (a security policy's ECDSA signature) when the channel has its
     * verification key — the headers are checked before the body is read, the signature over the raw body
     * before it is parsed — else basic auth as for Postmark.
     */
    const sendgridAuth = async (request: FastifyRequest) => {
      const found = await channelOf(request)
      if (!found?.email.sendgrid_parse_key) return basicAuth(request)
      const timestamp = header(request, TIMESTAMP_HEADER)
      const signature = header(request, SIGNATURE_HEADER)
      if (!signature || !freshTimestamp(timestamp, k.clock.now().getTime())) throw unauthorized('Signature realm="sendgrid"')
      ;(request as SignedRequest).emailChannel = found
      ;(request as SignedRequest).sendgridSignature = { key: found.email.sendgrid_parse_key, timestamp, signature }
    }

    app.post('/channels/:id/email/sendgrid', { bodyLimit, onRequest: sendgridAuth }, async (request, reply) => {
      const found = (request as SignedRequest).emailChannel!
      const signed = (request as SignedRequest).sendgridSignature
      const form = signed ? await signedForm(request, signed) : await readForm(request)
      const f = form.fields
      // "POST the raw, full MIME message": one `email` field.
      if (f.email) return ok(reply, await receive(found, await parseRaw(f.email)))
      const headers = headerBlock(f.headers ?? '')
      let envelopeTo: string[] = []
      try {
        const env = JSON.parse(f.envelope ?? '{}') as { to?: unknown }
        if (Array.isArray(env.to)) envelopeTo = env.to.filter((x): x is string => typeof x === 'string').slice(0, 50)
      } catch {
        throw bad('The envelope field is not JSON.')
      }
      const mail = fields({
        headers,
        from: f.from ?? headers.from ?? '',
        fromName: (f.from ?? '').match(/^\s*"?([^"<]+?)"?\s*</)?.[1] ?? null,
        recipients: [...splitList(f.to), ...splitList(f.cc), ...envelopeTo],
        subject: f.subject ?? '',
        text: f.text ?? null,
        html: f.html ?? null,
        attachments: form.files.map((x) => ({ filename: x.filename, contentType: x.contentType, content: x.content })),
        fallbackId: `sha256:${createHash('sha256')
          .update(`${f.headers ?? ''}\n${f.text ?? ''}\n${f.html ?? ''}`)
          .digest('hex')}`,
      })
      return ok(reply, await receive(found, mail))
    })

    app.post('/channels/:id/email/mailgun', { bodyLimit }, async (request, reply) => {
      const found = await channelOf(request)
      const key = found ? mailgunKey(k, found.email) : null
      const form = await readForm(request)
      const f = form.fields
      const timestamp = f.timestamp ?? ''
      const token = f.token ?? ''
      const signature = f.signature ?? ''
      const fresh = /^\d{1,12}$/.test(timestamp) && Math.abs(k.clock.now().getTime() - Number(timestamp) * 1000) <= MAILGUN_TOLERANCE_MS
      const expected = key
        ? createHmac('sha256', key)
            .update(timestamp + token)
            .digest('hex')
        : ''
      if (!found || !key || !fresh || !token || !/^[0-9a-f]{64}$/.test(signature) || !same(signature, expected)) throw unauthorized('Signature realm="mailgun"')
      if (f['body-mime']) return ok(reply, await receive(found, await parseRaw(f['body-mime'])))
      let headers: Record<string, string> = {}
      try {
        const list = JSON.parse(f['message-headers'] ?? '[]') as unknown
        if (Array.isArray(list))
          headers = Object.fromEntries(
            list
              .slice(0, MAX_HEADERS)
              .filter((p): p is [string, string] => Array.isArray(p) && typeof p[0] === 'string' && typeof p[1] === 'string')
              .reverse()
              .map(([n, v]) => [n.toLowerCase(), v]),
          )
      } catch {
        throw bad('message-headers is not JSON.')
      }
      const mail = fields({
        headers,
        from: f.from ?? f.sender ?? '',
        fromName: (f.from ?? '').match(/^\s*"?([^"<]+?)"?\s*</)?.[1] ?? null,
        recipients: [...splitList(f.recipient), ...splitList(f.To ?? headers.to)],
        subject: f.subject ?? '',
        text: f['body-plain'] ?? null,
        html: f['body-html'] ?? null,
        attachments: form.files.filter((x) => /^attachment-\d+$/.test(x.field)).map((x) => ({ filename: x.filename, contentType: x.contentType, content: x.content })),
        fallbackId: `mailgun:${createHash('sha256').update(token).digest('hex').slice(0, 40)}`,
      })
      return ok(reply, await receive(found, mail))
    })

    // SendGrid's Event Webhook: JSON signed over its exact bytes, so its route (in its own scope) reads the body as bytes.
    await app.register(async (scope) => {
      scope.removeContentTypeParser('application/json')
      scope.addContentTypeParser('application/json', { parseAs: 'buffer', bodyLimit: EVENTS_BODY_LIMIT }, (_req, body, done) => done(null, body))
      const eventsAuth = async (request: FastifyRequest) => {
        const found = await channelOf(request)
        const timestamp = header(request, TIMESTAMP_HEADER)
        if (!found?.email.sendgrid_events_key || !header(request, SIGNATURE_HEADER) || !freshTimestamp(timestamp, k.clock.now().getTime())) throw unauthorized('Signature realm="sendgrid"')
        ;(request as SignedRequest).emailChannel = found
      }
      scope.post('/channels/:id/email/sendgrid/events', { bodyLimit: EVENTS_BODY_LIMIT, onRequest: eventsAuth }, async (request, reply) => {
        const found = (request as SignedRequest).emailChannel!
        const raw = request.body
        if (!Buffer.isBuffer(raw)) throw bad('SendGrid posts its events as application/json.')
        if (!sendgridSigned(found.email.sendgrid_events_key!, header(request, TIMESTAMP_HEADER), raw, header(request, SIGNATURE_HEADER))) throw unauthorized('Signature realm="sendgrid"')
        let list: unknown
        try {
          list = JSON.parse(raw.toString('utf8'))
        } catch {
          throw bad('The body is not JSON.')
        }
        if (!Array.isArray(list)) throw bad('SendGrid posts an array of events.')
        for (const e of list as Record<string, unknown>[]) {
          const change = deliveryOfEvent(e)
          if (change) await services.channels.outbound.applyStatus(found.channel, null, change.sid, change.status, change.error)
        }
        return reply.code(200).send({ received: list.length })
      })
    })

    /** An attachment of an inbound email: a link the service signed when it stored the file. */
    app.get('/channels/:id/email/attachments/:folder/:index', async (request, reply) => {
      const { id, folder, index } = request.params as { id: string; folder: string; index: string }
      const { sig } = request.query as { sig?: string }
      const path = `/channels/${id}/email/attachments/${folder}/${index}`
      if (!/^[0-9a-f]{32}$/.test(folder) || !/^\d{1,2}$/.test(index) || typeof sig !== 'string' || !services.channels.email.inbound.attachmentSigned(path, sig))
        throw new AppError('resource_not_found', 'No such attachment.')
      const key = attachmentKey(id, folder, Number(index))
      const stat = await k.blobs.stat(key)
      if (!stat) throw new AppError('resource_not_found', 'No such attachment (it was erased).')
      return reply
        .header('content-type', stat.contentType)
        .header('content-length', String(stat.size))
        .header('content-disposition', 'attachment')
        .header('x-content-type-options', 'nosniff')
        .send(k.blobs.read(key))
    })
  }
}

interface SignedRequest extends FastifyRequest {
  emailChannel?: { channel: ChannelsTable; email: ChannelEmailsTable }
  sendgridSignature?: { key: string; timestamp: string; signature: string }
}

/** A raw header block (SendGrid's `headers`) as first values by lower-cased name, folded lines joined. */
function headerBlock(raw: string): Record<string, string> {
  const out: Record<string, string> = {}
  const lines = raw
    .replace(/\r?\n[ \t]+/g, ' ')
    .split(/\r?\n/)
    .slice(0, MAX_HEADERS)
  for (const line of lines) {
    const colon = line.indexOf(':')
    if (colon < 1) continue
    const name = line.slice(0, colon).trim().toLowerCase()
    if (!(name in out))
      out[name] = line
        .slice(colon + 1)
        .trim()
        .slice(0, 10_000)
  }
  return out
}

const splitList = (v: string | undefined): string[] =>
  v
    ? v
        .split(',')
        .map((x) => x.trim())
        .filter(Boolean)
        .slice(0, 50)
    : []
