import { useLocation } from 'preact-iso'
import { useState } from 'preact/hooks'
import { ok } from '../../api/client.js'
import { Field, FormActions } from '../../ui/components.js'
import { useAction } from '../../ui/hooks.js'
import { useWorkspace } from '../../ui/workspace.js'
import { DSAR_TYPES, title, type DsarType } from './compliance.shared.js'
import { t, type MessageKey } from '../../i18n/index.js'

const HINT: Record<DsarType, MessageKey> = {
  access: 'compliance.dsarForm.hintAccess',
  erasure: 'compliance.dsarForm.hintErasure',
  rectification: 'compliance.dsarForm.hintRectification',
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
      <h2 id="dsar-new">{t('compliance.dsarForm.newRequest')}</h2>
      <Field label={t('compliance.dsarForm.requestType')} hint={t(HINT[type])}>
        {(id, hint) => (
          <select id={id} aria-describedby={hint} value={type} onChange={(e) => setType((e.target as HTMLSelectElement).value as DsarType)}>
            {DSAR_TYPES.map((x) => (
              <option value={x}>{title(x)}</option>
            ))}
          </select>
        )}
      </Field>
      <fieldset>
        <legend>{t('compliance.dsarForm.subjectAtLeastOne')}</legend>
        <Field label={t('compliance.dsarForm.subjectEmail')}>{(id) => <input id={id} type="email" autocomplete="off" value={f.email} onInput={set('email')} />}</Field>
        <Field label={t('compliance.dsarForm.subjectPhone')} hint={t('compliance.dsarForm.anyCommonFormStoredAs')}>
          {(id, hint) => <input id={id} type="tel" aria-describedby={hint} value={f.phone} onInput={set('phone')} />}
        </Field>
        <Field label={t('compliance.dsarForm.externalId')}>{(id) => <input id={id} value={f.external_id} onInput={set('external_id')} />}</Field>
      </fieldset>
      {type === 'rectification' && (
        <fieldset>
          <legend>{t('compliance.dsarDetail.corrections')}</legend>
          <Field label={t('compliance.dsarForm.correctName')}>{(id) => <input id={id} value={f.new_name} onInput={set('new_name')} />}</Field>
          <Field label={t('compliance.dsarForm.correctEmail')}>{(id) => <input id={id} type="email" value={f.new_email} onInput={set('new_email')} />}</Field>
          <Field label={t('compliance.dsarForm.correctPhone')}>{(id) => <input id={id} type="tel" value={f.new_phone} onInput={set('new_phone')} />}</Field>
        </fieldset>
      )}
      <Field label={t('compliance.dsarDetail.notes')}>{(id) => <textarea id={id} value={f.notes} onInput={set('notes')} />}</Field>
      <FormActions action={create} label={t('compliance.dsarForm.createRequest')} busyLabel={t('compliance.dsarForm.creating')} tone={type === 'erasure' ? 'danger' : 'primary'} />
    </form>
  )
}
