import { useEffect, useState } from 'preact/hooks'
import { Dialog, Field, FormActions, Notice, ProblemView, Time } from '../../ui/components.js'
import { useAction } from '../../ui/hooks.js'
import type { Body, Ws } from './integrations.page.js'
import { t, tx } from '../../i18n/index.js'

type Patch = (w: Ws, body: Body) => Promise<Ws>
type Provider = 'hubspot' | 'webhook'

const val = (set: (v: string) => void) => (e: Event) => set((e.target as HTMLInputElement).value)

/** Asks before a removal that the API does at once (PATCH … null). */
function ConfirmRemove({ open, what, onClose, onConfirm, pending }: { open: boolean; what: string; onClose: () => void; onConfirm: () => void; pending: boolean }) {
  return (
    <Dialog open={open} title={t('settings.integrationForms.removeTheWhat', { what })} onClose={onClose}>
      <p>{t('settings.integrationForms.removeTheWhatAndIts', { what })}</p>
      <FormActions
        action={{ pending }}
        label={t('settings.integrationForms.removeWhat', { what })}
        busyLabel={t('settings.integrationForms.removing')}
        tone="danger"
        onConfirm={onConfirm}
        onCancel={onClose}
      />
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
      provider === 'hubspot'
        ? { provider, ...(baseUrl.trim() ? { base_url: baseUrl.trim() } : {}), ...(secret ? { access_token: secret } : {}) }
        : { provider, url: url.trim(), ...(secret ? { signing_secret: secret } : {}) }
    await patch(ws, { crm: input })
    setSecret('')
    setNotice(t('settings.integrationForms.crmSaved'))
  })
  const remove = useAction(async () => {
    await patch(ws, { crm: null })
    setConfirming(false)
    setNotice(t('settings.integrationForms.crmRemoved'))
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
      <h2 id="crm-title">{t('settings.integrationForms.crm')}</h2>
      <p class="hint">
        {t('settings.integrationForms.whereLeadsSync', { mode: t(ws.livemode ? 'overview.mode.live' : 'overview.mode.test') })}{' '}
        {crm ? <>{tx('settings.integrationForms.nowUpdated', { provider: <strong>{crm.provider}</strong>, time: <Time iso={crm.updated_at} /> })}</> : t('settings.integrationForms.noneConfigured')}
      </p>
      <Field label={t('settings.integrationForms.provider')}>
        {(id) => (
          <select id={id} value={provider} onChange={(e) => setProvider((e.target as HTMLSelectElement).value as Provider)}>
            <option value="hubspot">{t('settings.integrationForms.hubspot')}</option>
            <option value="webhook">{t('settings.integrationForms.signedWebhook')}</option>
          </select>
        )}
      </Field>
      {provider === 'hubspot' ? (
        <Field label={t('settings.integrationForms.hubspotApiBaseUrl')} hint={t('settings.integrationForms.optionalHttpsApiHubapiCom')}>
          {(id, d) => <input id={id} type="url" aria-describedby={d} value={baseUrl} onInput={val(setBaseUrl)} />}
        </Field>
      ) : (
        <Field label={t('settings.integrationForms.webhookUrl')} hint={t('settings.integrationForms.eachSyncedLeadIsPosted')}>
          {(id, d) => <input id={id} type="url" required aria-describedby={d} value={url} onInput={val(setUrl)} />}
        </Field>
      )}
      <Field
        label={provider === 'hubspot' ? t('settings.integrationForms.privateAppAccessToken') : t('settings.integrationForms.signingSecret')}
        hint={secretSet ? t('settings.integrationForms.aSecretIsStoredLeave') : t('settings.integrationForms.requiredNoneIsStoredYet')}
      >
        {(id, d) => <input id={id} type="password" autoComplete="off" aria-describedby={d} value={secret} onInput={val(setSecret)} />}
      </Field>
      {(save.error ?? remove.error) && <ProblemView problem={(save.error ?? remove.error)!} />}
      {notice && <Notice>{notice}</Notice>}
      <div class="form-actions">
        <button type="submit" class="primary" disabled={save.pending}>
          {save.pending ? t('settings.integrationForms.saving') : t('settings.integrationForms.saveCrm')}
        </button>
        {crm && (
          <button type="button" class="danger" onClick={() => (setNotice(undefined), setConfirming(true))}>
            {t('settings.integrationForms.removeCrm')}
          </button>
        )}
      </div>
      <ConfirmRemove open={confirming} what={t('settings.integrationForms.crm')} pending={remove.pending} onClose={() => setConfirming(false)} onConfirm={() => void remove.run()} />
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
    setNotice(t('settings.integrationForms.voiceCarrierSaved'))
  })
  const remove = useAction(async () => {
    await patch(ws, { voice: null })
    setConfirming(false)
    setNotice(t('settings.integrationForms.voiceCarrierRemovedCallsUse'))
  })
  if (!ws.livemode) {
    return (
      <section class="panel" aria-labelledby="voice-title">
        <h2 id="voice-title">{t('settings.integrationForms.voiceCarrier')}</h2>
        <p class="hint">{t('settings.integrationForms.theSandboxAlwaysUsesThe')}</p>
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
      <h2 id="voice-title">{t('settings.integrationForms.voiceCarrier')}</h2>
      <p class="hint">
        {voice ? (
          <>
            {t('settings.integrationForms.twilioUpdated')} <Time iso={voice.updated_at} />.
          </>
        ) : (
          t('settings.integrationForms.noneCallsUseTheSimulated')
        )}
      </p>
      <Field label={t('settings.integrationForms.twilioAccountSid')}>{(id) => <input id={id} required autoComplete="off" value={sid} onInput={val(setSid)} />}</Field>
      <Field label={t('settings.integrationForms.twilioAuthToken')} hint={tokenSet ? t('settings.integrationForms.aTokenIsStoredFor') : t('settings.integrationForms.requiredForANewAccount')}>
        {(id, d) => <input id={id} type="password" autoComplete="off" aria-describedby={d} value={token} onInput={val(setToken)} />}
      </Field>
      <Field label={t('settings.integrationForms.twilioApiBaseUrl')} hint={t('settings.integrationForms.optionalHttpsApiTwilioCom')}>
        {(id, d) => <input id={id} type="url" aria-describedby={d} value={baseUrl} onInput={val(setBaseUrl)} />}
      </Field>
      {(save.error ?? remove.error) && <ProblemView problem={(save.error ?? remove.error)!} />}
      {notice && <Notice>{notice}</Notice>}
      <div class="form-actions">
        <button type="submit" class="primary" disabled={save.pending}>
          {save.pending ? t('settings.integrationForms.saving') : t('settings.integrationForms.saveVoiceCarrier')}
        </button>
        {voice && (
          <button type="button" class="danger" onClick={() => (setNotice(undefined), setConfirming(true))}>
            {t('settings.integrationForms.removeVoiceCarrier')}
          </button>
        )}
      </div>
      <ConfirmRemove open={confirming} what={t('settings.integrationForms.voiceCarrier2')} pending={remove.pending} onClose={() => setConfirming(false)} onConfirm={() => void remove.run()} />
    </form>
  )
}
