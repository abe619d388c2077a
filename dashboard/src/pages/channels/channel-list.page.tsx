import { useLocation } from 'preact-iso'
import { useState } from 'preact/hooks'
import { ok } from '../../api/client.js'
import { Empty, Field, Notice, Page, PagedList, Table, Time } from '../../ui/components.js'
import { usePaged } from '../../ui/hooks.js'
import { useIsAdmin } from '../../ui/sub-nav.js'
import { t } from '../../i18n/index.js'
import { ChannelAddress, CHANNEL_TYPES, CHANNELS, ProviderBadge, typeLabel, usePublishedBots, type Channel, type ChannelType } from './channels.shared.js'
import { CreateChannelDialog } from './create-channel.js'

/** /dashboard/channels: the workspace's channels (newest first, filtered by type in the URL: ?type=sms); "New channel" for admins. */
export default function ChannelList() {
  const { query, path, route } = useLocation()
  const type = CHANNEL_TYPES.includes(query.type as ChannelType) ? (query.type as ChannelType) : undefined
  const list = usePaged((api, cursor) => ok(api.client.GET('/channels', { params: { query: { cursor, limit: 50, type } } })), [type])
  const bots = usePublishedBots()
  const botName = (id: string | null) => (id ? (bots.options.find((b) => b.id === id)?.name ?? id) : null)
  // Channels are configuration: owners and admins make them (the API refuses members).
  const admin = useIsAdmin()
  const [creating, setCreating] = useState(false)
  const [added, setAdded] = useState<Channel>()
  // ?deleted=<name>: the channel's page deleted it and came back here.
  const deleted = query.deleted
  return (
    <Page
      title={t('channels.list.channels')}
      actions={
        admin ? (
          <button type="button" class="primary" onClick={() => setCreating(true)}>
            {t('channels.list.newChannel')}
          </button>
        ) : undefined
      }
    >
      {!admin && <p class="hint">{t('channels.list.readOnly')}</p>}
      {deleted && !added && <Notice>{t('channels.list.deleted', { name: deleted })}</Notice>}
      {added && <Notice>{t('channels.list.createdNotice', { name: added.name })}</Notice>}
      <div class="filters" role="search" aria-label={t('channels.list.filterChannels')}>
        <Field label={t('channels.list.type')}>
          {(id) => (
            <select id={id} value={type ?? ''} onChange={(e) => route(e.currentTarget.value ? `${path}?type=${e.currentTarget.value}` : path)}>
              <option value="">{t('channels.list.anyType')}</option>
              {CHANNEL_TYPES.map((x) => (
                <option value={x}>{typeLabel(x)}</option>
              ))}
            </select>
          )}
        </Field>
      </div>
      <PagedList list={list} emptyView={<Empty title={type ? t('channels.list.noChannelsOfType', { type: typeLabel(type) }) : t('channels.list.noChannelsYet')}>{t('channels.list.emptyHint')}</Empty>}>
        {(rows) => (
          <Table<Channel>
            caption={t('channels.list.channels')}
            rows={rows}
            rowKey={(c) => c.id}
            columns={[
              { label: t('channels.list.name'), render: (c) => <a href={`${CHANNELS}/${c.id}`}>{c.name}</a> },
              { label: t('channels.list.type'), render: (c) => typeLabel(c.type) },
              { label: t('channels.list.address'), render: (c) => <ChannelAddress c={c} /> },
              { label: t('channels.form.bot'), render: (c) => botName(c.bot_id) ?? <span class="muted">{t('channels.form.noBot')}</span> },
              { label: t('channels.form.provider'), render: (c) => <ProviderBadge c={c} /> },
              { label: t('channels.list.hours'), render: (c) => (c.business_hours ? c.business_hours.timezone : t('channels.hours.alwaysOpen')) },
              { label: t('channels.list.created'), render: (c) => <Time iso={c.created_at} /> },
            ]}
          />
        )}
      </PagedList>
      <CreateChannelDialog
        open={creating}
        onClose={() => setCreating(false)}
        onCreated={(c) => {
          // Newest first, like the list itself; shown whatever the filter (it was just made).
          list.setItems((xs) => [c, ...xs.filter((x) => x.id !== c.id)])
          setAdded(c)
        }}
      />
    </Page>
  )
}
