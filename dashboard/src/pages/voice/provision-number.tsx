import { useState } from 'preact/hooks'
import { ok } from '../../api/client.js'
import { Field, FormActions } from '../../ui/components.js'
import { useAction } from '../../ui/hooks.js'
import { useWorkspace } from '../../ui/workspace.js'
import { AnswererFields, type Answerer } from './answerer-fields.js'
import type { VoiceNumber } from './voice.shared.js'

// The simulated carrier's countries; a live Twilio account may offer more, so the field stays free text.
const COUNTRIES: [string, string][] = [
  ['US', 'United States'],
  ['CA', 'Canada'],
  ['GB', 'United Kingdom'],
  ['AU', 'Australia'],
]

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
      <Field label="Country" hint="ISO code, e.g. US. The simulated carrier has US, CA, GB and AU.">
        {(id, hint) => (
          <>
            <input id={id} required maxLength={2} autocomplete="off" list={`${id}-list`} aria-describedby={hint} value={f.country} onInput={set('country')} />
            <datalist id={`${id}-list`}>
              {COUNTRIES.map(([code, name]) => (
                <option value={code}>{name}</option>
              ))}
            </datalist>
          </>
        )}
      </Field>
      <Field label="Area code (optional)" hint="NANP area code for US and CA (e.g. 415), or the national one.">
        {(id, hint) => <input id={id} inputMode="numeric" maxLength={6} aria-describedby={hint} value={f.area_code} onInput={set('area_code')} />}
      </Field>
      <Field label="Friendly name (optional)">{(id) => <input id={id} maxLength={100} value={f.friendly_name} onInput={set('friendly_name')} />}</Field>
      <AnswererFields answerer={f.answerer} answererId={f.answerer_id} onChange={(answerer, answerer_id) => setF({ ...f, answerer, answerer_id })} />
      <Field label="Greeting (optional)" hint="The first words spoken when a call is answered (at most 500 characters).">
        {(id, hint) => <textarea id={id} maxLength={500} aria-describedby={hint} value={f.greeting} onInput={set('greeting')} />}
      </Field>
      <FormActions action={provision} label="Provision number" busyLabel="Provisioning…" onCancel={onCancel} />
    </form>
  )
}
