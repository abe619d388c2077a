import type { Readable } from 'node:stream'
import { request } from 'undici'
import { checkOutboundUrl, OutboundUrlRefused } from '../../../kernel/outbound/address-policy.js'
import { policyAgent } from '../../../kernel/outbound/policy-agent.js'
import type { Kernel } from '../../../kernel/kernel.js'
import type { Tenant } from '../../../kernel/tenant.js'
import * as repo from '../channels.repository.js'
import * as webRepo from '../web-chat/web-chat.repository.js'
import { attachmentKey, MAX_ATTACHMENTS, type EmailInboundService } from './email-inbound.service.js'

/** A file that goes with a reply as a MIME part. */
export interface MailAttachment {
  filename: string
  contentType: string
  content: Buffer
}

/** A file that stays a link in the text, and why (too large, unreachable, refused by the address policy). */
export interface MailLink {
  filename: string
  url: string
  reason: string
}

export interface ReplyAttachment {
  url: string
  filename: string | null
  content_type: string | null
}

/** How long one remote file may take to arrive, and all of a mail's together (the send job stays short). */
const FETCH_TIMEOUT_MS = 30_000
const FETCH_ALL_TIMEOUT_MS = 60_000
const CONTENT_TYPE = /^[a-z]+\/[a-zA-Z0-9.+_-]+$/

class TooLarge extends Error {}

/**
 * The files of a reply as MIME parts. Files the service holds (an email's attachment behind its signed link,
 * a web chat visitor's file) are read from the blob store — only when they belong to the reply's workspace;
 * any other http(s) URL is fetched once through the kernel's outbound address policy (no redirects). Each file
 * is capped at EMAIL_MAX_ATTACHMENT_BYTES and all of them together at what the service would itself take in
 * one mail (EMAIL_MAX_MESSAGE_BYTES less base64's third), counted while reading: a file over a cap, or one
 * that cannot be had, goes as its link instead, so the reply itself is never held back by a file.
 */
export async function replyAttachments(k: Kernel, tenant: Tenant, inbound: EmailInboundService, list: ReplyAttachment[]): Promise<{ files: MailAttachment[]; links: MailLink[] }> {
  const perFile = k.config.email.maxAttachmentBytes
  let left = Math.floor(k.config.email.maxMessageBytes / 1.4)
  const files: MailAttachment[] = []
  const links: MailLink[] = []
  const all = AbortSignal.timeout(FETCH_ALL_TIMEOUT_MS)
  for (const a of list.slice(0, MAX_ATTACHMENTS)) {
    const name = filenameOf(a)
    const cap = Math.min(perFile, left)
    try {
      const got = (await ownBlob(k, tenant, inbound, a.url, cap)) ?? (await remote(k, a.url, cap, all))
      if (typeof got === 'string') {
        links.push({ filename: name, url: a.url, reason: got })
        continue
      }
      const declared = a.content_type && CONTENT_TYPE.test(a.content_type) ? a.content_type : null
      files.push({ filename: name, contentType: declared ?? got.contentType, content: got.content })
      left -= got.content.length
    } catch (err) {
      if (!(err instanceof TooLarge)) throw err
      links.push({ filename: name, url: a.url, reason: cap < perFile ? 'the mail’s attachments together are over the limit' : `over ${perFile} bytes` })
    }
  }
  return { files, links }
}

/** A blob of ours behind `url`, or null when the URL is not one of ours (then it is fetched like any other). */
async function ownBlob(k: Kernel, tenant: Tenant, inbound: EmailInboundService, raw: string, cap: number): Promise<{ content: Buffer; contentType: string } | string | null> {
  const base = new URL(k.config.publicUrl)
  let url: URL
  try {
    url = new URL(raw)
  } catch {
    return 'not a URL'
  }
  if (url.origin !== base.origin) return null
  const basePath = base.pathname.replace(/\/$/, '')
  const path = url.pathname.startsWith(basePath) ? url.pathname.slice(basePath.length) : url.pathname
  let key: string | null = null
  const email = /^\/channels\/([A-Za-z0-9_]{1,64})\/email\/attachments\/([0-9a-f]{32})\/(\d{1,2})$/.exec(path)
  const widget = /^\/widget\/v1\/files\/([A-Za-z0-9_]{1,64})\/[^/]+$/.exec(path)
  if (email) {
    const sig = url.searchParams.get('sig') ?? ''
    // Signed and of a channel of this workspace: a link of another workspace is not read from the store.
    if (inbound.attachmentSigned(path, sig) && (await repo.findChannel(k.db, tenant, email[1]))) key = attachmentKey(email[1], email[2], Number(email[3]))
  } else if (widget) {
    const file = await webRepo.findAttachmentAnywhere(k.db, widget[1])
    if (file && file.workspace_id === tenant.workspaceId && file.mode === tenant.mode) key = file.blob_key
  }
  if (!key) return null
  const stat = await k.blobs.stat(key)
  if (!stat) return 'the file was erased'
  if (stat.size > cap) throw new TooLarge()
  return { content: await readCapped(k.blobs.read(key), cap), contentType: stat.contentType }
}

/** A file from elsewhere, under the outbound address policy; a string says why it stays a link. */
async function remote(k: Kernel, url: string, cap: number, all: AbortSignal): Promise<{ content: Buffer; contentType: string } | string> {
  const allowPrivateNetworks = k.config.outbound.allowPrivateNetworks
  try {
    await checkOutboundUrl(url, { allowPrivateNetworks })
  } catch (err) {
    if (err instanceof OutboundUrlRefused) return `not fetched: ${err.message}`
    throw err
  }
  try {
    const res = await request(url, { method: 'GET', dispatcher: policyAgent(allowPrivateNetworks), signal: AbortSignal.any([AbortSignal.timeout(FETCH_TIMEOUT_MS), all]), headers: { accept: '*/*' } })
    if (res.statusCode !== 200) {
      await res.body.dump()
      return `the server answered ${res.statusCode}`
    }
    const length = Number(res.headers['content-length'])
    if (Number.isFinite(length) && length > cap) {
      res.body.destroy()
      throw new TooLarge()
    }
    const type = String(res.headers['content-type'] ?? '')
      .split(';')[0]
      .trim()
      .toLowerCase()
    return { content: await readCapped(res.body, cap), contentType: CONTENT_TYPE.test(type) ? type : 'application/octet-stream' }
  } catch (err) {
    if (err instanceof TooLarge) throw err
    return `not fetched: ${(err as Error).message.slice(0, 200)}`
  }
}

async function readCapped(stream: Readable | AsyncIterable<Buffer>, cap: number): Promise<Buffer> {
  const chunks: Buffer[] = []
  let size = 0
  for await (const chunk of stream) {
    size += (chunk as Buffer).length
    if (size > cap) {
      ;(stream as Readable).destroy?.()
      throw new TooLarge()
    }
    chunks.push(chunk as Buffer)
  }
  return Buffer.concat(chunks)
}

/** The name the file goes by: as given, else the URL's last segment; no control characters or path. */
function filenameOf(a: ReplyAttachment): string {
  let name = a.filename ?? ''
  if (!name) {
    try {
      name = decodeURIComponent(new URL(a.url).pathname.split('/').pop() ?? '')
    } catch {
      name = ''
    }
  }
  name = name
    .replace(/[\u0000-\u001f\u007f/\\]/g, '')
    .trim()
    .slice(0, 255)
  return name || 'attachment'
}
