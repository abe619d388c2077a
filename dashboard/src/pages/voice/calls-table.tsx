import { Table, Time, formatTime } from '../../ui/components.js'
import { CallStatusBadge, duration, type Call } from './voice.shared.js'
import { t } from '../../i18n/index.js'

/** Calls as a table, each row's time linking to the call's page (the call list, a number's page). */
export function CallsTable({ caption, rows }: { caption: string; rows: Call[] }) {
  return (
    <Table<Call>
      caption={caption}
      rows={rows}
      rowKey={(c) => c.id}
      columns={[
        {
          label: t('voice.callsTable.time'),
          render: (c) => (
            <a href={`/dashboard/voice/calls/${c.id}`} aria-label={t('voice.callsTable.callOfCreatedatToTo', { createdAt: formatTime(c.created_at), to: c.to })}>
              <Time iso={c.created_at} />
            </a>
          ),
        },
        { label: t('voice.callDetail.direction'), render: (c) => (c.direction === 'inbound' ? 'Inbound' : 'Outbound') },
        { label: t('voice.callDetail.from'), render: (c) => <span class="phone">{c.from}</span> },
        { label: t('voice.callDetail.to'), render: (c) => <span class="phone">{c.to}</span> },
        { label: t('voice.callDetail.status'), render: (c) => <CallStatusBadge status={c.status} /> },
        { label: t('voice.callDetail.duration'), class: 'num', render: duration },
      ]}
    />
  )
}
