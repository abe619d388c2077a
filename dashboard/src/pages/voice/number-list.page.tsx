import { useLocation } from 'preact-iso'
import { useState } from 'preact/hooks'
import { ok } from '../../api/client.js'
import { Badge, Dialog, Empty, Notice, Page, PagedList, Table, Time } from '../../ui/components.js'
import { usePaged } from '../../ui/hooks.js'
import { ProvisionNumber } from './provision-number.js'
import { AnsweredBy, type VoiceNumber } from './voice.shared.js'

/** /dashboard/voice/numbers: the workspace's phone numbers and what answers them (each links to its page); "Provision number" gets a new one. */
export default function NumberList() {
  // ?released=<phone number>: the number's page released it and came back here.
  const released = useLocation().query.released
  const nums = usePaged((api, cursor) => ok(api.client.GET('/voice/numbers', { params: { query: { cursor, limit: 20 } } })))
  const [provisioning, setProvisioning] = useState(false)
  const [added, setAdded] = useState<VoiceNumber>()
  return (
    <Page
      title="Phone numbers"
      actions={
        <button type="button" class="primary" onClick={() => setProvisioning(true)}>
          Provision number
        </button>
      }
    >
      {released && !added && (
        <Notice>
          Released <span class="phone">{released}</span>: it is back with the carrier. Its past calls stay in the call list.
        </Notice>
      )}
      {added && (
        <Notice>
          Provisioned <span class="phone">{added.phone_number}</span> ({added.friendly_name}).
        </Notice>
      )}
      <PagedList list={nums} emptyView={<Empty title="No numbers yet">Provision one to place calls from it and to answer calls to it.</Empty>}>
        {(rows) => (
          <Table<VoiceNumber>
            caption="Phone numbers"
            rows={rows}
            rowKey={(n) => n.id}
            columns={[
              { label: 'Number', render: (n) => <a class="phone" href={`/dashboard/voice/numbers/${n.id}`}>{n.phone_number}</a> },
              { label: 'Name', render: (n) => n.friendly_name },
              { label: 'Country', render: (n) => n.country },
              { label: 'Answered by', render: (n) => <AnsweredBy n={n} /> },
              { label: 'Greeting', render: (n) => <span class="greeting">{n.answer.greeting ?? '—'}</span> },
              { label: 'Carrier', render: (n) => <Badge tone={n.carrier === 'simulated' ? 'info' : 'neutral'}>{n.carrier}</Badge> },
              { label: 'Created', render: (n) => <Time iso={n.created_at} /> },
            ]}
          />
        )}
      </PagedList>
      <Dialog open={provisioning} title="Provision a number" onClose={() => setProvisioning(false)}>
        <ProvisionNumber
          onCancel={() => setProvisioning(false)}
          onDone={(n) => {
            // Newest first, like the list itself; the rest of the list is unchanged.
            nums.setItems((xs) => [n, ...xs.filter((x) => x.id !== n.id)])
            setAdded(n)
            setProvisioning(false)
          }}
        />
      </Dialog>
    </Page>
  )
}
