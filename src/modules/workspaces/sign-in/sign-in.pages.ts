import { html, type Html } from '../../../kernel/http/html.js'
import { PASSWORD_MIN } from './passwords.js'
import type { SignInText } from './sign-in.i18n.js'
import type { Invitation } from './sign-in.service.js'
import type { MemberSession } from './sessions.js'

// The sign-in pages' markup (no scripts; sendPage adds the frame and the CSP), in the reader's language (`t`).

const csrfField = (token: string): Html => html`<input type="hidden" name="csrf_token" value="${token}">`
const errorBox = (error: string | null | undefined): Html => (error ? html`<p class="error" role="alert">${error}</p>` : html``)

export function loginPage(t: SignInText, p: { csrf: string; next: string | null; email?: string; error?: string | null }): Html {
  return html`<h1>${t.signIn}</h1>
${errorBox(p.error)}
<form method="post" action="/login">
${csrfField(p.csrf)}
${p.next ? html`<input type="hidden" name="next" value="${p.next}">` : ''}
<label for="email">${t.email}</label><input id="email" type="email" name="email" autocomplete="username" required value="${p.email ?? ''}">
<label for="password">${t.password}</label><input id="password" type="password" name="password" autocomplete="current-password" required>
<button type="submit">${t.signIn}</button>
</form>
<p class="muted">${t.noPassword} (<code>svc members set-password</code>).</p>`
}

export function signedInPage(t: SignInText, p: { session: MemberSession; csrf: string }): Html {
  const list = p.session.memberships.map((m) => html`<li>${m.workspace_name} <span class="muted">(${t.mode(m.mode)}, ${t.role(m.role)})</span></li>`)
  return html`<h1>${t.signedIn}</h1>
<p>${t.signedInAs} <strong>${p.session.email}</strong>.</p>
${list.length ? html`<p>${t.yourWorkspaces}</p><ul>${list}</ul>` : html`<p class="muted">${t.noWorkspace}</p>`}
${signOutForm(t, p.csrf)}`
}

export const signOutForm = (t: SignInText, csrf: string): Html => html`<form method="post" action="/logout">${csrfField(csrf)}<button type="submit">${t.signOut}</button></form>`

export function logoutPage(t: SignInText, p: { email: string; csrf: string }): Html {
  return html`<h1>${t.signOut}</h1><p>${t.signOutQuestion(p.email)}</p>${signOutForm(t, p.csrf)}`
}

export function messagePage(title: string, text: string, link?: { href: string; label: string }): Html {
  return html`<h1>${title}</h1><p>${text}</p>${link ? html`<p><a href="${link.href}">${link.label}</a></p>` : ''}`
}

export function invitationPage(t: SignInText, p: { invite: Invitation; csrf: string; error?: string | null }): Html {
  const i = p.invite
  const head = html`<h1>${t.join(i.workspace_name)}</h1>
<p><strong>${i.email}</strong> ${t.invited(t.role(i.role))} <strong>${i.workspace_name}</strong> ${t.invitedMode(t.mode(i.mode))}</p>${errorBox(p.error)}`
  const action = `/invitations/${i.token}`
  switch (i.state) {
    case 'set_password':
      return html`${head}
<form method="post" action="${action}">${csrfField(p.csrf)}
<input type="hidden" name="email" value="${i.email}" autocomplete="username">
<label for="password">${t.choosePassword}</label><input id="password" type="password" name="password" autocomplete="new-password" required minlength="${PASSWORD_MIN}">
<label for="confirm">${t.repeat}</label><input id="confirm" type="password" name="confirm" autocomplete="new-password" required minlength="${PASSWORD_MIN}">
<button type="submit">${t.setAndJoin}</button></form>`
    case 'accept':
      return html`${head}<form method="post" action="${action}">${csrfField(p.csrf)}<button type="submit">${t.join(i.workspace_name)}</button></form>`
    case 'sign_in':
      return html`${head}<p>${t.alreadyPassword} <a href="/login?next=${encodeURIComponent(action)}">${t.signInToAccept}</a> ${t.toAccept}</p>`
    case 'operator':
      return html`${head}<p>${t.operator} (<code>svc members set-password</code>), ${t.operatorThen}</p>`
    case 'other_member':
      return html`${head}<p>${t.otherMember}</p>${signOutForm(t, p.csrf)}`
  }
}
