import { AppError } from '../../../kernel/errors.js'
import type { Kernel } from '../../../kernel/kernel.js'
import { OutboundUrlRefused } from '../../../kernel/outbound/address-policy.js'
import type { Tenant } from '../../../kernel/tenant.js'
import type { ChannelsTable } from '../channels.tables.js'
import { checkRelay, relayOfUrl, type Relay } from './email-outbound.js'
import { replyAddress } from './email-inbound.service.js'
import type { EmailInputT, EmailSettingsT, EmailUpdateT } from './email.schemas.js'
import type { ChannelEmailsTable } from './email.tables.js'
import { sendgridPublicKey } from './sendgrid.js'

// An email channel's settings: validated and sealed when saved, shown without their secrets.

export const relayPasswordContext = (channelId: string) => `${channelId}:relay_password`
export const webhookPasswordContext = (channelId: string) => `${channelId}:webhook_password`
export const mailgunKeyContext = (channelId: string) => `${channelId}:mailgun_signing_key`

const invalid = (pointer: string, detail: string, message: string) => new AppError('validation_failed', message, { errors: [{ pointer, detail }] })

/** Where the providers post a channel's inbound mail: under PUBLIC_URL, outside the API's base URLs. */
export const emailWebhooks = (k: Kernel, id: string) => ({
  postmark_url: `${k.config.publicUrl}/channels/${id}/email/postmark`,
  sendgrid_url: `${k.config.publicUrl}/channels/${id}/email/sendgrid`,
  mailgun_url: `${k.config.publicUrl}/channels/${id}/email/mailgun`,
  sendgrid_events_url: `${k.config.publicUrl}/channels/${id}/email/sendgrid/events`,
})

export function emailView(k: Kernel, row: ChannelEmailsTable): EmailSettingsT {
  return {
    address: row.address,
    from_name: row.from_name,
    reply_address_example: replyAddress(row.address, 'r000000000000000000000000'),
    relay: row.relay_host ? { host: row.relay_host, port: row.relay_port ?? 587, secure: row.relay_secure === 1, user: row.relay_user, password_set: row.relay_password_sealed !== null } : null,
    inbound: {
      smtp: k.config.email.listenPort !== null,
      ...emailWebhooks(k, row.channel_id),
      webhook_password_set: row.webhook_password_sealed !== null,
      mailgun_signing_key_set: row.mailgun_key_sealed !== null,
      sendgrid_signed: row.sendgrid_parse_key !== null,
      sendgrid_events: row.sendgrid_events_key !== null,
    },
  }
}

/** The relay a channel sends through: its own, else EMAIL_RELAY_URL; null: none configured. */
export function relayOf(k: Kernel, row: ChannelEmailsTable): Relay | null {
  if (row.relay_host) {
    return {
      host: row.relay_host,
      port: row.relay_port ?? 587,
      secure: row.relay_secure === 1,
      user: row.relay_user,
      password: row.relay_password_sealed ? k.secrets.open(row.relay_password_sealed, relayPasswordContext(row.channel_id)) : null,
    }
  }
  return k.config.email.relayUrl ? relayOfUrl(k.config.email.relayUrl) : null
}

export const webhookPassword = (k: Kernel, row: ChannelEmailsTable) => (row.webhook_password_sealed ? k.secrets.open(row.webhook_password_sealed, webhookPasswordContext(row.channel_id)) : null)
export const mailgunKey = (k: Kernel, row: ChannelEmailsTable) => (row.mailgun_key_sealed ? k.secrets.open(row.mailgun_key_sealed, mailgunKeyContext(row.channel_id)) : null)

/** The relay's host through the outbound address policy when it is saved (422), as every send checks it again. */
async function checkRelayHost(k: Kernel, host: string, port: number): Promise<void> {
  try {
    await checkRelay(k, { host, port })
  } catch (err) {
    if (!(err instanceof OutboundUrlRefused)) throw err
    if (err.reason === 'unresolvable' && k.config.outbound.allowPrivateNetworks) return
    throw invalid('/body/email/relay/host', 'not an allowed destination', `${err.message} The relay must be a public mail server.`)
  }
}

/**
 * The settings row of a channel after `input` (create: `before` null). Secrets are sealed under the
 * channel's id; a relay password is kept when left out for the same host and user.
 */
export async function emailColumns(
  k: Kernel,
  tenant: Tenant,
  channel: Pick<ChannelsTable, 'id' | 'provider'>,
  before: ChannelEmailsTable | null,
  input: EmailInputT | EmailUpdateT,
): Promise<ChannelEmailsTable> {
  const row: ChannelEmailsTable = before
    ? { ...before }
    : {
        channel_id: channel.id,
        workspace_id: tenant.workspaceId,
        mode: tenant.mode,
        address: '',
        from_name: null,
        relay_host: null,
        relay_port: null,
        relay_secure: 0,
        relay_user: null,
        relay_password_sealed: null,
        webhook_password_sealed: null,
        mailgun_key_sealed: null,
        sendgrid_parse_key: null,
        sendgrid_events_key: null,
      }
  if (input.address !== undefined) row.address = input.address.toLowerCase()
  if (/\+/.test(row.address.split('@')[0])) throw invalid('/body/email/address', 'no + in the local part', 'The channel address may not contain "+": replies use <local>+<token>@<domain>.')
  if (input.from_name !== undefined) row.from_name = input.from_name
  if (input.relay !== undefined) {
    if (input.relay === null) Object.assign(row, { relay_host: null, relay_port: null, relay_secure: 0, relay_user: null, relay_password_sealed: null })
    else {
      if (channel.provider === 'simulated') throw invalid('/body/email/relay', 'only for provider smtp', 'The simulated provider sends nothing: it takes no relay.')
      const r = input.relay
      const secure = r.secure ?? r.port === 465
      const port = r.port ?? (secure ? 465 : 587)
      const host = r.host.toLowerCase().replace(/^\[(.*)\]$/, '$1')
      await checkRelayHost(k, host, port)
      const user = r.user !== undefined ? r.user : row.relay_user
      const same = row.relay_host === host && row.relay_user === user
      const password = r.password !== undefined ? k.secrets.seal(r.password, relayPasswordContext(channel.id)) : same ? row.relay_password_sealed : null
      if (user && !password) throw invalid('/body/email/relay/password', 'required', 'A relay with a user needs its password the first time.')
      Object.assign(row, { relay_host: host, relay_port: port, relay_secure: secure ? 1 : 0, relay_user: user, relay_password_sealed: user ? password : null })
    }
  }
  if (input.webhook_password !== undefined) row.webhook_password_sealed = k.secrets.seal(input.webhook_password, webhookPasswordContext(channel.id))
  if (input.mailgun_signing_key !== undefined) row.mailgun_key_sealed = k.secrets.seal(input.mailgun_signing_key, mailgunKeyContext(channel.id))
  if (input.sendgrid_verification_key !== undefined) row.sendgrid_parse_key = verificationKey(input.sendgrid_verification_key, 'sendgrid_verification_key')
  if (input.sendgrid_event_verification_key !== undefined) row.sendgrid_events_key = verificationKey(input.sendgrid_event_verification_key, 'sendgrid_event_verification_key')
  if (channel.provider === 'smtp' && !row.relay_host && !k.config.email.relayUrl) {
    throw invalid('/body/email/relay', 'required', 'Provider smtp needs a relay: email.relay, or the service default EMAIL_RELAY_URL.')
  }
  return row
}

/** A SendGrid verification key as stored (trimmed), after checking that it is an ECDSA P-256 public key (422). */
function verificationKey(text: string | null, field: string): string | null {
  if (text === null) return null
  try {
    sendgridPublicKey(text)
  } catch {
    throw invalid(`/body/email/${field}`, 'not an ECDSA P-256 public key', 'A SendGrid verification key is the public key SendGrid shows (base64 of its DER form, or PEM), an ECDSA P-256 key.')
  }
  return text.trim()
}

/** Seals a row's secrets under the current server secret (`svc secrets reseal`). */
export function resealed(k: Kernel, row: ChannelEmailsTable): Pick<ChannelEmailsTable, 'relay_password_sealed' | 'webhook_password_sealed' | 'mailgun_key_sealed'> | null {
  const again = (sealed: string | null, context: string) => (sealed && k.secrets.isStale(sealed) ? k.secrets.seal(k.secrets.open(sealed, context), context) : sealed)
  const next = {
    relay_password_sealed: again(row.relay_password_sealed, relayPasswordContext(row.channel_id)),
    webhook_password_sealed: again(row.webhook_password_sealed, webhookPasswordContext(row.channel_id)),
    mailgun_key_sealed: again(row.mailgun_key_sealed, mailgunKeyContext(row.channel_id)),
  }
  const changed = next.relay_password_sealed !== row.relay_password_sealed || next.webhook_password_sealed !== row.webhook_password_sealed || next.mailgun_key_sealed !== row.mailgun_key_sealed
  return changed ? next : null
}
