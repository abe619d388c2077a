import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify'
import { acceptForms, formOf, sendPage, sendRedirect } from '../../../kernel/http/html.js'
import type { Services } from '../../../kernel/services.js'
import { invitationPage, loginPage, logoutPage, messagePage, signedInPage } from './sign-in.pages.js'
import { passwordProblemCode } from './passwords.js'
import { pageLocale, SIGN_IN_TEXT, type SignInText } from './sign-in.i18n.js'
import { safeNext } from './sign-in.service.js'

const forbidden = (reply: FastifyReply, t: SignInText, lang: string) => sendPage(reply, { status: 403, lang, title: t.formExpiredTitle, body: messagePage(t.formExpired, t.formExpiredText) })

/** The reader's language (sign-in.i18n.ts) and its texts. */
const textOf = (request: FastifyRequest) => {
  const lang = pageLocale(request)
  return { lang, t: SIGN_IN_TEXT[lang] }
}

/**
 * The member sign-in pages, server-rendered (callbacks: outside the API base URLs, no API key):
 * GET/POST /login, GET/POST /logout, GET/POST /invitations/{token}. Every form carries a CSRF token
 * (403 without it); `next` only ever leads to a path on this server.
 */
export function signInPages(services: Services) {
  return async (app: FastifyInstance) => {
    acceptForms(app)
    const signIn = services.signIn

    app.get('/login', async (request, reply) => {
      const { lang, t } = textOf(request)
      const next = safeNext((request.query as { next?: string }).next)
      const session = await signIn.session(request)
      if (session && next) return sendRedirect(reply, next)
      if (session) return sendPage(reply, { lang, title: t.signedIn, body: signedInPage(t, { session, csrf: signIn.csrfToken(request, reply, session) }) })
      return sendPage(reply, { lang, title: t.signIn, body: loginPage(t, { csrf: signIn.csrfToken(request, reply, null), next }) })
    })

    app.post('/login', async (request, reply) => {
      const { lang, t } = textOf(request)
      const form = formOf(request.body)
      // The sign-in form is always the visitor's (signed double submit), whatever session the browser has.
      if (!signIn.verifyCsrf(request, null, form.get('csrf_token'))) return forbidden(reply, t, lang)
      const next = safeNext(form.get('next'))
      const email = form.get('email') ?? ''
      const outcome = await signIn.signIn(request, reply, email, form.get('password') ?? '')
      if (outcome.ok) return sendRedirect(reply, next ?? '/login')
      const again = (status: number, error: string) => sendPage(reply, { status, lang, title: t.signIn, body: loginPage(t, { csrf: signIn.csrfToken(request, reply, null), next, email, error }) })
      if (outcome.reason === 'throttled') {
        reply.header('Retry-After', String(outcome.retryAfter))
        return again(429, t.throttled(Math.ceil(outcome.retryAfter / 60)))
      }
      return again(401, t.wrong)
    })

    app.get('/logout', async (request, reply) => {
      const { lang, t } = textOf(request)
      const session = await signIn.session(request)
      if (!session) return sendRedirect(reply, '/login')
      return sendPage(reply, { lang, title: t.signOut, body: logoutPage(t, { email: session.email, csrf: signIn.csrfToken(request, reply, session) }) })
    })

    app.post('/logout', async (request, reply) => {
      const session = await signIn.session(request)
      const { lang, t } = textOf(request)
      if (session && !signIn.verifyCsrf(request, session, formOf(request.body).get('csrf_token'))) return forbidden(reply, t, lang)
      await signIn.signOut(request, reply)
      return sendRedirect(reply, '/login')
    })

    const invitation = async (request: FastifyRequest, reply: FastifyReply) => {
      const invite = await signIn.invitation(request, (request.params as { token: string }).token)
      if (!invite) {
        const { lang, t } = textOf(request)
        sendPage(reply, { status: 404, lang, title: t.invitationNotFound, body: messagePage(t.invitationNotFound, t.invitationNotFoundText, { href: '/login', label: t.signIn }) })
        return null
      }
      return invite
    }

    app.get('/invitations/:token', async (request, reply) => {
      const invite = await invitation(request, reply)
      if (!invite) return reply
      const { lang, t } = textOf(request)
      const session = await signIn.session(request)
      return sendPage(reply, { lang, title: t.join(invite.workspace_name), body: invitationPage(t, { invite, csrf: signIn.csrfToken(request, reply, session) }) })
    })

    app.post('/invitations/:token', async (request, reply) => {
      const invite = await invitation(request, reply)
      if (!invite) return reply
      const { lang, t } = textOf(request)
      const session = await signIn.session(request)
      const form = formOf(request.body)
      if (!signIn.verifyCsrf(request, session, form.get('csrf_token'))) return forbidden(reply, t, lang)
      const again = (status: number, error: string | null, state = invite.state) =>
        sendPage(reply, { status, lang, title: t.join(invite.workspace_name), body: invitationPage(t, { invite: { ...invite, state }, csrf: signIn.csrfToken(request, reply, session), error }) })
      let password: string | null = null
      if (invite.state === 'set_password') {
        password = form.get('password') ?? ''
        const code = password !== (form.get('confirm') ?? '') ? 'differ' : passwordProblemCode(password, invite.email)
        if (code) return again(422, t[code])
      }
      const result = await signIn.acceptInvitation(request, reply, invite, password)
      if (result.ok) return sendRedirect(reply, '/login')
      return again(409, null, result.state)
    })
  }
}
