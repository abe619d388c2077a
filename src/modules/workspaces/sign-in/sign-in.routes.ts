import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify'
import { acceptForms, formOf, sendPage, sendRedirect } from '../../../kernel/http/html.js'
import type { Services } from '../../../kernel/services.js'
import { invitationPage, loginPage, logoutPage, messagePage, signedInPage } from './sign-in.pages.js'
import { passwordProblem } from './passwords.js'
import { safeNext } from './sign-in.service.js'

const forbidden = (reply: FastifyReply) =>
  sendPage(reply, { status: 403, title: 'Form expired', body: messagePage('This form has expired', 'The form was not sent from this site or is too old. Reload the page and try again.') })

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
      const next = safeNext((request.query as { next?: string }).next)
      const session = await signIn.session(request)
      if (session && next) return sendRedirect(reply, next)
      if (session) return sendPage(reply, { title: 'Signed in', body: signedInPage({ session, csrf: signIn.csrfToken(request, reply, session) }) })
      return sendPage(reply, { title: 'Sign in', body: loginPage({ csrf: signIn.csrfToken(request, reply, null), next }) })
    })

    app.post('/login', async (request, reply) => {
      const form = formOf(request.body)
      // The sign-in form is always the visitor's (signed double submit), whatever session the browser has.
      if (!signIn.verifyCsrf(request, null, form.get('csrf_token'))) return forbidden(reply)
      const next = safeNext(form.get('next'))
      const email = form.get('email') ?? ''
      const outcome = await signIn.signIn(request, reply, email, form.get('password') ?? '')
      if (outcome.ok) return sendRedirect(reply, next ?? '/login')
      const again = (status: number, error: string) =>
        sendPage(reply, { status, title: 'Sign in', body: loginPage({ csrf: signIn.csrfToken(request, reply, null), next, email, error }) })
      if (outcome.reason === 'throttled') {
        reply.header('Retry-After', String(outcome.retryAfter))
        return again(429, `Too many failed attempts. Try again in ${Math.ceil(outcome.retryAfter / 60)} minute(s).`)
      }
      return again(401, 'The email or the password is wrong.')
    })

    app.get('/logout', async (request, reply) => {
      const session = await signIn.session(request)
      if (!session) return sendRedirect(reply, '/login')
      return sendPage(reply, { title: 'Sign out', body: logoutPage({ email: session.email, csrf: signIn.csrfToken(request, reply, session) }) })
    })

    app.post('/logout', async (request, reply) => {
      const session = await signIn.session(request)
      if (session && !signIn.verifyCsrf(request, session, formOf(request.body).get('csrf_token'))) return forbidden(reply)
      await signIn.signOut(request, reply)
      return sendRedirect(reply, '/login')
    })

    const invitation = async (request: FastifyRequest, reply: FastifyReply) => {
      const invite = await signIn.invitation(request, (request.params as { token: string }).token)
      if (!invite) {
        sendPage(reply, { status: 404, title: 'Invitation not found', body: messagePage('Invitation not found', 'This invitation link is unknown or was already used.', { href: '/login', label: 'Sign in' }) })
        return null
      }
      return invite
    }

    app.get('/invitations/:token', async (request, reply) => {
      const invite = await invitation(request, reply)
      if (!invite) return reply
      const session = await signIn.session(request)
      return sendPage(reply, { title: `Join ${invite.workspace_name}`, body: invitationPage({ invite, csrf: signIn.csrfToken(request, reply, session) }) })
    })

    app.post('/invitations/:token', async (request, reply) => {
      const invite = await invitation(request, reply)
      if (!invite) return reply
      const session = await signIn.session(request)
      const form = formOf(request.body)
      if (!signIn.verifyCsrf(request, session, form.get('csrf_token'))) return forbidden(reply)
      const again = (status: number, error: string | null, state = invite.state) =>
        sendPage(reply, { status, title: `Join ${invite.workspace_name}`, body: invitationPage({ invite: { ...invite, state }, csrf: signIn.csrfToken(request, reply, session), error }) })
      let password: string | null = null
      if (invite.state === 'set_password') {
        password = form.get('password') ?? ''
        const problem = password !== (form.get('confirm') ?? '') ? 'The two passwords differ.' : passwordProblem(password, invite.email)
        if (problem) return again(422, problem)
      }
      const result = await signIn.acceptInvitation(request, reply, invite, password)
      if (result.ok) return sendRedirect(reply, '/login')
      return again(409, null, result.state)
    })
  }
}
