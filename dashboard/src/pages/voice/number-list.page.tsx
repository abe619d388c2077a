import { ok } from '../../api/client.js'
import { Async, Badge, Empty, LoadMore, Page, Table, Time } from '../../ui/components.js'
import { usePaged } from '../../ui/hooks.js'
import type { VoiceNumber } from './voice.shared.js'

const answerOf = (n: VoiceNumber) => (n.answer.type === 'greeting' ? 'Greeting' : `${n.answer.type === 'bot' ? 'Bot' : 'Agent'} ${n.answer.id ?? ''}`)

/** /dashboard/voice/numbers: the workspace's phone numbers and what answers them. */
export default function NumberList() {
  const nums = usePaged((api, cursor) => ok(api.client.GET('/voice/numbers', { params: { query: { cursor, limit: 20 } } })))
  const first = nums.loading && nums.items.length === 0
  return (
    <Page title="Phone numbers">
      <Async
        loading={first}
        error={nums.items.length === 0 ? nums.error : undefined}
        data={first ? undefined : nums.items}
        onRetry={nums.reload}
        empty={(xs) => xs.length === 0}
        emptyView={
          <Empty title="No numbers yet">
            Provision one with <code>POST /voice/numbers</code>.
          </Empty>
        }
      >
        {(rows) => (
          <>
            <Table<VoiceNumber>
              caption="Phone numbers"
              rows={rows}
              rowKey={(n) => n.id}
              columns={[
                { label: 'Number', render: (n) => <span class="phone">{n.phone_number}</span> },
                { label: 'Name', render: (n) => n.friendly_name },
                { label: 'Country', render: (n) => n.country },
                { label: 'Answered by', render: answerOf },
                { label: 'Carrier', render: (n) => <Badge tone={n.carrier === 'simulated' ? 'info' : 'neutral'}>{n.carrier}</Badge> },
                { label: 'Created', render: (n) => <Time iso={n.created_at} /> },
              ]}
            />
            <LoadMore hasMore={nums.hasMore} loading={nums.loading} onMore={nums.more} />
          </>
        )}
      </Async>
    </Page>
  )
}
