import { html, type Html } from '../../../kernel/http/html.js'
import { PASSWORD_MIN } from './passwords.js'
import type { Invitation } from './sign-in.service.js'
import type { MemberSession } from './sessions.js'

// The sign-in pages' markup (no scripts; sendPage adds the frame and the CSP).

const csrfField = (token: string): Html => html`<input type="hidden" name="csrf_token" value="${token}">`
const errorBox = (error: string | null | undefined): Html => (error ? html`<p class="error" role="alert">${error}</p>` : html``)
const modeName = (mode: string): string => (mode === 'test' ? 'sandbox' : 'live')

export function loginPage(p: { csrf: string; next: string | null; email?: string; error?: string | null }): Html {
  return html`<h1>Sign in</h1>
${errorBox(p.error)}
<form method="post" action="/login">
${csrfField(p.csrf)}
${p.next ? html`<input type="hidden" name="next" value="${p.next}">` : ''}
<label for="email">Email</label><input id="email" type="email" name="email" autocomplete="username" required value="${p.email ?? ''}">
<label for="password">Password</label><input id="password" type="password" name="password" autocomplete="current-password" required>
<button type="submit">Sign in</button>
</form>
<p class="muted">No password yet? Use the invitation link you were sent, or ask an operator (<code>svc members set-password</code>).</p>`
}

export function signedInPage(p: { session: MemberSession; csrf: string }): Html {
  const list = p.session.memberships.map((m) => html`<li>${m.workspace_name} <span class="muted">(${modeName(m.mode)}, ${m.role})</span></li>`)
  return html`<h1>Signed in</h1>
<p>You are signed in as <strong>${p.session.email}</strong>.</p>
${list.length ? html`<p>Your workspaces:</p><ul>${list}</ul>` : html`<p class="muted">You are not an active member of any workspace.</p>`}
${signOutForm(p.csrf)}`
}

export const signOutForm = (csrf: string): Html => html`<form method="post" action="/logout">${csrfField(csrf)}<button type="submit">Sign out</button></form>`

export function logoutPage(p: { email: string; csrf: string }): Html {
  return html`<h1>Sign out</h1><p>Sign out ${p.email} from this browser?</p>${signOutForm(p.csrf)}`
}

export function messagePage(title: string, text: string, link?: { href: string; label: string }): Html {
  return html`<h1>${title}</h1><p>${text}</p>${link ? html`<p><a href="${link.href}">${link.label}</a></p>` : ''}`
}

export function invitationPage(p: { invite: Invitation; csrf: string; error?: string | null }): Html {
  const i = p.invite
  const head = html`<h1>Join ${i.workspace_name}</h1>
<p><strong>${i.email}</strong> is invited as ${i.role} to <strong>${i.workspace_name}</strong> (${modeName(i.mode)}).</p>${errorBox(p.error)}`
  const action = `/invitations/${i.token}`
  switch (i.state) {
    case 'set_password':
      return html`${head}
<form method="post" action="${action}">${csrfField(p.csrf)}
<input type="hidden" name="email" value="${i.email}" autocomplete="username">
<label for="password">Choose a password (at least ${PASSWORD_MIN} characters)</label><input id="password" type="password" name="password" autocomplete="new-password" required minlength="${PASSWORD_MIN}">
<label for="confirm">Repeat it</label><input id="confirm" type="password" name="confirm" autocomplete="new-password" required minlength="${PASSWORD_MIN}">
<button type="submit">Set password and join</button></form>`
    case 'accept':
      return html`${head}<form method="post" action="${action}">${csrfField(p.csrf)}<button type="submit">Join ${i.workspace_name}</button></form>`
    case 'sign_in':
      return html`${head}<p>You already have a password: <a href="/login?next=${encodeURIComponent(action)}">sign in</a> to accept.</p>`
    case 'operator':
      return html`${head}<p>This email already belongs to another workspace but has no password. Ask an operator to set one (<code>svc members set-password</code>), then sign in and open this link again.</p>`
    case 'other_member':
      return html`${head}<p>You are signed in as someone else. Sign out, then open this link again.</p>${signOutForm(p.csrf)}`
  }
}
