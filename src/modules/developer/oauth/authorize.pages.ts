import { html, type Html } from '../../../kernel/http/html.js'
import type { AuthorizationRequest, Membership } from './authorization.service.js'
import { describeScope } from './oauth-scopes.js'

// The consent page's markup (no scripts; sendPage adds the frame and the CSP).

const modeName = (mode: string): string => (mode === 'test' ? 'sandbox' : 'live')

export function consentPage(p: { req: AuthorizationRequest; email: string; memberships: Membership[]; csrf: string }): Html {
  const { req } = p
  const hidden = (name: string, value: string | null) => (value === null ? '' : html`<input type="hidden" name="${name}" value="${value}">`)
  const back = new URL(req.redirectUri)
  return html`<h1>Authorize ${req.app.name}</h1>
<p><strong>${req.app.name}</strong> asks to act for you (${p.email}) with these permissions:</p>
<ul class="scopes">${req.scopes.map((s) => html`<li><strong>${s}</strong>: ${describeScope(s)}</li>`)}</ul>
<form method="post" action="/oauth/authorize">
${hidden('csrf_token', p.csrf)}${hidden('response_type', 'code')}${hidden('client_id', req.app.client_id)}${hidden('redirect_uri', req.redirectUri)}
${hidden('scope', req.scopes.join(' '))}${hidden('state', req.state)}${hidden('code_challenge', req.codeChallenge)}${hidden('code_challenge_method', req.codeChallenge ? 'S256' : null)}
<label for="tenant">For the workspace</label>
<select id="tenant" name="tenant" required>
${p.memberships.map((m) => html`<option value="${m.workspace_id}:${m.mode}">${m.workspace_name} (${modeName(m.mode)})</option>`)}
</select>
<div class="row"><button type="submit" name="decision" value="allow">Allow</button><button type="submit" name="decision" value="deny">Deny</button></div>
</form>
<p class="muted">You will be sent back to ${back.origin}. ${req.app.mode === 'test' ? 'This is a sandbox app: it can only be authorized for sandbox data.' : ''}</p>`
}

export function errorPage(title: string, message: string): Html {
  return html`<h1>${title}</h1><p>${message}</p><p class="muted">Nothing was sent to the application.</p>`
}
