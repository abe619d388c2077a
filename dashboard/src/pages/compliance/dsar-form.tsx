import { useLocation } from 'preact-iso'
import { useState } from 'preact/hooks'
import { ok } from '../../api/client.js'
import { Field, FormActions } from '../../ui/components.js'
import { useAction } from '../../ui/hooks.js'
import { useWorkspace } from '../../ui/workspace.js'
import { DSAR_TYPES, title, type DsarType } from './compliance.shared.js'

const HINT: Record<DsarType, string> = {
  access: 'Finds everything held about the subject; then export it as a ZIP.',
  erasure: 'Erases the subject’s data in every module. This cannot be undone.',
  rectification: 'Corrects the subject’s name, email or phone where modules hold them.',
}

/** A new data-subject request: its type, the subject's identifiers, and (rectification) the corrections. */
export function DsarForm() {
  const { api } = useWorkspace()
  const { route } = useLocation()
  const [type, setType] = useState<DsarType>('access')
  const [f, setF] = useState({ email: '', phone: '', external_id: '', notes: '', new_name: '', new_email: '', new_phone: '' })
  const set = (k: keyof typeof f) => (e: Event) => setF({ ...f, [k]: (e.target as HTMLInputElement).value })
  const create = useAction(async () => {
    const t = (s: string) => s.trim() || undefined
    const changes = type === 'rectification' ? { name: t(f.new_name), email: t(f.new_email), phone: t(f.new_phone) } : undefined
    const dsar = await ok(
      api.client.POST('/compliance/dsar', {
        body: { type, subject: { email: t(f.email), phone: t(f.phone), external_id: t(f.external_id) }, notes: t(f.notes), changes },
      }),
    )
    route(`/dashboard/compliance/dsar/${dsar.id}?created=1`)
  })
  return (
    <form
      class="panel"
      aria-labelledby="dsar-new"
      onSubmit={(e) => {
        e.preventDefault()
        void create.run()
      }}
    >
      <h2 id="dsar-new">New request</h2>
      <Field label="Request type" hint={HINT[type]}>
        {(id, hint) => (
          <select id={id} aria-describedby={hint} value={type} onChange={(e) => setType((e.target as HTMLSelectElement).value as DsarType)}>
            {DSAR_TYPES.map((x) => (
              <option value={x}>{title(x)}</option>
            ))}
          </select>
        )}
      </Field>
      <fieldset>
        <legend>Subject (at least one)</legend>
        <Field label="Subject email">{(id) => <input id={id} type="email" autocomplete="off" value={f.email} onInput={set('email')} />}</Field>
        <Field label="Subject phone" hint="Any common form; stored as E.164.">
          {(id, hint) => <input id={id} type="tel" aria-describedby={hint} value={f.phone} onInput={set('phone')} />}
        </Field>
        <Field label="External id">{(id) => <input id={id} value={f.external_id} onInput={set('external_id')} />}</Field>
      </fieldset>
      {type === 'rectification' && (
        <fieldset>
          <legend>Corrections</legend>
          <Field label="Correct name">{(id) => <input id={id} value={f.new_name} onInput={set('new_name')} />}</Field>
          <Field label="Correct email">{(id) => <input id={id} type="email" value={f.new_email} onInput={set('new_email')} />}</Field>
          <Field label="Correct phone">{(id) => <input id={id} type="tel" value={f.new_phone} onInput={set('new_phone')} />}</Field>
        </fieldset>
      )}
      <Field label="Notes">{(id) => <textarea id={id} value={f.notes} onInput={set('notes')} />}</Field>
      <FormActions action={create} label="Create request" busyLabel="Creating…" tone={type === 'erasure' ? 'danger' : 'primary'} />
    </form>
  )
}
