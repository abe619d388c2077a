import { useState } from 'preact/hooks'
import { ok } from '../../api/client.js'
import { Empty, Field, Page, PagedList } from '../../ui/components.js'
import { usePaged, usePoll } from '../../ui/hooks.js'
import { mergeFirstPage, useLiveRefresh, useThrottled } from '../../ui/live-lists.js'
import { LiveState } from '../../ui/live-state.js'
import { useWorkspace } from '../../ui/workspace.js'
import { DeliveriesTable, type DeliveryStatus } from './webhooks-shared.js'
import { t } from '../../i18n/index.js'

interface Filters {
  status: '' | DeliveryStatus
  event_type: string
  endpoint_id: string
}
const NONE: Filters = { status: '', event_type: '', endpoint_id: '' }

/** /dashboard/developers/deliveries: every webhook delivery, filtered by status, event type and endpoint. */
export default function WebhookDeliveries() {
  const [draft, setDraft] = useState<Filters>(NONE)
  const [applied, setApplied] = useState<Filters>(NONE)
  const { api } = useWorkspace()
  const load = (a: typeof api, cursor: string | undefined) =>
    ok(
      a.client.GET('/webhooks/deliveries', {
        params: {
          query: {
            cursor,
            limit: 50,
            ...(applied.status ? { status: applied.status } : {}),
            ...(applied.event_type.trim() ? { event_type: applied.event_type.trim() } : {}),
            ...(applied.endpoint_id.trim() ? { endpoint_id: applied.endpoint_id.trim() } : {}),
          },
        },
      }),
    )
  const list = usePaged(load, [applied])
  // Live: every event may have made deliveries, and a pending one changes as it is attempted (no event of
  // its own): the first page is read again on each event and every second while one shown is pending.
  const refresh = useThrottled(
    () =>
      void load(api, undefined).then(
        (p) => list.setItems((xs) => mergeFirstPage(xs, p.data)),
        () => undefined,
      ),
    500,
  )
  useLiveRefresh(list, ['*'], refresh)
  usePoll(
    list.items.some((d) => d.status === 'pending'),
    refresh,
    1000,
  )
  const set = (k: keyof Filters) => (e: { currentTarget: { value: string } }) => setDraft({ ...draft, [k]: e.currentTarget.value })
  const filtered = applied.status || applied.event_type || applied.endpoint_id
  return (
    <Page title={t('developers.deliveriesList.webhookDeliveries')}>
      <p class="live-line">
        <LiveState />
      </p>
      <form
        class="filters"
        role="search"
        aria-label={t('developers.deliveriesList.filterDeliveries')}
        onSubmit={(e) => {
          e.preventDefault()
          setApplied(draft)
        }}
      >
        <Field label={t('developers.deliveriesDetail.status')}>
          {(id) => (
            <select id={id} value={draft.status} onChange={set('status')}>
              <option value="">{t('developers.deliveriesList.any')}</option>
              <option value="pending">{t('developers.deliveriesList.pending')}</option>
              <option value="succeeded">{t('developers.deliveriesList.succeeded')}</option>
              <option value="failed">{t('developers.deliveriesList.failed')}</option>
            </select>
          )}
        </Field>
        <Field label={t('developers.deliveriesList.eventType')}>{(id) => <input id={id} placeholder="webhook.test" value={draft.event_type} onInput={set('event_type')} />}</Field>
        <Field label={t('developers.deliveriesList.endpointId')}>
          {(id) => <input id={id} placeholder={t('developers.deliveriesList.we')} value={draft.endpoint_id} onInput={set('endpoint_id')} />}
        </Field>
        <button type="submit" class="primary">
          {t('developers.deliveriesList.applyFilters')}
        </button>
        {filtered && (
          <button
            type="button"
            onClick={() => {
              setDraft(NONE)
              setApplied(NONE)
            }}
          >
            {t('developers.deliveriesList.clear')}
          </button>
        )}
      </form>
      <PagedList list={list} emptyView={<Empty title={filtered ? t('developers.deliveriesList.noDeliveryMatchesTheseFilters') : t('developers.deliveriesList.noDeliveriesYet')} />}>
        {(rows) => <DeliveriesTable caption={t('developers.deliveriesList.webhookDeliveries')} rows={rows} />}
      </PagedList>
    </Page>
  )
}
