import { useState } from 'preact/hooks'
import type { components } from '../../api/schema.js'
import type { ApiProblem } from '../../api/problem.js'
import { Field, FormActions } from '../../ui/components.js'

export type OAuthScope = components['schemas']['OAuthScope']
export type OAuthApp = components['schemas']['OAuthApp']
export type OAuthAppType = components['schemas']['OAuthAppType']
export const OAUTH_APPS_PATH = '/dashboard/developers/oauth-apps'

export const SCOPES: OAuthScope[] = ['read', 'write', 'admin', 'conversations:read', 'conversations:write', 'messages:read', 'messages:write', 'bots:read', 'bots:write', 'leads:read', 'leads:write', 'webhooks:read', 'webhooks:write']

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
    props.onSubmit({ name: name.trim(), type, redirect_uris: uris.split('\n').map((u) => u.trim()).filter(Boolean), allowed_scopes: scopes })
  }
  return (
    <form onSubmit={submit}>
      <Field label="Name" hint="Shown to members on the consent page.">
        {(id, d) => <input id={id} aria-describedby={d} required value={name} onInput={(e) => setName((e.target as HTMLInputElement).value)} />}
      </Field>
      {props.withType && (
        <fieldset>
          <legend>Type</legend>
          <label>
            <input type="radio" name="oauth-type" checked={type === 'confidential'} onChange={() => setType('confidential')} /> Confidential (a server that keeps a client secret)
          </label>
          <br />
          <label>
            <input type="radio" name="oauth-type" checked={type === 'public'} onChange={() => setType('public')} /> Public (browser or native app, PKCE, no secret)
          </label>
        </fieldset>
      )}
      <Field label="Redirect URIs" hint="One per line, matched exactly: https, or http on 127.0.0.1, [::1] or localhost. At most 10.">
        {(id, d) => <textarea id={id} aria-describedby={d} required value={uris} onInput={(e) => setUris((e.target as HTMLTextAreaElement).value)} />}
      </Field>
      <fieldset>
        <legend>Allowed scopes</legend>
        <div class="checks">
          {SCOPES.map((s) => (
            <label>
              <input type="checkbox" checked={scopes.includes(s)} onChange={() => toggle(s)} /> {s}
            </label>
          ))}
        </div>
      </fieldset>
      <FormActions action={props} label={props.submitLabel} busyLabel="Saving…" onCancel={props.onCancel} />
    </form>
  )
}

/** Redirect URIs and scopes of an app, for the list and the detail. */
export function ScopeList({ scopes }: { scopes: string[] }) {
  return (
    <ul class="scope-list" aria-label="Allowed scopes">
      {scopes.map((s) => (
        <li>
          <code>{s}</code>
        </li>
      ))}
    </ul>
  )
}
