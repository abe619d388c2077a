import { useState } from 'preact/hooks'
import { ok } from '../../api/client.js'
import { Field, FormActions } from '../../ui/components.js'
import { useAction } from '../../ui/hooks.js'
import { useWorkspace } from '../../ui/workspace.js'
import { AnswererFields, type Answerer } from './answerer-fields.js'
import type { VoiceNumber } from './voice.shared.js'
import { locale, t } from '../../i18n/index.js'

// The simulated carrier's countries; a live Twilio account may offer more, so the field stays free text.
const COUNTRIES = ['US', 'CA', 'GB', 'AU']
// The country's name in the reader's language.
const countryName = (code: string): string => new Intl.DisplayNames([locale()], { type: 'region' }).of(code) ?? code

/** The provisioning form: country, optional area code and name, and what answers inbound calls. */
export function ProvisionNumber({ onDone, onCancel }: { onDone: (n: VoiceNumber) => void; onCancel: () => void }) {
  const { api } = useWorkspace()
  const [f, setF] = useState({ country: 'US', area_code: '', friendly_name: '', greeting: '', answerer: 'greeting' as Answerer, answerer_id: '' })
  const set = (k: keyof typeof f) => (e: Event) => setF({ ...f, [k]: (e.target as HTMLInputElement).value })
  const provision = useAction(async () => {
    const t = (s: string) => s.trim() || undefined
    const id = f.answerer === 'greeting' ? undefined : t(f.answerer_id)
    const body = {
      country: f.country.trim().toUpperCase(),
      area_code: t(f.area_code),
      friendly_name: t(f.friendly_name),
      greeting: t(f.greeting),
      bot_id: f.answerer === 'bot' ? id : undefined,
      agent_id: f.answerer === 'agent' ? id : undefined,
    }
    onDone(await ok(api.client.POST('/voice/numbers', { body })))
  })
  return (
    <form
      onSubmit={(e) => {
        e.preventDefault()
        void provision.run()
      }}
    >
      <Field label={t('voice.numberDetail.country')} hint={t('voice.provisionNumber.isoCodeEGUs')}>
        {(id, hint) => (
          <>
            <input id={id} required maxLength={2} autocomplete="off" list={`${id}-list`} aria-describedby={hint} value={f.country} onInput={set('country')} />
            <datalist id={`${id}-list`}>
              {COUNTRIES.map((code) => (
                <option value={code}>{countryName(code)}</option>
              ))}
            </datalist>
          </>
        )}
      </Field>
      <Field label={t('voice.provisionNumber.areaCodeOptional')} hint={t('voice.provisionNumber.nanpAreaCodeForUs')}>
        {(id, hint) => <input id={id} inputMode="numeric" maxLength={6} aria-describedby={hint} value={f.area_code} onInput={set('area_code')} />}
      </Field>
      <Field label={t('voice.provisionNumber.friendlyNameOptional')}>{(id) => <input id={id} maxLength={100} value={f.friendly_name} onInput={set('friendly_name')} />}</Field>
      <AnswererFields answerer={f.answerer} answererId={f.answerer_id} onChange={(answerer, answerer_id) => setF({ ...f, answerer, answerer_id })} />
      <Field label={t('voice.provisionNumber.greetingOptional')} hint={t('voice.provisionNumber.theFirstWordsSpokenWhen')}>
        {(id, hint) => <textarea id={id} maxLength={500} aria-describedby={hint} value={f.greeting} onInput={set('greeting')} />}
      </Field>
      <FormActions action={provision} label={t('voice.numberList.provisionNumber')} busyLabel={t('voice.provisionNumber.provisioning')} onCancel={onCancel} />
    </form>
  )
}
