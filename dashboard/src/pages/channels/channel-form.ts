import type { components } from '../../api/schema.js'
import type { Channel, ChannelType } from './channels.shared.js'

// The create and edit forms' state for each channel type, and the API bodies made from it. An edit sends
// only what changed: write-only secrets left empty are kept by the API, and an untouched field is better
// left out than sent back as it was (a Twilio account re-checked, an identity secret made by accident).

export type CreateBody = NonNullable<components['requestBodies']['CreateChannelBody']>['content']['application/json']
export type UpdateBody = NonNullable<components['requestBodies']['UpdateChannelBody']>['content']['application/json']

export interface ChannelForm {
  type: ChannelType
  name: string
  bot_id: string
  // sms / whatsapp
  phone_number: string
  provider: 'simulated' | 'twilio'
  account_sid: string
  auth_token: string
  base_url: string
  messaging_service_sid: string
  // whatsapp: the template sent outside the 24-hour window; variables one per line, name=value
  template_sid: string
  template_variables: string
  // web_chat
  allowed_origins: string
  color: string
  position: 'bottom-right' | 'bottom-left'
  greeting: string
  avatar_url: string
  locale: 'en' | 'de'
  require_email: boolean
  identity_verification: boolean
  // web_chat: continued by e-mail (no channel chosen: never)
  followup_channel_id: string
  followup_minutes: string
  followup_chat_url: string
  // email
  address: string
  from_name: string
  email_provider: '' | 'smtp' | 'simulated'
  relay: boolean
  relay_host: string
  relay_port: string
  relay_secure: boolean
  relay_user: string
  relay_password: string
  webhook_password: string
  mailgun_signing_key: string
  // SendGrid's verification keys: empty keeps the stored one, `*_remove` sends null
  sendgrid_key: string
  sendgrid_key_remove: boolean
  sendgrid_events_key: string
  sendgrid_events_key_remove: boolean
}

export const emptyForm = (type: ChannelType = 'sms'): ChannelForm => ({
  type,
  name: '',
  bot_id: '',
  phone_number: '',
  provider: 'simulated',
  account_sid: '',
  auth_token: '',
  base_url: '',
  messaging_service_sid: '',
  template_sid: '',
  template_variables: '',
  allowed_origins: '',
  color: '#1f6feb',
  position: 'bottom-right',
  greeting: '',
  avatar_url: '',
  locale: 'en',
  require_email: false,
  identity_verification: false,
  followup_channel_id: '',
  followup_minutes: '60',
  followup_chat_url: '',
  address: '',
  from_name: '',
  email_provider: '',
  relay: false,
  relay_host: '',
  relay_port: '',
  relay_secure: false,
  relay_user: '',
  relay_password: '',
  webhook_password: '',
  mailgun_signing_key: '',
  sendgrid_key: '',
  sendgrid_key_remove: false,
  sendgrid_events_key: '',
  sendgrid_events_key_remove: false,
})

/** The form for editing `c` (write-only secrets start empty: "keep the stored one"). */
export function formOf(c: Channel): ChannelForm {
  const f = emptyForm(c.type)
  f.name = c.name
  f.bot_id = c.bot_id ?? ''
  f.phone_number = c.phone_number ?? ''
  f.provider = c.provider === 'twilio' ? 'twilio' : 'simulated'
  f.account_sid = c.credentials.account_sid ?? ''
  f.base_url = c.credentials.base_url ?? ''
  f.messaging_service_sid = c.credentials.messaging_service_sid ?? ''
  const template = c.whatsapp?.template
  if (template)
    Object.assign(f, {
      template_sid: template.content_sid,
      template_variables: Object.entries(template.variables ?? {})
        .map(([k, v]) => `${k}=${v}`)
        .join('\n'),
    })
  if (c.web_chat) {
    const w = c.web_chat
    Object.assign(f, { allowed_origins: w.allowed_origins.join('\n'), color: w.theme.color, position: w.theme.position, greeting: w.theme.greeting ?? '', avatar_url: w.theme.avatar_url ?? '' })
    Object.assign(f, { locale: w.locale, require_email: w.require_email, identity_verification: w.identity_verification })
    const u = w.email_followup
    if (u) Object.assign(f, { followup_channel_id: u.email_channel_id, followup_minutes: String(u.after_minutes), followup_chat_url: u.chat_url ?? '' })
  }
  if (c.email) {
    const e = c.email
    Object.assign(f, { address: e.address, from_name: e.from_name ?? '', email_provider: c.provider === 'smtp' ? 'smtp' : 'simulated', relay: e.relay !== null })
    if (e.relay) Object.assign(f, { relay_host: e.relay.host, relay_port: String(e.relay.port), relay_secure: e.relay.secure, relay_user: e.relay.user ?? '' })
  }
  return f
}

const opt = (s: string): string | undefined => s.trim() || undefined
/** One origin per line (or separated by blanks or commas). */
export const originsOf = (s: string): string[] => [
  ...new Set(
    s
      .split(/[\s,]+/)
      .map((x) => x.trim().replace(/\/+$/, ''))
      .filter(Boolean),
  ),
]

/** `name=value` lines as Twilio ContentVariables (a line without `=` is skipped). */
export function variablesOf(s: string): Record<string, string> {
  const out: Record<string, string> = {}
  for (const line of s.split('\n')) {
    const at = line.indexOf('=')
    if (at > 0) out[line.slice(0, at).trim()] = line.slice(at + 1).trim()
  }
  return out
}

const templateOf = (f: ChannelForm) => (opt(f.template_sid) ? { content_sid: f.template_sid.trim(), variables: variablesOf(f.template_variables) } : null)

/** The web chat's e-mail follow-up; null (never) when no e-mail channel is chosen. */
function followupOf(f: ChannelForm) {
  if (!f.followup_channel_id) return null
  return { email_channel_id: f.followup_channel_id, after_minutes: Number(f.followup_minutes), chat_url: opt(f.followup_chat_url) ?? null }
}

function relayOf(f: ChannelForm) {
  if (!f.relay) return null
  const port = Number(f.relay_port)
  return { host: f.relay_host.trim(), port: f.relay_port.trim() && Number.isInteger(port) ? port : undefined, secure: f.relay_secure, user: opt(f.relay_user) ?? null, password: opt(f.relay_password) }
}

export function createBodyOf(f: ChannelForm, businessHours: CreateBody['business_hours']): CreateBody {
  const body: CreateBody = { type: f.type, name: f.name.trim(), bot_id: opt(f.bot_id) ?? null }
  if (businessHours) body.business_hours = businessHours
  if (f.type === 'sms' || f.type === 'whatsapp') {
    body.phone_number = f.phone_number.trim()
    body.provider = f.provider
    if (f.provider === 'twilio') body.credentials = { account_sid: f.account_sid.trim(), auth_token: opt(f.auth_token), base_url: opt(f.base_url), messaging_service_sid: opt(f.messaging_service_sid) }
    if (f.type === 'whatsapp' && templateOf(f)) body.whatsapp = { template: templateOf(f) }
  } else if (f.type === 'web_chat') {
    body.web_chat = {
      allowed_origins: originsOf(f.allowed_origins),
      theme: { color: f.color, position: f.position, greeting: opt(f.greeting) ?? null, avatar_url: opt(f.avatar_url) ?? null },
      locale: f.locale,
      require_email: f.require_email,
      identity_verification: f.identity_verification,
    }
    if (followupOf(f)) body.web_chat.email_followup = followupOf(f)
  } else {
    body.email = { address: f.address.trim(), from_name: opt(f.from_name) ?? null, relay: relayOf(f), webhook_password: opt(f.webhook_password), mailgun_signing_key: opt(f.mailgun_signing_key) }
    if (opt(f.sendgrid_key)) body.email.sendgrid_verification_key = f.sendgrid_key.trim()
    if (opt(f.sendgrid_events_key)) body.email.sendgrid_event_verification_key = f.sendgrid_events_key.trim()
    if (f.email_provider) body.provider = f.email_provider
  }
  return body
}

const same = (a: unknown, b: unknown) => JSON.stringify(a) === JSON.stringify(b)

/** Only what the edit changed (business hours have their own panel and save). */
export function patchOf(c: Channel, f: ChannelForm): UpdateBody {
  const was = formOf(c)
  const body: UpdateBody = {}
  if (f.name.trim() !== c.name) body.name = f.name.trim()
  if ((opt(f.bot_id) ?? null) !== c.bot_id) body.bot_id = opt(f.bot_id) ?? null
  const serviceChanged = f.messaging_service_sid.trim() !== was.messaging_service_sid
  if (c.provider === 'twilio' && (f.account_sid.trim() !== was.account_sid || opt(f.auth_token) || f.base_url.trim() !== was.base_url || serviceChanged)) {
    body.credentials = { account_sid: f.account_sid.trim(), auth_token: opt(f.auth_token), base_url: opt(f.base_url) }
    if (serviceChanged) body.credentials.messaging_service_sid = opt(f.messaging_service_sid) ?? null
  }
  if (c.type === 'whatsapp' && !same(templateOf(f), templateOf(was))) body.whatsapp = { template: templateOf(f) }
  if (c.type === 'web_chat' && c.web_chat) {
    const w: NonNullable<UpdateBody['web_chat']> = {}
    if (!same(originsOf(f.allowed_origins), c.web_chat.allowed_origins)) w.allowed_origins = originsOf(f.allowed_origins)
    const theme = { color: f.color, position: f.position, greeting: opt(f.greeting) ?? null, avatar_url: opt(f.avatar_url) ?? null }
    if (!same(theme, c.web_chat.theme)) w.theme = theme
    if (f.locale !== was.locale) w.locale = f.locale
    if (f.require_email !== was.require_email) w.require_email = f.require_email
    if (f.identity_verification !== was.identity_verification) w.identity_verification = f.identity_verification
    if (!same(followupOf(f), followupOf(was))) w.email_followup = followupOf(f)
    if (Object.keys(w).length) body.web_chat = w
  }
  if (c.type === 'email' && c.email) {
    const e: NonNullable<UpdateBody['email']> = {}
    if (f.address.trim() !== was.address) e.address = f.address.trim()
    if (f.from_name.trim() !== was.from_name) e.from_name = opt(f.from_name) ?? null
    const relayChanged =
      f.relay !== was.relay ||
      (f.relay && (f.relay_host !== was.relay_host || f.relay_port !== was.relay_port || f.relay_secure !== was.relay_secure || f.relay_user !== was.relay_user || !!opt(f.relay_password)))
    if (relayChanged) e.relay = relayOf(f)
    if (opt(f.webhook_password)) e.webhook_password = f.webhook_password.trim()
    if (opt(f.mailgun_signing_key)) e.mailgun_signing_key = f.mailgun_signing_key.trim()
    const key = (text: string, remove: boolean) => (remove ? null : opt(text))
    if (key(f.sendgrid_key, f.sendgrid_key_remove) !== undefined) e.sendgrid_verification_key = key(f.sendgrid_key, f.sendgrid_key_remove)
    if (key(f.sendgrid_events_key, f.sendgrid_events_key_remove) !== undefined) e.sendgrid_event_verification_key = key(f.sendgrid_events_key, f.sendgrid_events_key_remove)
    if (Object.keys(e).length) body.email = e
  }
  return body
}
