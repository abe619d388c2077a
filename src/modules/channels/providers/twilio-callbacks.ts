import type { FastifyInstance, FastifyRequest } from 'fastify'
import { AppError } from '../../../kernel/errors.js'
import type { Kernel } from '../../../kernel/kernel.js'
import type { Services } from '../../../kernel/services.js'
import { twilioParams, verifyTwilioSignature, type TwilioParams } from '../../../kernel/twilio/signature.js'
import * as repo from '../channels.repository.js'
import type { ChannelsTable } from '../channels.tables.js'
import { deliveryStatusOf } from './provider.types.js'
import { mediaKey, TwilioMediaStore } from './twilio-media.js'

/** A webhook form is a few hundred bytes; Twilio sends at most 10 media URLs and 1,600 characters of text. */
const BODY_LIMIT = 64 * 1024
const MAX_MEDIA = 10
const SID = /^[A-Z]{2}[0-9a-fA-F]{32}$/
const E164 = /^\+[1-9][0-9]{6,14}$/

const one = (p: TwilioParams, name: string): string => {
  const v = p[name]
  return (Array.isArray(v) ? v[0] : v) ?? ''
}
const bad = (detail: string) => new AppError('bad_request', detail)

/**
 * Twilio Messaging's requests to a channel, each verified with X-Twilio-Signature of the channel's auth
 * token over our public URL and the form (403 `channel_signature_invalid` otherwise — also for a channel
 * we do not have, so that unsigned requests cannot tell which ids exist):
 * - POST /channels/{id}/twilio/messages — a customer's message: into the inbox (once per MessageSid),
 *   answered with empty TwiML (we reply later, through the REST API);
 * - POST /channels/{id}/twilio/status — a sent message's progress: its delivery state;
 * - GET /channels/{id}/twilio/media/{folder}/{index}?sig=… — a customer's media as we stored it (a link
 *   the service signed; anything else is 404).
 */
export function twilioMessagingCallbacks(k: Kernel, services: Services) {
  return async (app: FastifyInstance) => {
    app.addContentTypeParser('application/x-www-form-urlencoded', { parseAs: 'string', bodyLimit: BODY_LIMIT }, (_req, body, done) => done(null, twilioParams(new URLSearchParams(String(body)))))
    const mediaStore = new TwilioMediaStore(k)
    const refused = () => new AppError('channel_signature_invalid', 'The X-Twilio-Signature header does not verify with the channel’s auth token.')

    /** The channel named in the path whose token verifies the request's signature, or 403. */
    const verified = async (request: FastifyRequest): Promise<{ channel: ChannelsTable; params: TwilioParams }> => {
      const params = (request.body ?? {}) as TwilioParams
      const { id } = request.params as { id: string }
      const channel = id.length <= 64 ? await repo.findChannelAnywhere(k.db, id) : undefined
      const token = channel ? services.channels.channels.authToken(channel) : null
      if (!channel || !token || !verifyTwilioSignature(token, `${k.config.publicUrl}${request.url}`, params, request.headers['x-twilio-signature'])) throw refused()
      // Signed by another account's token that happens to match is impossible; a different AccountSid means a misconfigured number.
      const account = one(params, 'AccountSid')
      if (channel.account_sid && account && account !== channel.account_sid) throw refused()
      return { channel, params }
    }
    const phoneOf = (raw: string, field: string): string => {
      const phone = raw.replace(/^whatsapp:/, '')
      if (!E164.test(phone)) throw bad(`${field} is not an E.164 number (whatsapp: prefix allowed).`)
      return phone
    }

    app.post('/channels/:id/twilio/messages', async (request, reply) => {
      const { channel, params } = await verified(request)
      const sid = one(params, 'MessageSid') || one(params, 'SmsMessageSid')
      if (!SID.test(sid)) throw bad('MessageSid is missing or not a Twilio sid.')
      const count = Math.min(Number(one(params, 'NumMedia')) || 0, MAX_MEDIA)
      const media: { url: string; content_type: string | null }[] = []
      for (let i = 0; i < count; i++) {
        const url = one(params, `MediaUrl${i}`)
        if (!/^https?:\/\//.test(url) || url.length > 2048) throw bad(`MediaUrl${i} is not an http(s) URL of at most 2048 characters.`)
        media.push({ url, content_type: one(params, `MediaContentType${i}`).slice(0, 100) || null })
      }
      const from = phoneOf(one(params, 'From'), 'From')
      let kept: typeof media = media
      let notes: string[] = []
      let folder: string | null = null
      // Fetched before the transaction (a retry of a message we have is not fetched again); never a reason to refuse the message.
      const token = services.channels.channels.authToken(channel)
      if (
        media.length &&
        channel.provider === 'twilio' &&
        token &&
        channel.account_sid &&
        channel.base_url &&
        !(await repo.findReceipt(k.db, { workspaceId: channel.workspace_id, mode: channel.mode }, channel.id, sid))
      ) {
        ;({ media: kept, notes, folder } = await mediaStore.keep(channel, { account_sid: channel.account_sid, auth_token: token, base_url: channel.base_url }, sid, from, media))
      }
      const body = [one(params, 'Body'), ...notes].filter((x) => x !== '').join('\n')
      const stored = folder ? { folder, links: media } : undefined
      await services.channels.inbound.receive(channel, { sid, from, body, media: kept, stored, optOutType: one(params, 'OptOutType') || null })
      return reply.type('text/xml').send('<?xml version="1.0" encoding="UTF-8"?><Response/>')
    })

    app.get('/channels/:id/twilio/media/:folder/:index', async (request, reply) => {
      const { id, folder, index } = request.params as { id: string; folder: string; index: string }
      const { sig } = request.query as { sig?: unknown }
      const path = `/channels/${id}/twilio/media/${folder}/${index}`
      const gone = () => new AppError('resource_not_found', 'No such media.')
      if (id.length > 64 || !/^[0-9a-f]{32}$/.test(folder) || !/^\d$/.test(index) || typeof sig !== 'string' || !mediaStore.signed(path, sig)) throw gone()
      const key = mediaKey(id, folder, Number(index))
      const stat = await k.blobs.stat(key)
      if (!stat) throw gone()
      // Never run as a page of this origin, never read as another type.
      return reply
        .header('content-type', stat.contentType)
        .header('content-length', String(stat.size))
        .header('content-disposition', stat.contentType.startsWith('image/') ? 'inline' : 'attachment')
        .header('x-content-type-options', 'nosniff')
        .header('content-security-policy', "default-src 'none'; sandbox")
        .header('cache-control', 'private, max-age=3600')
        .send(k.blobs.read(key))
    })

    app.post('/channels/:id/twilio/status', async (request, reply) => {
      const { channel, params } = await verified(request)
      const sid = one(params, 'MessageSid') || one(params, 'SmsSid')
      if (!SID.test(sid)) throw bad('MessageSid is missing or not a Twilio sid.')
      const status = deliveryStatusOf(one(params, 'MessageStatus') || one(params, 'SmsStatus'))
      if (!status) throw bad('MessageStatus is missing or not one Twilio reports.')
      const { message } = request.query as { message?: string }
      const code = one(params, 'ErrorCode')
      await services.channels.outbound.applyStatus(channel, typeof message === 'string' ? message.slice(0, 64) : null, sid, status, {
        code: code ? code.slice(0, 20) : null,
        message: one(params, 'ErrorMessage').slice(0, 500) || null,
      })
      return reply.code(204).send()
    })
  }
}
