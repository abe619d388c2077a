import { useState } from 'preact/hooks'
import { ok } from '../../api/client.js'
import { Dialog, Field, Page, ProblemView } from '../../ui/components.js'
import { useAction } from '../../ui/hooks.js'
import { useWorkspace } from '../../ui/workspace.js'
import type { PiiRedaction } from './compliance.shared.js'
import { PiiResult } from './pii-result.js'

type Source = 'text' | 'message_id' | 'conversation_id'
type Mode = PiiRedaction['mode']

// The engine's types (docs/compliance.md); none ticked asks for all of them.
const TYPES: Record<string, string> = {
  email: 'Email',
  url: 'URL',
  phone: 'Phone',
  card_number: 'Card number',
  iban: 'IBAN',
  ip_address: 'IP address',
  ssn_us: 'US SSN',
  date_of_birth: 'Date of birth',
}
const MODES: [Mode, string][] = [
  ['mask', 'Mask: [EMAIL]'],
  ['hash', 'Hash: [EMAIL:…], the same value gives the same token'],
  ['remove', 'Remove'],
]
const SOURCE_LABEL: Record<Source, string> = { text: 'Text', message_id: 'A stored message', conversation_id: 'A conversation’s messages' }

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
    <Page title="PII redaction">
      <form
        class="panel"
        aria-labelledby="pii-form"
        onSubmit={(e) => {
          e.preventDefault()
          void run.run(false)
        }}
      >
        <h2 id="pii-form">Find personal data</h2>
        <p class="hint">A preview changes nothing. Applying rewrites stored messages and is audited.</p>
        <Field label="Source">
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
              {(Object.keys(SOURCE_LABEL) as Source[]).map((s) => (
                <option value={s}>{SOURCE_LABEL[s]}</option>
              ))}
            </select>
          )}
        </Field>
        {source === 'text' ? (
          <Field label="Text to check">{(id) => <textarea id={id} required rows={6} value={value} onInput={(e) => setValue((e.target as HTMLTextAreaElement).value)} />}</Field>
        ) : (
          <Field label={source === 'message_id' ? 'Message id' : 'Conversation id'}>
            {(id) => <input id={id} required autocomplete="off" placeholder={source === 'message_id' ? 'msg_…' : 'conv_…'} value={value} onInput={(e) => setValue((e.target as HTMLInputElement).value)} />}
          </Field>
        )}
        <Field label="Mode">
          {(id) => (
            <select id={id} value={mode} onChange={(e) => setMode((e.target as HTMLSelectElement).value as Mode)}>
              {MODES.map(([m, text]) => (
                <option value={m}>{text}</option>
              ))}
            </select>
          )}
        </Field>
        <fieldset>
          <legend>Types (none ticked: all)</legend>
          <div class="checks">
            {Object.entries(TYPES).map(([t, name]) => (
              <label>
                <input type="checkbox" checked={types.includes(t)} onChange={() => toggle(t)} /> {name}
              </label>
            ))}
          </div>
        </fieldset>
        {run.error && <ProblemView problem={run.error} />}
        <div class="form-actions">
          <button type="submit" class="primary" disabled={run.pending}>
            {run.pending ? 'Checking…' : 'Preview redaction'}
          </button>
          {stored && (
            <button type="button" class="danger" disabled={run.pending || !value.trim()} onClick={() => setConfirming(true)}>
              Apply to stored messages…
            </button>
          )}
        </div>
      </form>
      {result && <PiiResult result={result} />}
      <Dialog open={confirming} title="Apply the redaction?" onClose={() => setConfirming(false)}>
        <p>
          The personal data found ({types.length ? types.map((t) => TYPES[t]).join(', ') : 'every type'}, mode {mode}) is rewritten in{' '}
          {source === 'message_id' ? 'message' : 'every message of conversation'} <code>{value.trim()}</code>. This cannot be undone.
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
            Apply redaction
          </button>
          <button type="button" onClick={() => setConfirming(false)}>
            Cancel
          </button>
        </div>
      </Dialog>
    </Page>
  )
}
