import { useState } from 'preact/hooks'
import type { components } from '../../api/schema.js'
import type { ApiProblem } from '../../api/problem.js'
import { Field, FormActions } from '../../ui/components.js'
import { t } from '../../i18n/index.js'

export type OAuthScope = components['schemas']['OAuthScope']
export type OAuthApp = components['schemas']['OAuthApp']
export type OAuthAppType = components['schemas']['OAuthAppType']
export const OAUTH_APPS_PATH = '/dashboard/developers/oauth-apps'

export const SCOPES: OAuthScope[] = [
  'read',
  'write',
  'admin',
  'conversations:read',
  'conversations:write',
  'messages:read',
  'messages:write',
  'bots:read',
  'bots:write',
  'leads:read',
  'leads:write',
  'webhooks:read',
  'webhooks:write',
]

export interface AppDraft {
  name: string
  type: OAuthAppType
  redirect_uris: string[]
  allowed_scopes: OAuthScope[]
}

/**
 * The fields of an OAuth app (create and edit): name, type (create only), redirect URIs one per line,
 * allowed scopes. The server checks the URIs (exact strings, https or loopback http) and answers 422 with a pointer.
 */
export function OAuthAppForm(props: { initial: AppDraft; withType: boolean; submitLabel: string; pending: boolean; error?: ApiProblem; onSubmit: (d: AppDraft) => void; onCancel: () => void }) {
  const [name, setName] = useState(props.initial.name)
  const [type, setType] = useState<OAuthAppType>(props.initial.type)
  const [uris, setUris] = useState(props.initial.redirect_uris.join('\n'))
  const [scopes, setScopes] = useState<OAuthScope[]>(props.initial.allowed_scopes)
  const toggle = (s: OAuthScope) => setScopes(scopes.includes(s) ? scopes.filter((x) => x !== s) : [...scopes, s])
  const submit = (e: Event) => {
    e.preventDefault()
    props.onSubmit({
      name: name.trim(),
      type,
      redirect_uris: uris
        .split('\n')
        .map((u) => u.trim())
        .filter(Boolean),
      allowed_scopes: scopes,
    })
  }
  return (
    <form onSubmit={submit}>
      <Field label={t('developers.keysPage.name')} hint={t('developers.oauthAppsForm.shownToMembersOnThe')}>
        {(id, d) => <input id={id} aria-describedby={d} required value={name} onInput={(e) => setName((e.target as HTMLInputElement).value)} />}
      </Field>
      {props.withType && (
        <fieldset>
          <legend>{t('developers.oauthAppsDetail.type')}</legend>
          <label>
            <input type="radio" name="oauth-type" checked={type === 'confidential'} onChange={() => setType('confidential')} /> {t('developers.oauthAppsForm.confidentialAServerThatKeeps')}
          </label>
          <br />
          <label>
            <input type="radio" name="oauth-type" checked={type === 'public'} onChange={() => setType('public')} /> {t('developers.oauthAppsForm.publicBrowserOrNativeApp')}
          </label>
        </fieldset>
      )}
      <Field label={t('developers.oauthAppsDetail.redirectUris')} hint={t('developers.oauthAppsForm.onePerLineMatchedExactly')}>
        {(id, d) => <textarea id={id} aria-describedby={d} required value={uris} onInput={(e) => setUris((e.target as HTMLTextAreaElement).value)} />}
      </Field>
      <fieldset>
        <legend>{t('developers.oauthAppsDetail.allowedScopes')}</legend>
        <div class="checks">
          {SCOPES.map((s) => (
            <label>
              <input type="checkbox" checked={scopes.includes(s)} onChange={() => toggle(s)} /> {s}
            </label>
          ))}
        </div>
      </fieldset>
      <FormActions action={props} label={props.submitLabel} busyLabel={t('developers.oauthAppsForm.saving')} onCancel={props.onCancel} />
    </form>
  )
}

/** Redirect URIs and scopes of an app, for the list and the detail. */
export function ScopeList({ scopes }: { scopes: string[] }) {
  return (
    <ul class="scope-list" aria-label={t('developers.oauthAppsDetail.allowedScopes')}>
      {scopes.map((s) => (
        <li>
          <code>{s}</code>
        </li>
      ))}
    </ul>
  )
}
