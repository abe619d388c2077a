import { ok } from '../../api/client.js'
import type { components } from '../../api/schema.js'
import { Badge, Field } from '../../ui/components.js'
import { useResource } from '../../ui/hooks.js'
import { t } from '../../i18n/index.js'

export type Channel = components['schemas']['Channel']
export type ChannelType = components['schemas']['ChannelType']
export const CHANNEL_TYPES: readonly ChannelType[] = ['sms', 'whatsapp', 'web_chat', 'email']
export const CHANNELS = '/dashboard/channels'

export const typeLabel = (type: ChannelType): string =>
  ({ sms: t('channels.type.sms'), whatsapp: t('channels.type.whatsapp'), web_chat: t('channels.type.webChat'), email: t('channels.type.email') })[type]

export const isPhone = (type: ChannelType): boolean => type === 'sms' || type === 'whatsapp'

/** What names the channel outside: its number, its address, or the widget's public key. */
export function ChannelAddress({ c, wrap = false }: { c: Channel; wrap?: boolean }) {
  if (c.phone_number) return <span class="phone">{c.phone_number}</span>
  if (c.email) return <span class="address">{c.email.address}</span>
  // Kept on one line in a table (which scrolls), broken where it must elsewhere.
  if (c.web_chat) return <code class={wrap ? undefined : 'nowrap'}>{c.web_chat.public_key}</code>
  return <>—</>
}

export function ProviderBadge({ c }: { c: Channel }) {
  return <Badge tone={c.provider === 'simulated' ? 'info' : 'neutral'}>{c.provider}</Badge>
}

/** The published bots (first 100: enough for a choice list). */
export function usePublishedBots() {
  const r = useResource((api) => ok(api.client.GET('/bots', { params: { query: { status: 'published', limit: 100 } } })))
  return { options: (r.data?.data ?? []).map((b) => ({ id: b.id, name: b.name })), loading: r.loading, error: r.error }
}

/** The workspace's e-mail channels (first 100), which a web chat can continue by e-mail from. */
export function useEmailChannels() {
  const r = useResource((api) => ok(api.client.GET('/channels', { params: { query: { type: 'email', limit: 100 } } })))
  return { options: (r.data?.data ?? []).map((c) => ({ id: c.id, name: c.name, address: c.email?.address ?? '' })), loading: r.loading, error: r.error }
}

/**
 * The bot that answers first: none, or one of the published bots. `keep` is the one answering now, offered
 * even when it is no longer published (or past the first page), so opening a form does not change it.
 */
export function BotField({ value, keep, onChange }: { value: string; keep?: string | null; onChange: (id: string) => void }) {
  const bots = usePublishedBots()
  const options = keep && !bots.options.some((o) => o.id === keep) ? [...bots.options, { id: keep, name: keep }] : bots.options
  const hint = bots.error ? t('channels.form.botsCouldNotBeRead', { detail: bots.error.detail }) : bots.loading ? t('channels.form.loadingBots') : t('channels.form.botHint')
  return (
    <Field label={t('channels.form.bot')} hint={hint}>
      {(id, d) => (
        <select id={id} aria-describedby={d} value={value} onChange={(e) => onChange(e.currentTarget.value)}>
          <option value="">{t('channels.form.noBot')}</option>
          {options.map((o) => (
            <option value={o.id}>{o.name}</option>
          ))}
        </select>
      )}
    </Field>
  )
}

/** The bot's name linked to its page, or "No bot". */
export function BotLink({ id }: { id: string | null }) {
  if (!id) return <span class="muted">{t('channels.form.noBot')}</span>
  return <a href={`/dashboard/bots/${id}`}>{id}</a>
}
