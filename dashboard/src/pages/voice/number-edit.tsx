import { useEffect, useState } from 'preact/hooks'
import { ok } from '../../api/client.js'
import type { components } from '../../api/schema.js'
import { Dialog, Field, FormActions } from '../../ui/components.js'
import { useAction } from '../../ui/hooks.js'
import { useWorkspace } from '../../ui/workspace.js'
import { AnswererFields, type Answerer } from './answerer-fields.js'
import type { VoiceNumber } from './voice.shared.js'
import { t } from '../../i18n/index.js'

type Patch = NonNullable<components['requestBodies']['UpdateVoiceNumberBody']>['content']['application/json']

interface Form {
  friendly_name: string
  answerer: Answerer
  answerer_id: string
  greeting: string
}

const formOf = (n: VoiceNumber): Form => ({ friendly_name: n.friendly_name, answerer: n.answer.type, answerer_id: n.answer.id ?? '', greeting: n.answer.greeting ?? '' })

/**
 * Only what the form changed: the API treats bot_id and agent_id as "replace the other", null as "drop the
 * one in use", and a rename of a Twilio number also goes to Twilio (which may refuse), so an untouched field
 * is better left out than sent back as it was.
 */
function patchOf(n: VoiceNumber, f: Form): Patch {
  const body: Patch = {}
  const name = f.friendly_name.trim()
  if (name !== n.friendly_name) body.friendly_name = name
  const { type, id } = n.answer
  if (f.answerer === 'greeting') {
    if (type === 'bot') body.bot_id = null
    if (type === 'agent') body.agent_id = null
  } else if (f.answerer !== type || f.answerer_id !== id) {
    if (f.answerer === 'bot') body.bot_id = f.answerer_id
    else body.agent_id = f.answerer_id
  }
  const greeting = f.greeting.trim() || null
  if (greeting !== n.answer.greeting) body.greeting = greeting
  return body
}

/** Rename the number, change what answers it and its greeting (calls already answered keep theirs). */
export function EditNumberDialog({ number, open, onClose, onSaved }: { number: VoiceNumber; open: boolean; onClose: () => void; onSaved: (n: VoiceNumber) => void }) {
  const { api } = useWorkspace()
  const [f, setF] = useState<Form>(() => formOf(number))
  // Filled from the number each time the dialog opens; while it is open, a refused save keeps what was typed.
  useEffect(() => {
    if (open) setF(formOf(number))
  }, [open])
  const save = useAction(async () => {
    const body = patchOf(number, f)
    onSaved(Object.keys(body).length === 0 ? number : await ok(api.client.PATCH('/voice/numbers/{id}', { params: { path: { id: number.id } }, body })))
  })
  const close = () => {
    save.clear()
    onClose()
  }
  return (
    <Dialog open={open} title={t('voice.numberEdit.editTheNumber')} onClose={close}>
      <form
        onSubmit={(e) => {
          e.preventDefault()
          void save.run()
        }}
      >
        <Field label={t('voice.numberEdit.friendlyName')}>
          {(id) => <input id={id} required maxLength={100} value={f.friendly_name} onInput={(e) => setF({ ...f, friendly_name: e.currentTarget.value })} />}
        </Field>
        <AnswererFields answerer={f.answerer} answererId={f.answerer_id} keep={number.answer.id} onChange={(answerer, answerer_id) => setF({ ...f, answerer, answerer_id })} />
        <Field label={t('voice.numberDetail.greeting')} hint={t('voice.numberEdit.theFirstWordsSpokenWhen')}>
          {(id, hint) => <textarea id={id} maxLength={500} aria-describedby={hint} value={f.greeting} onInput={(e) => setF({ ...f, greeting: e.currentTarget.value })} />}
        </Field>
        <p class="hint">{t('voice.numberEdit.callsFromNowOnUse')}</p>
        <FormActions action={save} label={t('voice.numberEdit.saveChanges')} busyLabel={t('voice.numberEdit.saving')} onCancel={close} />
      </form>
    </Dialog>
  )
}

/** Asks first: a released number goes back to the carrier for good; its past calls stay. */
export function ReleaseNumberDialog({ number, open, onClose, onReleased }: { number: VoiceNumber; open: boolean; onClose: () => void; onReleased: () => void }) {
  const { api } = useWorkspace()
  const release = useAction(async () => {
    await ok(api.client.DELETE('/voice/numbers/{id}', { params: { path: { id: number.id } } }))
    onReleased()
  })
  const close = () => {
    release.clear()
    onClose()
  }
  return (
    <Dialog open={open} title={t('voice.numberEdit.releaseThisNumber')} onClose={close}>
      <p>
        <span class="phone">{number.phone_number}</span> {t('voice.numberEdit.friendlynameIsGivenBackTo', { friendlyName: number.friendly_name })}
        {number.carrier === 'twilio' ? t('voice.numberEdit.releasedFromYourTwilioAccount') : ''}
        {t('voice.numberEdit.itStopsReceivingCallsAnd')}
      </p>
      <FormActions action={release} label={t('voice.numberDetail.releaseNumber')} busyLabel={t('voice.numberEdit.releasing')} tone="danger" onConfirm={() => void release.run()} onCancel={close} />
    </Dialog>
  )
}
