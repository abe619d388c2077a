import { useLocation } from 'preact-iso'
import { useState } from 'preact/hooks'
import { ok } from '../../api/client.js'
import type { components } from '../../api/schema.js'
import { Dialog, Empty, Field, Page, PagedList, Table, Time } from '../../ui/components.js'
import { usePaged } from '../../ui/hooks.js'
import type { Lead, LeadStatus } from './common.js'
import { ScoreBadge, STATUSES, StatusBadge } from './common.js'
import { LeadForm } from './lead-form.js'

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
      title="Leads"
      actions={
        <button type="button" class="primary" onClick={() => setCreating(true)}>
          New lead
        </button>
      }
    >
      <Dialog open={creating} title="New lead" onClose={() => setCreating(false)}>
        <LeadForm
          onSaved={(l) => {
            setCreating(false)
            route(`/dashboard/leads/${l.id}`)
          }}
        />
      </Dialog>
      <form
        class="filters"
        aria-label="Filter leads"
        onSubmit={(e) => {
          e.preventDefault()
          setFilters(draft)
        }}
      >
        <Field label="Status">
          {(id) => (
            <select id={id} value={draft.status} onChange={set('status')}>
              <option value="">Any</option>
              {STATUSES.map((s) => (
                <option value={s}>{s}</option>
              ))}
            </select>
          )}
        </Field>
        <Field label="Source">
          {(id) => (
            <select id={id} value={draft.source} onChange={set('source')}>
              <option value="">Any</option>
              {(['conversation', 'bot', 'voice_call', 'api', 'import'] as const).map((s) => (
                <option value={s}>{s.replace('_', ' ')}</option>
              ))}
            </select>
          )}
        </Field>
        <Field label="Min score">{(id) => <input id={id} type="number" min={0} max={100} size={4} value={draft.min} onInput={set('min')} />}</Field>
        <Field label="Max score">{(id) => <input id={id} type="number" min={0} max={100} size={4} value={draft.max} onInput={set('max')} />}</Field>
        <Field label="Email">{(id) => <input id={id} type="email" value={draft.email} onInput={set('email')} />}</Field>
        <div class="form-actions">
          <button type="submit" class="primary">
            Apply filters
          </button>
          <button
            type="button"
            onClick={() => {
              setDraft(NONE)
              setFilters(NONE)
            }}
          >
            Clear
          </button>
        </div>
      </form>
      <PagedList list={list} emptyView={<Empty title="No leads match">Leads come from conversations, bots, calls and the API.</Empty>}>
        {(rows) => (
          <Table
            caption="Leads"
            rows={rows}
            rowKey={(l) => l.id}
            columns={[
              {
                label: 'Lead',
                render: (l) => (
                  <>
                    <a href={`/dashboard/leads/${l.id}`}>{l.name ?? l.email ?? l.id}</a>
                    {l.email && l.name && <p class="hint">{l.email}</p>}
                  </>
                ),
              },
              { label: 'Company', render: (l) => l.company ?? '—' },
              { label: 'Score', class: 'num', render: (l) => <ScoreBadge score={l.score.score} /> },
              { label: 'Status', render: (l) => <StatusBadge status={l.status} /> },
              { label: 'Source', render: (l) => l.source.replace('_', ' ') },
              { label: 'CRM', render: (l) => <StatusBadge status={l.crm.sync_status} /> },
              { label: 'Updated', render: (l) => <Time iso={l.updated_at} /> },
            ]}
          />
        )}
      </PagedList>
    </Page>
  )
}
