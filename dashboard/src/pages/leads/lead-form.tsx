import { useState } from 'preact/hooks'
import { ok } from '../../api/client.js'
import type { components } from '../../api/schema.js'
import { Field, FormActions, ProblemView } from '../../ui/components.js'
import { useAction, useResource } from '../../ui/hooks.js'
import { useWorkspace } from '../../ui/workspace.js'
import type { Lead } from './common.js'
import { t } from '../../i18n/index.js'

type CreateBody = components['requestBodies']['CreateLeadBody']['content']['application/json']
type Source = components['schemas']['LeadSource']
type Properties = NonNullable<CreateBody['properties']>
const SOURCES: Source[] = ['api', 'conversation', 'bot', 'voice_call', 'import']

interface Draft {
  name: string
  email: string
  phone: string
  company: string
  title: string
  owner: string
  tags: string
  properties: string
  source: Source
  sourceId: string
}
const draftOf = (l?: Lead): Draft => ({
  name: l?.name ?? '',
  email: l?.email ?? '',
  phone: l?.phone ?? '',
  company: l?.company ?? '',
  title: l?.title ?? '',
  owner: l?.owner_id ?? '',
  tags: l?.tags.join(', ') ?? '',
  properties: l && Object.keys(l.properties).length ? JSON.stringify(l.properties, null, 2) : '',
  source: 'api',
  sourceId: '',
})

/** Empty text is null: on an edit that clears the field. */
const text = (s: string) => (s.trim() ? s.trim() : null)

/**
 * Creates a lead (lead undefined) or edits one. The API checks the email, phone, owner and properties and
 * its problem is shown as it words it; a duplicate email is 409 with the lead that has it, linked here.
 */
export function LeadForm({ lead, onSaved }: { lead?: Lead; onSaved: (l: Lead) => void }) {
  const { api, membership } = useWorkspace()
  const [d, setD] = useState<Draft>(() => draftOf(lead))
  const [jsonError, setJsonError] = useState<string>()
  const members = useResource((a) => ok(a.client.GET('/workspaces/{id}/members', { params: { path: { id: membership.workspace_id }, query: { limit: 100 } } })), [membership.workspace_id])
  const set = (k: keyof Draft) => (e: { currentTarget: { value: string } }) => setD((x) => ({ ...x, [k]: e.currentTarget.value }))
  const save = useAction(async () => {
    let properties: Properties | undefined
    setJsonError(undefined)
    if (d.properties.trim()) {
      try {
        properties = JSON.parse(d.properties) as Properties
      } catch (e) {
        setJsonError(t('leads.leadForm.propertiesAreNotValidJson', { value: e instanceof Error ? e.message : String(e) }))
        return
      }
    }
    const fields = {
      name: text(d.name),
      email: text(d.email),
      phone: text(d.phone),
      company: text(d.company),
      title: text(d.title),
      owner_id: text(d.owner),
      tags: d.tags
        .split(',')
        .map((t) => t.trim())
        .filter(Boolean),
      ...(properties ? { properties } : lead ? { properties: {} } : {}),
    }
    onSaved(
      lead
        ? await ok(api.client.PATCH('/leads/{id}', { params: { path: { id: lead.id } }, body: fields }))
        : await ok(api.client.POST('/leads', { body: { ...fields, source: d.source, ...(d.sourceId.trim() ? { source_id: d.sourceId.trim() } : {}) } })),
    )
  })
  const existing = save.error?.code === 'lead_already_exists' ? save.error.extension('existing_id') : undefined
  return (
    <form
      aria-label={lead ? t('leads.leadForm.editLead') : t('leads.leadForm.newLead')}
      onSubmit={(e) => {
        e.preventDefault()
        void save.run()
      }}
    >
      <div class="lead-grid">
        <Field label={t('leads.leadForm.name')}>{(id) => <input id={id} value={d.name} onInput={set('name')} />}</Field>
        <Field label={t('leads.leadForm.email')} hint={t('leads.leadForm.oneLeadPerEmail')}>
          {(id, hint) => <input id={id} aria-describedby={hint} type="email" value={d.email} onInput={set('email')} />}
        </Field>
        <Field label={t('leads.leadForm.phone')} hint={t('leads.leadForm.withItsCountryCodeE')}>
          {(id, hint) => <input id={id} aria-describedby={hint} type="tel" value={d.phone} onInput={set('phone')} />}
        </Field>
        <Field label={t('leads.leadForm.company')}>{(id) => <input id={id} value={d.company} onInput={set('company')} />}</Field>
        <Field label={t('leads.leadForm.jobTitle')}>{(id) => <input id={id} value={d.title} onInput={set('title')} />}</Field>
        <Field label={t('leads.leadForm.owner')}>
          {(id) => (
            <select id={id} value={d.owner} onChange={set('owner')}>
              <option value="">{t('leads.leadForm.nobody')}</option>
              {(members.data?.data ?? [])
                .filter((m) => m.status === 'active' || m.id === d.owner)
                .map((m) => (
                  <option value={m.id}>{m.name ? `${m.name} (${m.email})` : m.email}</option>
                ))}
            </select>
          )}
        </Field>
      </div>
      {members.error && <ProblemView problem={members.error} onRetry={members.reload} />}
      <Field label={t('leads.leadForm.tags')} hint={t('leads.leadForm.commaSeparatedUpTo20')}>
        {(id, hint) => <input id={id} aria-describedby={hint} value={d.tags} onInput={set('tags')} />}
      </Field>
      <Field label={t('leads.leadForm.propertiesJson')} hint={t('leads.leadForm.upTo50CustomProperties')}>
        {(id, hint) => <textarea id={id} aria-describedby={hint} class="lead-json" spellcheck={false} value={d.properties} onInput={set('properties')} />}
      </Field>
      {!lead && (
        <div class="lead-grid">
          <Field label={t('leads.leadForm.source')}>
            {(id) => (
              <select id={id} value={d.source} onChange={set('source')}>
                {SOURCES.map((s) => (
                  <option value={s}>{s.replace('_', ' ')}</option>
                ))}
              </select>
            )}
          </Field>
          <Field label={t('leads.leadForm.sourceId')} hint={t('leads.leadForm.withSourceConversationItsConv')}>
            {(id, hint) => <input id={id} aria-describedby={hint} value={d.sourceId} onInput={set('sourceId')} />}
          </Field>
        </div>
      )}
      {jsonError && (
        <p class="state problem" role="alert">
          <strong>{t('leads.leadForm.notSent')}</strong>: {jsonError}
        </p>
      )}
      {save.error && <ProblemView problem={save.error} />}
      {existing && (
        <p>
          <a href={`/dashboard/leads/${existing}`}>{t('leads.leadForm.openTheLeadThatHas')}</a>
        </p>
      )}
      <FormActions action={save} label={lead ? t('leads.leadForm.saveLead') : t('leads.leadForm.createLead')} busyLabel={t('leads.leadForm.saving')} showProblem={false} />
    </form>
  )
}
