import { useState } from 'preact/hooks'
import { ok } from '../../api/client.js'
import { Badge, Dialog, Empty, Field, Page, PagedList, Table, Time, formatTime } from '../../ui/components.js'
import { usePaged } from '../../ui/hooks.js'
import { ACTOR_TYPES, isoOf, label, type ActorType, type AuditEntry } from './compliance.shared.js'
import { t } from '../../i18n/index.js'

interface Filters {
  actor_type: ActorType | ''
  actor_id: string
  action: string
  target_id: string
  from: string
  to: string
}
const NONE: Filters = { actor_type: '', actor_id: '', action: '', target_id: '', from: '', to: '' }

/** /dashboard/compliance/audit-log: every change, newest first, filtered; each entry's details in a dialog. */
export default function AuditLog() {
  const [draft, setDraft] = useState<Filters>(NONE)
  const [applied, setApplied] = useState<Filters>(NONE)
  const [open, setOpen] = useState<AuditEntry>()
  const log = usePaged(
    (api, cursor) =>
      ok(
        api.client.GET('/compliance/audit-log', {
          params: {
            query: {
              cursor,
              limit: 25,
              actor_type: applied.actor_type || undefined,
              actor_id: applied.actor_id.trim() || undefined,
              action: applied.action.trim() || undefined,
              target_id: applied.target_id.trim() || undefined,
              from: isoOf(applied.from),
              to: isoOf(applied.to),
            },
          },
        }),
      ),
    [applied],
  )
  const set = (k: keyof Filters) => (e: Event) => setDraft({ ...draft, [k]: (e.target as HTMLInputElement).value })
  return (
    <Page title={t('compliance.auditLog.auditLog')}>
      <form
        class="filters"
        role="search"
        aria-label={t('compliance.auditLog.filterTheAuditLog')}
        onSubmit={(e) => {
          e.preventDefault()
          setApplied({ ...draft })
        }}
      >
        <Field label={t('compliance.auditLog.actorType')}>
          {(id) => (
            <select id={id} value={draft.actor_type} onChange={set('actor_type')}>
              <option value="">{t('compliance.auditLog.any')}</option>
              {ACTOR_TYPES.map((t) => (
                <option value={t}>{label(t)}</option>
              ))}
            </select>
          )}
        </Field>
        <Field label={t('compliance.auditLog.actorId')}>{(id) => <input id={id} value={draft.actor_id} onInput={set('actor_id')} placeholder={t('compliance.auditLog.memOrKeyId')} />}</Field>
        <Field label={t('compliance.auditLog.action')}>{(id) => <input id={id} value={draft.action} onInput={set('action')} placeholder={t('compliance.auditLog.createlead')} />}</Field>
        <Field label={t('compliance.auditLog.targetId')}>{(id) => <input id={id} value={draft.target_id} onInput={set('target_id')} placeholder={t('compliance.auditLog.lead')} />}</Field>
        <Field label={t('compliance.auditLog.from')}>{(id) => <input id={id} type="datetime-local" value={draft.from} onInput={set('from')} />}</Field>
        <Field label={t('compliance.auditLog.to')}>{(id) => <input id={id} type="datetime-local" value={draft.to} onInput={set('to')} />}</Field>
        <div class="form-actions filter-actions">
          <button type="submit" class="primary">
            {t('compliance.auditLog.applyFilters')}
          </button>
          <button
            type="button"
            onClick={() => {
              setDraft(NONE)
              setApplied(NONE)
            }}
          >
            {t('compliance.auditLog.clear')}
          </button>
        </div>
      </form>
      <PagedList list={log} emptyView={<Empty title={t('compliance.auditLog.noEntries')}>{t('compliance.auditLog.noChangeMatchesTheseFilters')}</Empty>}>
        {(rows) => (
          <Table<AuditEntry>
            caption={t('compliance.auditLog.auditLogEntries')}
            rows={rows}
            rowKey={(a) => a.id}
            columns={[
              { label: t('compliance.auditLog.time'), render: (a) => <Time iso={a.occurred_at} /> },
              {
                label: t('compliance.auditLog.actor'),
                render: (a) => (
                  <>
                    <Badge tone={a.actor.type === 'member' ? 'info' : 'neutral'}>{label(a.actor.type)}</Badge> {a.actor.id && <code>{a.actor.id}</code>}
                  </>
                ),
              },
              { label: t('compliance.auditLog.action'), render: (a) => <code>{a.action}</code> },
              { label: t('compliance.auditLog.target'), render: (a) => (a.target.id ? <code>{a.target.id}</code> : (a.target.type ?? '—')) },
              {
                label: t('compliance.auditLog.details'),
                render: (a) => (
                  <button type="button" onClick={() => setOpen(a)} aria-label={t('compliance.auditLog.detailsOfActionAtOccurredat', { action: a.action, occurredAt: formatTime(a.occurred_at) })}>
                    {t('compliance.auditLog.details')}
                  </button>
                ),
              },
            ]}
          />
        )}
      </PagedList>
      <Dialog open={!!open} title={t('compliance.auditLog.auditEntry')} onClose={() => setOpen(undefined)}>
        {open && <EntryFacts a={open} />}
      </Dialog>
    </Page>
  )
}

const list = (xs: string[]) => (xs.length ? xs.join(', ') : '—')

function EntryFacts({ a }: { a: AuditEntry }) {
  return (
    <dl class="facts" data-testid="audit-entry">
      <dt>{t('compliance.auditLog.entry')}</dt>
      <dd>
        <code>{a.id}</code>
      </dd>
      <dt>{t('compliance.auditLog.when')}</dt>
      <dd>
        <Time iso={a.occurred_at} />
      </dd>
      <dt>{t('compliance.auditLog.actor')}</dt>
      <dd>
        {label(a.actor.type)} {a.actor.id && <code>{a.actor.id}</code>}
      </dd>
      <dt>{t('compliance.auditLog.action')}</dt>
      <dd>
        <code>{a.action}</code>
      </dd>
      <dt>{t('compliance.auditLog.target')}</dt>
      <dd>
        {a.target.type ?? '—'} {a.target.id && <code>{a.target.id}</code>}
      </dd>
      <dt>{t('compliance.auditLog.fieldsSet')}</dt>
      <dd>{list(a.fields)}</dd>
      <dt>{t('compliance.auditLog.events')}</dt>
      <dd>{list(a.events)}</dd>
      <dt>{t('compliance.auditLog.mode')}</dt>
      <dd>{t(a.livemode ? 'overview.mode.live' : 'overview.mode.test')}</dd>
      <dt>{t('compliance.auditLog.ip')}</dt>
      <dd>{a.ip ?? '—'}</dd>
      <dt>{t('compliance.auditLog.userAgent')}</dt>
      <dd class="wrap">{a.user_agent ?? '—'}</dd>
      <dt>{t('compliance.auditLog.requestId')}</dt>
      <dd>{a.request_id ? <code>{a.request_id}</code> : '—'}</dd>
      <dt>{t('compliance.auditLog.chain')}</dt>
      <dd class="wrap">
        {a.chain.seq == null ? (
          t('compliance.auditLog.notSealedYet')
        ) : (
          <>
            #{a.chain.seq} <code>{a.chain.hash}</code>
          </>
        )}
      </dd>
    </dl>
  )
}
