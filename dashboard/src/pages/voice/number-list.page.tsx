import { useLocation } from 'preact-iso'
import { useState } from 'preact/hooks'
import { ok } from '../../api/client.js'
import { Badge, Dialog, Empty, Notice, Page, PagedList, Table, Time } from '../../ui/components.js'
import { usePaged } from '../../ui/hooks.js'
import { ProvisionNumber } from './provision-number.js'
import { AnsweredBy, type VoiceNumber } from './voice.shared.js'
import { t } from '../../i18n/index.js'

/** /dashboard/voice/numbers: the workspace's phone numbers and what answers them (each links to its page); "Provision number" gets a new one. */
export default function NumberList() {
  // ?released=<phone number>: the number's page released it and came back here.
  const released = useLocation().query.released
  const nums = usePaged((api, cursor) => ok(api.client.GET('/voice/numbers', { params: { query: { cursor, limit: 20 } } })))
  const [provisioning, setProvisioning] = useState(false)
  const [added, setAdded] = useState<VoiceNumber>()
  return (
    <Page
      title={t('voice.numberList.phoneNumbers')}
      actions={
        <button type="button" class="primary" onClick={() => setProvisioning(true)}>
          {t('voice.numberList.provisionNumber')}
        </button>
      }
    >
      {released && !added && (
        <Notice>
          {t('voice.numberList.released')} <span class="phone">{released}</span>
          {t('voice.numberList.itIsBackWithThe')}
        </Notice>
      )}
      {added && (
        <Notice>
          {t('voice.numberDetail.provisioned')} <span class="phone">{added.phone_number}</span> ({added.friendly_name}).
        </Notice>
      )}
      <PagedList list={nums} emptyView={<Empty title={t('voice.numberList.noNumbersYet')}>{t('voice.numberList.provisionOneToPlaceCalls')}</Empty>}>
        {(rows) => (
          <Table<VoiceNumber>
            caption={t('voice.numberList.phoneNumbers')}
            rows={rows}
            rowKey={(n) => n.id}
            columns={[
              {
                label: t('voice.numberDetail.number'),
                render: (n) => (
                  <a class="phone" href={`/dashboard/voice/numbers/${n.id}`}>
                    {n.phone_number}
                  </a>
                ),
              },
              { label: t('voice.numberList.name'), render: (n) => n.friendly_name },
              { label: t('voice.numberDetail.country'), render: (n) => n.country },
              { label: t('voice.answererFields.answeredBy'), render: (n) => <AnsweredBy n={n} /> },
              { label: t('voice.numberDetail.greeting'), render: (n) => <span class="greeting">{n.answer.greeting ?? '—'}</span> },
              { label: t('voice.numberDetail.carrier'), render: (n) => <Badge tone={n.carrier === 'simulated' ? 'info' : 'neutral'}>{n.carrier}</Badge> },
              { label: t('voice.numberList.created'), render: (n) => <Time iso={n.created_at} /> },
            ]}
          />
        )}
      </PagedList>
      <Dialog open={provisioning} title={t('voice.numberList.provisionANumber')} onClose={() => setProvisioning(false)}>
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
