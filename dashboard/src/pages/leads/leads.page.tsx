import { useLocation } from 'preact-iso'
import { useState } from 'preact/hooks'
import { ok } from '../../api/client.js'
import type { components } from '../../api/schema.js'
import { Dialog, Empty, Field, Page, PagedList, Table, Time } from '../../ui/components.js'
import { usePaged } from '../../ui/hooks.js'
import type { Lead, LeadStatus } from './common.js'
import { ScoreBadge, STATUSES, StatusBadge } from './common.js'
import { LeadForm } from './lead-form.js'
import { statusLabel, t } from '../../i18n/index.js'

type Source = components['schemas']['LeadSource']
interface Filters {
  status: LeadStatus | ''
  source: Source | ''
  min: string
  max: string
  email: string
}
const NONE: Filters = { status: '', source: '', min: '', max: '', email: '' }

/** /dashboard/leads: leads, newest first, filtered by status, source, score range and email; a new lead in a dialog. */
export default function Leads() {
  const [draft, setDraft] = useState<Filters>(NONE)
  const [filters, setFilters] = useState<Filters>(NONE)
  const list = usePaged<Lead>(
    (a, cursor) =>
      ok(
        a.client.GET('/leads', {
          params: {
            query: {
              cursor,
              ...(filters.status ? { status: filters.status } : {}),
              ...(filters.source ? { source: filters.source } : {}),
              ...(filters.min !== '' ? { min_score: Number(filters.min) } : {}),
              ...(filters.max !== '' ? { max_score: Number(filters.max) } : {}),
              ...(filters.email.trim() ? { email: filters.email.trim() } : {}),
            },
          },
        }),
      ),
    [filters],
  )
  const { route } = useLocation()
  const [creating, setCreating] = useState(false)
  const set = (k: keyof Filters) => (e: { currentTarget: { value: string } }) => setDraft((d) => ({ ...d, [k]: e.currentTarget.value }))
  return (
    <Page
      title={t('leads.leads.leads')}
      actions={
        <button type="button" class="primary" onClick={() => setCreating(true)}>
          {t('leads.leadForm.newLead')}
        </button>
      }
    >
      <Dialog open={creating} title={t('leads.leadForm.newLead')} onClose={() => setCreating(false)}>
        <LeadForm
          onSaved={(l) => {
            setCreating(false)
            route(`/dashboard/leads/${l.id}`)
          }}
        />
      </Dialog>
      <form
        class="filters"
        aria-label={t('leads.leads.filterLeads')}
        onSubmit={(e) => {
          e.preventDefault()
          setFilters(draft)
        }}
      >
        <Field label={t('leads.leadPanels.status')}>
          {(id) => (
            <select id={id} value={draft.status} onChange={set('status')}>
              <option value="">{t('leads.leads.any')}</option>
              {STATUSES.map((s) => (
                <option value={s}>{statusLabel(s)}</option>
              ))}
            </select>
          )}
        </Field>
        <Field label={t('leads.leadForm.source')}>
          {(id) => (
            <select id={id} value={draft.source} onChange={set('source')}>
              <option value="">{t('leads.leads.any')}</option>
              {(['conversation', 'bot', 'voice_call', 'api', 'import'] as const).map((s) => (
                <option value={s}>{s.replace('_', ' ')}</option>
              ))}
            </select>
          )}
        </Field>
        <Field label={t('leads.leads.minScore')}>{(id) => <input id={id} type="number" min={0} max={100} size={4} value={draft.min} onInput={set('min')} />}</Field>
        <Field label={t('leads.leads.maxScore')}>{(id) => <input id={id} type="number" min={0} max={100} size={4} value={draft.max} onInput={set('max')} />}</Field>
        <Field label={t('leads.leadForm.email')}>{(id) => <input id={id} type="email" value={draft.email} onInput={set('email')} />}</Field>
        <div class="form-actions">
          <button type="submit" class="primary">
            {t('leads.leads.applyFilters')}
          </button>
          <button
            type="button"
            onClick={() => {
              setDraft(NONE)
              setFilters(NONE)
            }}
          >
            {t('leads.leads.clear')}
          </button>
        </div>
      </form>
      <PagedList list={list} emptyView={<Empty title={t('leads.leads.noLeadsMatch')}>{t('leads.leads.leadsComeFromConversationsBots')}</Empty>}>
        {(rows) => (
          <Table
            caption={t('leads.leads.leads')}
            rows={rows}
            rowKey={(l) => l.id}
            columns={[
              {
                label: t('leads.lead.lead'),
                render: (l) => (
                  <>
                    <a href={`/dashboard/leads/${l.id}`}>{l.name ?? l.email ?? l.id}</a>
                    {l.email && l.name && <p class="hint">{l.email}</p>}
                  </>
                ),
              },
              { label: t('leads.leadForm.company'), render: (l) => l.company ?? '—' },
              { label: t('leads.leadPanels.score'), class: 'num', render: (l) => <ScoreBadge score={l.score.score} /> },
              { label: t('leads.leadPanels.status'), render: (l) => <StatusBadge status={l.status} /> },
              { label: t('leads.leadForm.source'), render: (l) => l.source.replace('_', ' ') },
              { label: t('leads.leads.crm'), render: (l) => <StatusBadge status={l.crm.sync_status} /> },
              { label: t('leads.leads.updated'), render: (l) => <Time iso={l.updated_at} /> },
            ]}
          />
        )}
      </PagedList>
    </Page>
  )
}
