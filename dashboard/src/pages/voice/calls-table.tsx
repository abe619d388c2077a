import { Table, Time, formatTime } from '../../ui/components.js'
import { CallStatusBadge, duration, type Call } from './voice.shared.js'

/** Calls as a table, each row's time linking to the call's page (the call list, a number's page). */
export function CallsTable({ caption, rows }: { caption: string; rows: Call[] }) {
  return (
    <Table<Call>
      caption={caption}
      rows={rows}
      rowKey={(c) => c.id}
      columns={[
        { label: 'Time', render: (c) => <a href={`/dashboard/voice/calls/${c.id}`} aria-label={`Call of ${formatTime(c.created_at)} to ${c.to}`}><Time iso={c.created_at} /></a> },
        { label: 'Direction', render: (c) => (c.direction === 'inbound' ? 'Inbound' : 'Outbound') },
        { label: 'From', render: (c) => <span class="phone">{c.from}</span> },
        { label: 'To', render: (c) => <span class="phone">{c.to}</span> },
        { label: 'Status', render: (c) => <CallStatusBadge status={c.status} /> },
        { label: 'Duration', class: 'num', render: duration },
      ]}
    />
  )
}
