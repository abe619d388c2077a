import { randomBytes } from 'node:crypto'
import { AppError } from '../../../kernel/errors.js'
import type { Kernel } from '../../../kernel/kernel.js'
import type { ChannelsTable } from '../channels.tables.js'
import { DEFAULT_WIDGET_SETTINGS, type WebChatInputT, type WebChatT, type WebChatUpdateT, type WidgetSettings } from './web-chat.schemas.js'

/** The context the identity secret is sealed under: a sealed value copied onto another row does not open. */
export const identitySecretContext = (channelId: string) => `${channelId}:identity_secret`

/** Where the widget script is served (outside the API's base URLs: browsers on any site load it). */
export const widgetScriptUrl = (k: Kernel) => `${k.config.publicUrl}/widget/v1/widget.js`

type WidgetColumns = Pick<ChannelsTable, 'widget_key' | 'widget_settings' | 'widget_secret_sealed'>

const invalid = (pointer: string, detail: string, message: string) => new AppError('validation_failed', message, { errors: [{ pointer, detail }] })

/** The stored settings of a web chat channel (defaults for anything missing). */
export function widgetSettingsOf(row: Pick<ChannelsTable, 'widget_settings'>): WidgetSettings {
  const stored = row.widget_settings ? (JSON.parse(row.widget_settings) as Partial<WidgetSettings>) : {}
  return { ...DEFAULT_WIDGET_SETTINGS, ...stored, theme: { ...DEFAULT_WIDGET_SETTINGS.theme, ...(stored.theme ?? {}) } }
}

function merged(base: WidgetSettings, input: WebChatInputT): WidgetSettings {
  return {
    allowed_origins: input.allowed_origins ? input.allowed_origins.map((o) => o.toLowerCase()) : base.allowed_origins,
    theme: { ...base.theme, ...(input.theme ?? {}) },
    locale: input.locale ?? base.locale,
    require_email: input.require_email ?? base.require_email,
    identity_verification: input.identity_verification ?? base.identity_verification,
    email_followup: input.email_followup === undefined ? base.email_followup : input.email_followup && { ...input.email_followup, chat_url: input.email_followup.chat_url ?? null },
  }
}

/** A new identity secret: 32 random bytes, hex (what the host's server keys its HMAC with). */
const newIdentitySecret = () => randomBytes(32).toString('hex')

/**
 * The widget columns of a new web chat channel, and the identity secret in plain when one was made (shown
 * once, in the create answer). Other types take no `web_chat` settings.
 */
export function newWidget(k: Kernel, channelId: string, type: ChannelsTable['type'], input: WebChatInputT | undefined): { columns: WidgetColumns; secret: string | null } {
  if (type !== 'web_chat') {
    if (input) throw invalid('/body/web_chat', 'only for type web_chat', 'web_chat settings belong to a web_chat channel.')
    return { columns: { widget_key: null, widget_settings: null, widget_secret_sealed: null }, secret: null }
  }
  const settings = merged(DEFAULT_WIDGET_SETTINGS, input ?? {})
  const secret = settings.identity_verification ? newIdentitySecret() : null
  return {
    columns: {
      widget_key: `wck_${randomBytes(12).toString('hex')}`,
      widget_settings: JSON.stringify(settings),
      widget_secret_sealed: secret ? k.secrets.seal(secret, identitySecretContext(channelId)) : null,
    },
    secret,
  }
}

/** The widget columns after an update; a secret is made when verification is turned on without one, or on rotation. */
export function updatedWidget(k: Kernel, row: ChannelsTable, input: WebChatUpdateT | undefined): { columns: WidgetColumns; secret: string | null } {
  const current: WidgetColumns = { widget_key: row.widget_key ?? null, widget_settings: row.widget_settings ?? null, widget_secret_sealed: row.widget_secret_sealed ?? null }
  if (!input) return { columns: current, secret: null }
  if (row.type !== 'web_chat') throw invalid('/body/web_chat', 'only for type web_chat', 'web_chat settings belong to a web_chat channel.')
  const { rotate_identity_secret: rotate, ...rest } = input
  const settings = merged(widgetSettingsOf(row), rest)
  const secret = rotate || (settings.identity_verification && !current.widget_secret_sealed) ? newIdentitySecret() : null
  return {
    columns: { ...current, widget_settings: JSON.stringify(settings), widget_secret_sealed: secret ? k.secrets.seal(secret, identitySecretContext(row.id)) : current.widget_secret_sealed },
    secret,
  }
}

/** The channel's `web_chat` object (null for other types); `secret` only in the answer that made it. */
export function webChatView(k: Kernel, row: ChannelsTable, secret: string | null = null): WebChatT | null {
  if (row.type !== 'web_chat' || !row.widget_key) return null
  const s = widgetSettingsOf(row)
  const script = widgetScriptUrl(k)
  return {
    public_key: row.widget_key,
    allowed_origins: s.allowed_origins,
    theme: s.theme,
    locale: s.locale,
    require_email: s.require_email,
    identity_verification: s.identity_verification,
    email_followup: s.email_followup,
    identity_secret_set: !!row.widget_secret_sealed,
    ...(secret ? { identity_secret: secret } : {}),
    script_url: script,
    snippet: `<script src="${script}" data-channel="${row.widget_key}" async></script>`,
  }
}

/** The identity secret, opened; null when none is stored. */
export function identitySecretOf(k: Kernel, row: ChannelsTable): string | null {
  return row.widget_secret_sealed ? k.secrets.open(row.widget_secret_sealed, identitySecretContext(row.id)) : null
}
