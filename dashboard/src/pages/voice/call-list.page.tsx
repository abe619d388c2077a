import { useState } from 'preact/hooks'
import { ok } from '../../api/client.js'
import { Empty, Field, Page, PagedList } from '../../ui/components.js'
import { usePaged } from '../../ui/hooks.js'
import { CallsTable } from './calls-table.js'
import { CALL_STATUSES, statusLabel, type CallStatus } from './voice.shared.js'
import { t } from '../../i18n/index.js'

type Direction = 'inbound' | 'outbound'

/** /dashboard/voice: the calls, newest first, filtered by status and direction. */
export default function CallList() {
  const [status, setStatus] = useState<CallStatus | ''>('')
  const [direction, setDirection] = useState<Direction | ''>('')
  const calls = usePaged(
    (api, cursor) => ok(api.client.GET('/voice/calls', { params: { query: { cursor, limit: 20, status: status || undefined, direction: direction || undefined } } })),
    [status, direction],
  )
  return (
    <Page title={t('voice.callList.calls')}>
      <div class="filters" role="search" aria-label={t('voice.callList.filterCalls')}>
        <Field label={t('voice.callDetail.status')}>
          {(id) => (
            <select id={id} value={status} onChange={(e) => setStatus((e.target as HTMLSelectElement).value as CallStatus | '')}>
              <option value="">{t('voice.callList.anyStatus')}</option>
              {CALL_STATUSES.map((s) => (
                <option value={s}>{statusLabel(s)}</option>
              ))}
            </select>
          )}
        </Field>
        <Field label={t('voice.callDetail.direction')}>
          {(id) => (
            <select id={id} value={direction} onChange={(e) => setDirection((e.target as HTMLSelectElement).value as Direction | '')}>
              <option value="">{t('voice.callList.both')}</option>
              <option value="outbound">{t('voice.callDetail.outbound')}</option>
              <option value="inbound">{t('voice.callDetail.inbound')}</option>
            </select>
          )}
        </Field>
      </div>
      <PagedList
        list={calls}
        emptyView={
          <Empty title={t('voice.callList.noCallsYet')}>
            {t('voice.callList.callsPlacedWith')} <code>{t('voice.callList.postVoiceCalls')}</code> {t('voice.callList.andCallsToYourNumbers')}
          </Empty>
        }
      >
        {(rows) => <CallsTable caption={t('voice.callList.calls')} rows={rows} />}
      </PagedList>
    </Page>
  )
}
