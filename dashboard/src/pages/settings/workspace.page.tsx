import { useEffect, useState } from 'preact/hooks'
import { ok } from '../../api/client.js'
import type { components } from '../../api/schema.js'
import { Async, Badge, CopyButton, Field, Notice, Page, ProblemView, Time } from '../../ui/components.js'
import { useAction, useResource } from '../../ui/hooks.js'
import { useWorkspace } from '../../ui/workspace.js'
import { LanguageChoice } from './language.js'
import { MetadataEditor, metadataOf, rowsOf, type MetaRow } from './metadata-editor.js'
import { t } from '../../i18n/index.js'

type Ws = components['schemas']['Workspace']
type Body = components['requestBodies']['UpdateWorkspaceBody']['content']['application/json']

interface Form {
  name: string
  timezone: string
  default_language: string
  default_region: string
  score: string
  meta: MetaRow[]
}
const formOf = (w: Ws): Form => ({
  name: w.name,
  timezone: w.timezone,
  default_language: w.default_language,
  default_region: w.default_region ?? '',
  score: w.lead_auto_create_score === null ? '' : String(w.lead_auto_create_score),
  meta: rowsOf(w.metadata),
})

// The browser's own list of IANA zones as suggestions; the API validates whatever is typed.
const ZONES: string[] = (() => {
  try {
    return (Intl as unknown as { supportedValuesOf(k: string): string[] }).supportedValuesOf('timeZone')
  } catch {
    return []
  }
})()

/** The fields the form changed, as PATCH /workspaces/{id} takes them (only those: the API wants at least one). */
function changes(w: Ws, f: Form): Body {
  const out: Body = {}
  if (f.name.trim() !== w.name) out.name = f.name.trim()
  if (f.timezone.trim() !== w.timezone) out.timezone = f.timezone.trim()
  if (f.default_language.trim() !== w.default_language) out.default_language = f.default_language.trim()
  const region = f.default_region.trim() === '' ? null : f.default_region.trim().toUpperCase()
  if (region !== (w.default_region ?? null)) out.default_region = region
  const score = f.score.trim() === '' ? null : Number(f.score)
  if (score !== w.lead_auto_create_score) out.lead_auto_create_score = score
  const meta = metadataOf(f.meta)
  if (JSON.stringify(meta) !== JSON.stringify(w.metadata)) out.metadata = meta
  return out
}

/** /dashboard/settings/workspace: the workspace's id, mode and general settings (PATCH /workspaces/{id}). */
export default function WorkspaceSettings() {
  const { api, membership, refreshSession } = useWorkspace()
  const ws = useResource((a) => ok(a.client.GET('/workspaces/current')))
  const [form, setForm] = useState<Form>()
  const [notice, setNotice] = useState<string>()
  useEffect(() => {
    if (ws.data) setForm(formOf(ws.data))
  }, [ws.data])
  const save = useAction(async (w: Ws, f: Form) => {
    const body = changes(w, f)
    if (Object.keys(body).length === 0) return setNotice(t('settings.workspace.nothingChanged'))
    const next = await ok(api.client.PATCH('/workspaces/{id}', { params: { path: { id: w.id } }, body }))
    ws.set(next)
    setNotice(t('settings.workspace.workspaceSettingsSaved'))
    // The header's workspace switcher shows the name the session holds.
    if (body.name !== undefined) await refreshSession().catch(() => undefined)
  })
  const set = (k: keyof Omit<Form, 'meta'>) => (e: Event) => {
    setNotice(undefined)
    setForm((f) => f && { ...f, [k]: (e.target as HTMLInputElement).value })
  }
  return (
    <Page title={t('settings.index.workspace')}>
      {membership.role === 'member' && <Notice tone="neutral">{t('settings.workspace.onlyOwnersAndAdminsChange')}</Notice>}
      <Async loading={ws.loading} error={ws.error} data={form && ws.data} onRetry={ws.reload}>
        {(w) =>
          form && (
            <>
              <section class="panel" aria-labelledby="ws-facts">
                <h2 id="ws-facts">{t('settings.workspace.thisWorkspace')}</h2>
                <dl class="facts">
                  <dt>{t('settings.workspace.workspaceId')}</dt>
                  <dd class="id-row">
                    <code data-testid="workspace-id">{w.id}</code> <CopyButton text={w.id} label={t('settings.workspace.copyId')} />
                  </dd>
                  <dt>{t('settings.workspace.mode')}</dt>
                  <dd>{w.livemode ? <Badge tone="good">{t('settings.workspace.live')}</Badge> : <Badge tone="warn">{t('settings.workspace.sandbox')}</Badge>}</dd>
                  <dt>{t('settings.workspace.yourRole')}</dt>
                  <dd>{t(`role.${membership.role}`)}</dd>
                  <dt>{t('settings.workspace.created')}</dt>
                  <dd>
                    <Time iso={w.created_at} />
                  </dd>
                  <dt>{t('settings.workspace.updated')}</dt>
                  <dd>
                    <Time iso={w.updated_at} />
                  </dd>
                </dl>
              </section>
              <form
                class="panel"
                aria-labelledby="ws-general"
                onSubmit={(e) => {
                  e.preventDefault()
                  void save.run(w, form)
                }}
              >
                <h2 id="ws-general">{t('settings.workspace.general')}</h2>
                <p class="hint">{t('settings.workspace.nameTimeZoneLanguageAnd')}</p>
                <div class="settings-grid">
                  <Field label={t('settings.memberDialogs.name')}>{(id) => <input id={id} required maxLength={100} value={form.name} onInput={set('name')} />}</Field>
                  <Field label={t('settings.workspace.timeZone')} hint={t('settings.workspace.ianaNameEGEurope')}>
                    {(id, d) => <input id={id} list="tz-options" aria-describedby={d} autoComplete="off" value={form.timezone} onInput={set('timezone')} />}
                  </Field>
                  <Field label={t('settings.workspace.defaultLanguage')} hint={t('settings.workspace.bcp47TagEG')}>
                    {(id, d) => <input id={id} aria-describedby={d} value={form.default_language} onInput={set('default_language')} />}
                  </Field>
                  <Field label={t('settings.workspace.defaultRegion')} hint={t('settings.workspace.defaultRegionHint')}>
                    {(id, d) => <input id={id} aria-describedby={d} maxLength={2} autoComplete="off" value={form.default_region} onInput={set('default_region')} />}
                  </Field>
                  <Field label={t('settings.workspace.leadAutoCreateScore')} hint={t('settings.workspace.1100AConversationWhose')}>
                    {(id, d) => <input id={id} type="number" min={1} max={100} step={1} inputMode="numeric" aria-describedby={d} value={form.score} onInput={set('score')} />}
                  </Field>
                </div>
                <datalist id="tz-options">
                  {ZONES.map((z) => (
                    <option value={z} />
                  ))}
                </datalist>
                <MetadataEditor rows={form.meta} onChange={(meta) => (setNotice(undefined), setForm({ ...form, meta }))} />
                {save.error && <ProblemView problem={save.error} />}
                {notice && <Notice tone={notice === t('settings.workspace.nothingChanged') ? 'info' : 'good'}>{notice}</Notice>}
                <div class="form-actions">
                  <button type="submit" class="primary" disabled={save.pending || membership.role === 'member'}>
                    {save.pending ? t('settings.integrationForms.saving') : t('settings.workspace.saveSettings')}
                  </button>
                  <button type="button" disabled={save.pending} onClick={() => (save.clear(), setNotice(undefined), setForm(formOf(w)))}>
                    {t('settings.workspace.reset')}
                  </button>
                </div>
              </form>
            </>
          )
        }
      </Async>
      <LanguageChoice />
    </Page>
  )
}
