import { useEffect, useState } from 'preact/hooks'
import { Dialog, Field, FormActions, Notice, ProblemView, Time } from '../../ui/components.js'
import { useAction } from '../../ui/hooks.js'
import type { Body, Ws } from './integrations.page.js'

type Patch = (w: Ws, body: Body) => Promise<Ws>
type Provider = 'hubspot' | 'webhook'

const val = (set: (v: string) => void) => (e: Event) => set((e.target as HTMLInputElement).value)

/** Asks before a removal that the API does at once (PATCH … null). */
function ConfirmRemove({ open, what, onClose, onConfirm, pending }: { open: boolean; what: string; onClose: () => void; onConfirm: () => void; pending: boolean }) {
  return (
    <Dialog open={open} title={`Remove the ${what}`} onClose={onClose}>
      <p>Remove the {what} and its stored secret from this mode? It cannot be undone; you would enter the secret again.</p>
      <FormActions action={{ pending }} label={`Remove ${what}`} busyLabel="Removing…" tone="danger" onConfirm={onConfirm} onCancel={onClose} />
    </Dialog>
  )
}

export function CrmForm({ ws, patch }: { ws: Ws; patch: Patch }) {
  const crm = ws.crm
  const [provider, setProvider] = useState<Provider>(crm?.provider ?? 'hubspot')
  const [baseUrl, setBaseUrl] = useState(crm?.base_url ?? '')
  const [url, setUrl] = useState(crm?.url ?? '')
  // Secrets typed here are sent once and then cleared: left empty, the API keeps the stored one.
  const [secret, setSecret] = useState('')
  const [notice, setNotice] = useState<string>()
  const [confirming, setConfirming] = useState(false)
  useEffect(() => setSecret(''), [provider])
  const save = useAction(async () => {
    const input: NonNullable<Body['crm']> =
      provider === 'hubspot' ? { provider, ...(baseUrl.trim() ? { base_url: baseUrl.trim() } : {}), ...(secret ? { access_token: secret } : {}) } : { provider, url: url.trim(), ...(secret ? { signing_secret: secret } : {}) }
    await patch(ws, { crm: input })
    setSecret('')
    setNotice('CRM saved.')
  })
  const remove = useAction(async () => {
    await patch(ws, { crm: null })
    setConfirming(false)
    setNotice('CRM removed.')
  })
  const secretSet = provider === 'hubspot' ? crm?.provider === 'hubspot' && crm.access_token_set : crm?.provider === 'webhook' && crm.signing_secret_set
  return (
    <form
      class="panel"
      aria-labelledby="crm-title"
      onSubmit={(e) => {
        e.preventDefault()
        setNotice(undefined)
        void save.run()
      }}
    >
      <h2 id="crm-title">CRM</h2>
      <p class="hint">
        Where leads sync to ({ws.livemode ? 'live' : 'sandbox'} mode).{' '}
        {crm ? (
          <>
            Now: <strong>{crm.provider}</strong>, updated <Time iso={crm.updated_at} />.
          </>
        ) : (
          'None configured.'
        )}
      </p>
      <Field label="Provider">
        {(id) => (
          <select id={id} value={provider} onChange={(e) => setProvider((e.target as HTMLSelectElement).value as Provider)}>
            <option value="hubspot">HubSpot</option>
            <option value="webhook">Signed webhook</option>
          </select>
        )}
      </Field>
      {provider === 'hubspot' ? (
        <Field label="HubSpot API base URL" hint="Optional; https://api.hubapi.com by default.">
          {(id, d) => <input id={id} type="url" aria-describedby={d} value={baseUrl} onInput={val(setBaseUrl)} />}
        </Field>
      ) : (
        <Field label="Webhook URL" hint="Each synced lead is POSTed here, signed.">
          {(id, d) => <input id={id} type="url" required aria-describedby={d} value={url} onInput={val(setUrl)} />}
        </Field>
      )}
      <Field label={provider === 'hubspot' ? 'Private-app access token' : 'Signing secret'} hint={secretSet ? 'A secret is stored; leave empty to keep it.' : 'Required: none is stored yet.'}>
        {(id, d) => <input id={id} type="password" autoComplete="off" aria-describedby={d} value={secret} onInput={val(setSecret)} />}
      </Field>
      {(save.error ?? remove.error) && <ProblemView problem={(save.error ?? remove.error)!} />}
      {notice && <Notice>{notice}</Notice>}
      <div class="form-actions">
        <button type="submit" class="primary" disabled={save.pending}>
          {save.pending ? 'Saving…' : 'Save CRM'}
        </button>
        {crm && (
          <button type="button" class="danger" onClick={() => (setNotice(undefined), setConfirming(true))}>
            Remove CRM
          </button>
        )}
      </div>
      <ConfirmRemove open={confirming} what="CRM" pending={remove.pending} onClose={() => setConfirming(false)} onConfirm={() => void remove.run()} />
    </form>
  )
}

export function VoiceForm({ ws, patch }: { ws: Ws; patch: Patch }) {
  const voice = ws.voice
  const [sid, setSid] = useState(voice?.account_sid ?? '')
  const [baseUrl, setBaseUrl] = useState(voice?.base_url ?? '')
  const [token, setToken] = useState('')
  const [notice, setNotice] = useState<string>()
  const [confirming, setConfirming] = useState(false)
  const save = useAction(async () => {
    await patch(ws, { voice: { provider: 'twilio', account_sid: sid.trim(), ...(baseUrl.trim() ? { base_url: baseUrl.trim() } : {}), ...(token ? { auth_token: token } : {}) } })
    setToken('')
    setNotice('Voice carrier saved.')
  })
  const remove = useAction(async () => {
    await patch(ws, { voice: null })
    setConfirming(false)
    setNotice('Voice carrier removed: calls use the simulated carrier.')
  })
  if (!ws.livemode) {
    return (
      <section class="panel" aria-labelledby="voice-title">
        <h2 id="voice-title">Voice carrier</h2>
        <p class="hint">The sandbox always uses the simulated carrier. Switch to live to set a Twilio account.</p>
      </section>
    )
  }
  const tokenSet = voice?.account_sid === sid.trim() && voice.auth_token_set
  return (
    <form
      class="panel"
      aria-labelledby="voice-title"
      onSubmit={(e) => {
        e.preventDefault()
        setNotice(undefined)
        void save.run()
      }}
    >
      <h2 id="voice-title">Voice carrier</h2>
      <p class="hint">
        {voice ? (
          <>
            Twilio, updated <Time iso={voice.updated_at} />.
          </>
        ) : (
          'None: calls use the simulated carrier.'
        )}
      </p>
      <Field label="Twilio Account SID">
        {(id) => <input id={id} required autoComplete="off" value={sid} onInput={val(setSid)} />}
      </Field>
      <Field label="Twilio auth token" hint={tokenSet ? 'A token is stored for this account; leave empty to keep it.' : 'Required for a new account.'}>
        {(id, d) => <input id={id} type="password" autoComplete="off" aria-describedby={d} value={token} onInput={val(setToken)} />}
      </Field>
      <Field label="Twilio API base URL" hint="Optional; https://api.twilio.com by default.">
        {(id, d) => <input id={id} type="url" aria-describedby={d} value={baseUrl} onInput={val(setBaseUrl)} />}
      </Field>
      {(save.error ?? remove.error) && <ProblemView problem={(save.error ?? remove.error)!} />}
      {notice && <Notice>{notice}</Notice>}
      <div class="form-actions">
        <button type="submit" class="primary" disabled={save.pending}>
          {save.pending ? 'Saving…' : 'Save voice carrier'}
        </button>
        {voice && (
          <button type="button" class="danger" onClick={() => (setNotice(undefined), setConfirming(true))}>
            Remove voice carrier
          </button>
        )}
      </div>
      <ConfirmRemove open={confirming} what="voice carrier" pending={remove.pending} onClose={() => setConfirming(false)} onConfirm={() => void remove.run()} />
    </form>
  )
}
