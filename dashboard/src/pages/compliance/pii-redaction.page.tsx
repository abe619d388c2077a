import { useState } from 'preact/hooks'
import { ok } from '../../api/client.js'
import { Dialog, Field, Page, ProblemView } from '../../ui/components.js'
import { useAction } from '../../ui/hooks.js'
import { useWorkspace } from '../../ui/workspace.js'
import type { PiiRedaction } from './compliance.shared.js'
import { PiiResult } from './pii-result.js'
import { t } from '../../i18n/index.js'

type Source = 'text' | 'message_id' | 'conversation_id'
type Mode = PiiRedaction['mode']

// The engine's types (docs/compliance.md); none ticked asks for all of them.
const TYPES = (): Record<string, string> => ({
  email: t('compliance.piiRedaction.typeEmail'),
  url: t('compliance.piiRedaction.typeUrl'),
  phone: t('compliance.piiRedaction.typePhone'),
  card_number: t('compliance.piiRedaction.typeCardNumber'),
  iban: t('compliance.piiRedaction.typeIban'),
  ip_address: t('compliance.piiRedaction.typeIpAddress'),
  ssn_us: t('compliance.piiRedaction.typeSsnUs'),
  date_of_birth: t('compliance.piiRedaction.typeDateOfBirth'),
})
const MODES = (): [Mode, string][] => [
  ['mask', t('compliance.piiRedaction.modeMask')],
  ['hash', t('compliance.piiRedaction.modeHash')],
  ['remove', t('compliance.piiRedaction.modeRemove')],
]
const SOURCE_LABEL = (): Record<Source, string> => ({
  text: t('compliance.piiRedaction.sourceText'),
  message_id: t('compliance.piiRedaction.sourceMessage'),
  conversation_id: t('compliance.piiRedaction.sourceConversation'),
})

/** /dashboard/compliance/pii: find personal data in text (or stored messages), preview the redaction, or apply it. */
export default function PiiRedactionPage() {
  const { api } = useWorkspace()
  const [source, setSource] = useState<Source>('text')
  const [value, setValue] = useState('')
  const [mode, setMode] = useState<Mode>('mask')
  const [types, setTypes] = useState<string[]>([])
  const [result, setResult] = useState<PiiRedaction>()
  const [confirming, setConfirming] = useState(false)
  const run = useAction(async (apply: boolean) => {
    setResult(undefined)
    const input = source === 'text' ? value : value.trim()
    const body = { [source]: input, mode, types: types.length ? types : undefined, apply: apply || undefined }
    setResult(await ok(api.client.POST('/compliance/pii-redaction', { body })))
  })
  const toggle = (t: string) => setTypes(types.includes(t) ? types.filter((x) => x !== t) : [...types, t])
  const stored = source !== 'text'
  return (
    <Page title={t('compliance.index.piiRedaction')}>
      <form
        class="panel"
        aria-labelledby="pii-form"
        onSubmit={(e) => {
          e.preventDefault()
          void run.run(false)
        }}
      >
        <h2 id="pii-form">{t('compliance.piiRedaction.findPersonalData')}</h2>
        <p class="hint">{t('compliance.piiRedaction.aPreviewChangesNothingApplying')}</p>
        <Field label={t('compliance.piiRedaction.source')}>
          {(id) => (
            <select
              id={id}
              value={source}
              onChange={(e) => {
                setSource((e.target as HTMLSelectElement).value as Source)
                setValue('')
                setResult(undefined)
              }}
            >
              {(Object.keys(SOURCE_LABEL()) as Source[]).map((s) => (
                <option value={s}>{SOURCE_LABEL()[s]}</option>
              ))}
            </select>
          )}
        </Field>
        {source === 'text' ? (
          <Field label={t('compliance.piiRedaction.textToCheck')}>
            {(id) => <textarea id={id} required rows={6} value={value} onInput={(e) => setValue((e.target as HTMLTextAreaElement).value)} />}
          </Field>
        ) : (
          <Field label={source === 'message_id' ? t('compliance.piiRedaction.messageId') : t('compliance.piiRedaction.conversationId')}>
            {(id) => (
              <input
                id={id}
                required
                autocomplete="off"
                placeholder={source === 'message_id' ? t('compliance.piiRedaction.msg') : t('compliance.piiRedaction.conv')}
                value={value}
                onInput={(e) => setValue((e.target as HTMLInputElement).value)}
              />
            )}
          </Field>
        )}
        <Field label={t('compliance.auditLog.mode')}>
          {(id) => (
            <select id={id} value={mode} onChange={(e) => setMode((e.target as HTMLSelectElement).value as Mode)}>
              {MODES().map(([m, text]) => (
                <option value={m}>{text}</option>
              ))}
            </select>
          )}
        </Field>
        <fieldset>
          <legend>{t('compliance.piiRedaction.typesNoneTickedAll')}</legend>
          <div class="checks">
            {Object.entries(TYPES()).map(([type, name]) => (
              <label>
                <input type="checkbox" checked={types.includes(type)} onChange={() => toggle(type)} /> {name}
              </label>
            ))}
          </div>
        </fieldset>
        {run.error && <ProblemView problem={run.error} />}
        <div class="form-actions">
          <button type="submit" class="primary" disabled={run.pending}>
            {run.pending ? t('compliance.piiRedaction.checking') : t('compliance.piiRedaction.previewRedaction')}
          </button>
          {stored && (
            <button type="button" class="danger" disabled={run.pending || !value.trim()} onClick={() => setConfirming(true)}>
              {t('compliance.piiRedaction.applyToStoredMessages')}
            </button>
          )}
        </div>
      </form>
      {result && <PiiResult result={result} />}
      <Dialog open={confirming} title={t('compliance.piiRedaction.applyTheRedaction')} onClose={() => setConfirming(false)}>
        <p>
          {t('compliance.piiRedaction.thePersonalDataFound')}
          {types.length ? types.map((type) => TYPES()[type]).join(', ') : t('compliance.piiRedaction.everyType')}
          {t('compliance.piiRedaction.modeModeIsRewrittenIn', { mode })} {source === 'message_id' ? t('compliance.piiRedaction.message') : t('compliance.piiRedaction.everyMessageOfConversation')}{' '}
          <code>{value.trim()}</code>
          {t('compliance.piiRedaction.thisCannotBeUndone')}
        </p>
        <div class="form-actions">
          <button
            type="button"
            class="danger"
            onClick={() => {
              setConfirming(false)
              void run.run(true)
            }}
          >
            {t('compliance.piiRedaction.applyRedaction')}
          </button>
          <button type="button" onClick={() => setConfirming(false)}>
            {t('compliance.piiRedaction.cancel')}
          </button>
        </div>
      </Dialog>
    </Page>
  )
}
