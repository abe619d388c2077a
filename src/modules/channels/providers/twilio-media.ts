import { createHash, createHmac, randomBytes, timingSafeEqual } from 'node:crypto'
import { request } from 'undici'
import { iso } from '../../../kernel/clock.js'
import type { Kernel } from '../../../kernel/kernel.js'
import { policyAgent } from '../../../kernel/outbound/policy-agent.js'
import { CarrierError, checkTwilioUrl, isRedirect } from '../../../kernel/twilio/http.js'
import type { ChannelsTable } from '../channels.tables.js'
import { sniff } from '../web-chat/web-chat.service.js'
import { deletePendingMedia, insertPendingMedia, type TwilioReceipt } from './messaging.repository.js'
import type { TwilioAccount } from './twilio-messaging.adapter.js'

// A customer's MMS / WhatsApp media, fetched from Twilio into the blob store before the message's
// transaction, so the inbox links to our copy: Twilio's URLs need the account's credentials (when the
// account enforces HTTP auth on media) and Twilio deletes media on request or by its retention. Each attempt
// writes into a folder of its own, recorded (channel_media_pending) before the first fetch: the message's
// transaction claims it and names it on the receipt; a folder never claimed is the media sweep's
// (twilio-media-sweep.job.ts), which can never take one a committed message links to.

/** WhatsApp's own ceiling for documents and video (MMS stops at 5 MB). */
export const MEDIA_MAX_BYTES = 16 * 1024 * 1024
/** All media of one message together: ten files at the ceiling would keep the webhook for minutes. */
const MESSAGE_MAX_BYTES = 40 * 1024 * 1024
/** Twilio waits 15 s for the webhook's answer; what is not read by then stays a link to Twilio. */
const FETCH_BUDGET_MS = 10_000
const MAX_REDIRECTS = 3
/** Twilio sends at most 10 media per message. */
export const MAX_MEDIA = 10
const POOL_CONNECTIONS = 8

/** What Twilio delivers to a number or WhatsApp sender and we keep (as Twilio's "accepted content types", narrowed). */
export const MEDIA_TYPES: Readonly<Record<string, string>> = {
  'image/jpeg': 'jpg',
  'image/png': 'png',
  'image/gif': 'gif',
  'image/webp': 'webp',
  'application/pdf': 'pdf',
  'audio/ogg': 'ogg',
  'audio/mpeg': 'mp3',
  'audio/amr': 'amr',
  'audio/mp4': 'm4a',
  'audio/aac': 'aac',
  'video/mp4': 'mp4',
  'video/3gpp': '3gp',
  'text/vcard': 'vcf',
  'text/x-vcard': 'vcf',
}
/** The types whose first bytes we can tell: the body must be what the header says. */
const SNIFFED = new Set(['image/jpeg', 'image/png', 'image/gif', 'image/webp', 'application/pdf'])

export interface KeptMedia {
  url: string
  content_type: string | null
  filename: string | null
  size_bytes: number | null
}

class MediaRefused extends Error {}

/** The folder of receipts older than `media_folder` (derived from channel and sid, rewritten by a retry). */
export const mediaFolder = (channelId: string, messageSid: string) => createHash('sha256').update(`${channelId}\n${messageSid}`).digest('hex').slice(0, 32)
export const mediaKey = (channelId: string, folder: string, index: number) => `channels/${channelId.toLowerCase()}/twilio/${folder}/${index}`
/** Where a received message's media are: null when none were stored. */
export const folderOfReceipt = (r: Pick<TwilioReceipt, 'channel_id' | 'provider_sid' | 'media_folder'>): string | null =>
  r.media_folder === null || r.media_folder === undefined ? mediaFolder(r.channel_id, r.provider_sid) : r.media_folder || null

/** Deletes every slot of a folder (a missing blob is not an error). */
export async function deleteMediaFolder(k: Kernel, channelId: string, folder: string): Promise<void> {
  // Each slot's delete is idempotent (a missing blob is no error): on S3 the ten are ten requests, sent together.
  await Promise.all(Array.from({ length: MAX_MEDIA }, (_, i) => k.blobs.delete(mediaKey(channelId, folder, i))))
}

export class TwilioMediaStore {
  constructor(private readonly k: Kernel) {}

  /**
   * Each media item fetched and stored, or kept as Twilio's link with the reason in `notes` (not on the
   * account's API origin, refused by the address policy, too large, a type we do not keep, bytes that are
   * not that type, Twilio's error, out of time). A message is never refused for its media. `folder`: where
   * they were stored (pending until the message's transaction claims it), null when none was.
   */
  async keep(
    channel: ChannelsTable,
    account: TwilioAccount,
    sid: string,
    from: string,
    media: { url: string; content_type: string | null }[],
  ): Promise<{ media: KeptMedia[]; notes: string[]; folder: string | null }> {
    const folder = randomBytes(16).toString('hex')
    const pending = {
      folder,
      workspace_id: channel.workspace_id,
      mode: channel.mode,
      channel_id: channel.id,
      provider_sid: sid,
      contact_phone: from,
      created_at: iso(this.k.clock.now()),
      swept_at: null,
    }
    await insertPendingMedia(this.k.db, pending)
    const deadline = AbortSignal.timeout(FETCH_BUDGET_MS)
    const out: KeptMedia[] = []
    const notes: string[] = []
    let budget = MESSAGE_MAX_BYTES
    for (const [i, m] of media.entries()) {
      try {
        const got = await this.fetch(account, m.url, Math.min(MEDIA_MAX_BYTES, budget), deadline)
        budget -= got.bytes.length
        const key = mediaKey(channel.id, folder, i)
        await this.k.blobs.put(key, got.bytes, { contentType: got.type })
        out.push({ url: this.url(channel.id, folder, i), content_type: got.type, filename: `media-${i + 1}.${MEDIA_TYPES[got.type]}`, size_bytes: got.bytes.length })
      } catch (err) {
        if (!(err instanceof MediaRefused || err instanceof CarrierError)) throw err
        this.k.log.warn({ channel: channel.id, sid, index: i, err: err.message }, 'inbound media not kept; the message links to Twilio')
        notes.push(`[Media ${i + 1} not kept: ${err.message}]`)
        out.push({ url: m.url, content_type: m.content_type, filename: null, size_bytes: null })
      }
    }
    if (out.some((m) => m.size_bytes !== null)) return { media: out, notes, folder }
    // Nothing was written into the folder: nothing to claim or sweep.
    await deletePendingMedia(this.k.db, pending)
    return { media: out, notes, folder: null }
  }

  /** GET with the account's basic auth on its own API origin only; redirects (Twilio's CDN) followed without it. */
  private async fetch(account: TwilioAccount, raw: string, maxBytes: number, deadline: AbortSignal): Promise<{ bytes: Buffer; type: string }> {
    const origin = new URL(account.base_url).origin
    let url: URL
    try {
      url = new URL(raw)
    } catch {
      throw new MediaRefused('not an absolute URL')
    }
    if (url.origin !== origin) throw new MediaRefused(`not on ${origin}; the account's credentials are not sent elsewhere`)
    const auth = `Basic ${Buffer.from(`${account.account_sid}:${account.auth_token}`).toString('base64')}`
    for (let hops = 0; ; hops++) {
      url = await checkTwilioUrl(this.k, url.href)
      const headers: Record<string, string> = { 'user-agent': 'svc-twilio/1', accept: Object.keys(MEDIA_TYPES).join(', ') }
      if (url.origin === origin) headers.authorization = auth
      let res: Awaited<ReturnType<typeof request>>
      try {
        res = await request(url.href, { method: 'GET', headers, dispatcher: policyAgent(this.k.config.outbound.allowPrivateNetworks, POOL_CONNECTIONS), signal: deadline })
      } catch (err) {
        if (deadline.aborted) throw new MediaRefused(`not fetched within ${FETCH_BUDGET_MS} ms`)
        throw new MediaRefused(`could not be fetched (${(err as { code?: string }).code ?? (err as Error).name})`)
      }
      const drop = () => res.body.on('error', () => {}).destroy()
      if (isRedirect(res.statusCode)) {
        drop()
        const location = res.headers.location
        if (typeof location !== 'string' || hops === MAX_REDIRECTS)
          throw new MediaRefused(`Twilio answered HTTP ${res.statusCode} ${typeof location === 'string' ? 'too many times' : 'without a Location'}`)
        url = new URL(location, url)
        continue
      }
      if (res.statusCode < 200 || res.statusCode >= 300) {
        drop()
        throw new MediaRefused(`Twilio answered HTTP ${res.statusCode}`)
      }
      const type = String(res.headers['content-type'] ?? '')
        .split(';')[0]
        .trim()
        .toLowerCase()
      if (!(type in MEDIA_TYPES)) {
        drop()
        throw new MediaRefused(`its type ${type || '(none)'} is not one we keep`)
      }
      if (Number(res.headers['content-length'] ?? 0) > maxBytes) {
        drop()
        throw new MediaRefused(`larger than ${maxBytes} bytes`)
      }
      try {
        return { bytes: await read(res.body, type, maxBytes, drop), type }
      } catch (err) {
        if (err instanceof MediaRefused) throw err
        throw new MediaRefused(deadline.aborted ? `not read within ${FETCH_BUDGET_MS} ms` : 'its transfer broke off')
      }
    }
  }

  url(channelId: string, folder: string, index: number): string {
    const path = `/channels/${channelId}/twilio/media/${folder}/${index}`
    return `${this.k.config.publicUrl}${path}?sig=${this.signature(path)}`
  }

  /** A capability link: the path names the file, the signature proves the service made the link. */
  signed(path: string, sig: string): boolean {
    const want = Buffer.from(this.signature(path))
    const got = Buffer.from(sig)
    return want.length === got.length && timingSafeEqual(want, got)
  }

  private signature(path: string): string {
    return createHmac('sha256', this.k.deriveKey('channels-twilio-media')).update(path).digest('base64url')
  }
}

/** The body up to `maxBytes`, its first bytes checked against the type as soon as there are enough of them. */
async function read(body: AsyncIterable<unknown>, type: string, maxBytes: number, drop: () => void): Promise<Buffer> {
  const chunks: Buffer[] = []
  let size = 0
  let checked = !SNIFFED.has(type)
  for await (const chunk of body) {
    const b = chunk as Buffer
    size += b.length
    if (size > maxBytes) {
      drop()
      throw new MediaRefused(`larger than ${maxBytes} bytes`)
    }
    chunks.push(b)
    if (!checked && size >= 12) {
      if (sniff(Buffer.concat(chunks)) !== type) {
        drop()
        throw new MediaRefused(`its bytes are not ${type}`)
      }
      checked = true
    }
  }
  const bytes = Buffer.concat(chunks)
  if (!checked && sniff(bytes) !== type) throw new MediaRefused(`its bytes are not ${type}`)
  return bytes
}
