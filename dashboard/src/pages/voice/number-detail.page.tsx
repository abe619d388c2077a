import { useLocation, useRoute } from 'preact-iso'
import { useState } from 'preact/hooks'
import { ok } from '../../api/client.js'
import { Async, Badge, Empty, Notice, Page, PagedList, Time } from '../../ui/components.js'
import { usePaged, useResource } from '../../ui/hooks.js'
import { CallsTable } from './calls-table.js'
import { EditNumberDialog, ReleaseNumberDialog } from './number-edit.js'
import { AnsweredBy } from './voice.shared.js'
import { t } from '../../i18n/index.js'

export const NUMBERS = '/dashboard/voice/numbers'

/** /dashboard/voice/numbers/:id: a number's facts, edit (name, answerer, greeting), release, and its calls. */
export default function NumberDetail() {
  const { id } = useRoute().params as { id: string }
  const { route } = useLocation()
  const num = useResource((a) => ok(a.client.GET('/voice/numbers/{id}', { params: { path: { id } } })), [id])
  const calls = usePaged((a, cursor) => ok(a.client.GET('/voice/calls', { params: { query: { number_id: id, cursor, limit: 20 } } })), [id])
  const [editing, setEditing] = useState(false)
  const [releasing, setReleasing] = useState(false)
  const [saved, setSaved] = useState(false)
  return (
    <Page title={num.data?.phone_number ?? t('voice.callActions.phoneNumber')}>
      <p>
        <a href={NUMBERS}>{t('voice.numberDetail.allNumbers')}</a>
      </p>
      <Async loading={num.loading} error={num.error} data={num.data} onRetry={num.reload}>
        {(n) => (
          <>
            <section class="panel" aria-labelledby="number-facts">
              <h2 id="number-facts">{n.friendly_name}</h2>
              <dl class="facts">
                <dt>{t('voice.numberDetail.number')}</dt>
                <dd class="phone">{n.phone_number}</dd>
                <dt>{t('voice.answererFields.answeredBy')}</dt>
                <dd>
                  <AnsweredBy n={n} />
                </dd>
                <dt>{t('voice.numberDetail.greeting')}</dt>
                <dd class="greeting">{n.answer.greeting ?? <span class="muted">{t('voice.numberDetail.theAnswererSOwn')}</span>}</dd>
                <dt>{t('voice.numberDetail.country')}</dt>
                <dd>
                  {n.country}
                  {n.area_code && <span class="muted"> {t('voice.numberDetail.areaAreacode', { areaCode: n.area_code })}</span>}
                </dd>
                <dt>{t('voice.numberDetail.carrier')}</dt>
                <dd>
                  <Badge tone={n.carrier === 'simulated' ? 'info' : 'neutral'}>{n.carrier}</Badge>
                </dd>
                <dt>{t('voice.numberDetail.capabilities')}</dt>
                <dd>{[n.capabilities.voice && 'voice', n.capabilities.sms && 'SMS'].filter(Boolean).join(', ') || '—'}</dd>
                <dt>{t('voice.numberDetail.numberId')}</dt>
                <dd>
                  <code>{n.id}</code>
                </dd>
                <dt>{t('voice.numberDetail.provisioned')}</dt>
                <dd>
                  <Time iso={n.created_at} />
                </dd>
                <dt>{t('voice.numberDetail.updated')}</dt>
                <dd>
                  <Time iso={n.updated_at} />
                </dd>
              </dl>
              <div class="form-actions">
                <button type="button" onClick={() => (setSaved(false), setEditing(true))}>
                  {t('voice.numberDetail.edit')}
                </button>
                <button type="button" class="danger" onClick={() => (setSaved(false), setReleasing(true))}>
                  {t('voice.numberDetail.releaseNumber')}
                </button>
              </div>
            </section>
            {saved && <Notice>{t('voice.numberDetail.numberSaved')}</Notice>}
            <EditNumberDialog
              number={n}
              open={editing}
              onClose={() => setEditing(false)}
              onSaved={(next) => {
                num.set(next)
                setEditing(false)
                setSaved(true)
              }}
            />
            <ReleaseNumberDialog number={n} open={releasing} onClose={() => setReleasing(false)} onReleased={() => route(`${NUMBERS}?released=${encodeURIComponent(n.phone_number)}`)} />
          </>
        )}
      </Async>
      <section aria-labelledby="number-calls">
        <div class="page-head">
          <h2 id="number-calls">{t('voice.callList.calls')}</h2>
          <button type="button" onClick={calls.reload}>
            {t('voice.numberDetail.refresh')}
          </button>
        </div>
        <PagedList list={calls} emptyView={<Empty title={t('voice.numberDetail.noCallsFromOrTo')} />}>
          {(rows) => <CallsTable caption={t('voice.numberDetail.callsFromAndToThis')} rows={rows} />}
        </PagedList>
      </section>
    </Page>
  )
}
