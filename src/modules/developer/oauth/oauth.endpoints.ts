import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify'
import { bindAudit } from '../../../kernel/audit/audit.js'
import { ALL_SCOPES } from '../../../kernel/auth/scopes.js'
import { AppError } from '../../../kernel/errors.js'
import { acceptForms, formOf, sendPage, sendRedirect } from '../../../kernel/http/html.js'
import { sendProblem } from '../../../kernel/http/problem.js'
import type { Services } from '../../../kernel/services.js'
import { consentPage, errorPage } from './authorize.pages.js'
import type { Checked } from './authorization.service.js'
import { noStore, OAuthError, repeatedParameter, sendOAuthError } from './oauth-errors.js'

/**
 * The authorization server (callbacks: not operations, no API key): GET/POST /oauth/authorize (consent,
 * member session + CSRF), POST /oauth/token, POST /oauth/revoke (RFC 7009), served at the root and under
 * each base URL (/v2/oauth/…, /sandbox/v2/oauth/…: where the spec puts every operation; see oauth.module.ts),
 * and GET /.well-known/oauth-authorization-server (RFC 8414, at the issuer's root only). docs/oauth.md.
 */
export function oauthEndpoints(services: Services, opts: { metadata?: boolean } = {}) {
  return async (app: FastifyInstance) => {
    acceptForms(app)
    const oauth = services.oauth
    const signIn = services.signIn
    const authz = oauth.authorization

    // The token and revocation endpoints answer OAuth's JSON errors, even for what Fastify refuses itself.
    app.setErrorHandler(async (err: Error & { statusCode?: number }, request, reply) => {
      if (!/\/oauth\/(token|revoke)$/.test(request.routeOptions.url ?? '')) throw err
      // The rate limiter's refusal (a kernel problem) stays what it is: 429 with Retry-After, not a server_error.
      if (err instanceof AppError && err.status < 500) return sendProblem(request, reply, err)
      if ((err.statusCode ?? 500) >= 500) {
        request.log.error({ err }, 'oauth endpoint failed')
        return sendOAuthError(reply, new OAuthError('server_error', 'The server could not answer; try again.'))
      }
      return sendOAuthError(reply, new OAuthError('invalid_request', 'Send an application/x-www-form-urlencoded body.'))
    })

    const answer = async (reply: FastifyReply, checked: Checked & { ok: false }) => {
      if ('redirect' in checked) return sendRedirect(reply, checked.redirect)
      return sendPage(reply, { status: checked.page.status, title: checked.page.title, body: errorPage(checked.page.title, checked.page.message) })
    }
    const refused = (reply: FastifyReply, status: number, message: string) => sendPage(reply, { status, title: 'Authorization refused', body: errorPage('Authorization refused', message) })

    app.get('/oauth/authorize', async (request, reply) => {
      const params = new URL(request.url, 'http://local.invalid').searchParams
      const checked = await authz.check(params)
      if (!checked.ok) return answer(reply, checked)
      const session = await signIn.session(request)
      if (!session) return sendRedirect(reply, signIn.loginPath(request.url), 302)
      const memberships = authz.eligible(session, checked.req.app)
      if (memberships.length === 0) return refused(reply, 403, `${session.email} is not an active member of any workspace this app can be authorized for.`)
      return sendPage(reply, {
        title: `Authorize ${checked.req.app.name}`,
        body: consentPage({ req: checked.req, email: session.email, memberships, csrf: signIn.csrfToken(request, reply, session) }),
        // Browsers hold the redirect after the form to form-action too: allow the client's origin.
        formTargets: [new URL(checked.req.redirectUri).origin],
      })
    })

    app.post('/oauth/authorize', async (request, reply) => {
      const form = formOf(request.body)
      const params = new URLSearchParams([...form].filter(([key]) => key !== 'csrf_token' && key !== 'decision' && key !== 'tenant'))
      const checked = await authz.check(params)
      if (!checked.ok) return answer(reply, checked)
      const session = await signIn.session(request)
      if (!session) return sendRedirect(reply, signIn.loginPath(`/oauth/authorize?${params}`))
      if (!signIn.verifyCsrf(request, session, form.get('csrf_token'))) return refused(reply, 403, 'The consent form expired or was not sent from this site. Start again from the application.')
      if (form.get('decision') !== 'allow') return sendRedirect(reply, authz.deny(checked.req))
      const result = await authz.consent(request, session, checked.req, form.get('tenant') ?? '')
      if ('refused' in result) return refused(reply, 403, result.refused)
      return sendRedirect(reply, result.redirect)
    })

    const clientCall = async <T>(
      request: FastifyRequest,
      reply: FastifyReply,
      action: string,
      fn: (form: URLSearchParams, client: Awaited<ReturnType<typeof oauth.authenticateClient>>) => Promise<T>,
    ) => {
      noStore(reply)
      try {
        if (!(request.body instanceof URLSearchParams)) throw new OAuthError('invalid_request', 'Send an application/x-www-form-urlencoded body.')
        const form = request.body
        const repeated = repeatedParameter(form)
        if (repeated) throw new OAuthError('invalid_request', `${repeated} is given more than once.`)
        const client = await oauth.authenticateClient(request.headers.authorization, form)
        // This request's own copy of the app: the owner its token changes are audited by (kernel/audit).
        const app = bindAudit({ ...client }, { actor: { type: 'oauth_app', id: client.id }, action, ip: request.ip, requestId: String(request.id) })
        return await fn(form, app)
      } catch (err) {
        if (err instanceof OAuthError) return sendOAuthError(reply, err)
        throw err
      }
    }

    app.post('/oauth/token', (request, reply) =>
      clientCall(request, reply, 'oauthToken', (form, client) => {
        const grantType = form.get('grant_type')
        if (grantType === 'authorization_code') return oauth.tokens.exchangeCode(client, form)
        if (grantType === 'refresh_token') return oauth.tokens.refresh(client, form)
        throw new OAuthError(
          grantType ? 'unsupported_grant_type' : 'invalid_request',
          grantType ? `grant_type ${grantType} is not supported (authorization_code, refresh_token).` : 'grant_type is required.',
        )
      }),
    )

    app.post('/oauth/revoke', (request, reply) =>
      clientCall(request, reply, 'oauthRevoke', async (form, client) => {
        await oauth.tokens.revoke(client, form)
        return reply.code(200).send()
      }),
    )

    // RFC 8414 §3: the metadata sits at the issuer's root, so only the root registration serves it.
    if (opts.metadata === false) return
    app.get('/.well-known/oauth-authorization-server', async (_request, reply) => {
      const issuer = authz.issuer
      reply.header('Cache-Control', 'public, max-age=3600')
      return {
        issuer,
        authorization_endpoint: `${issuer}/oauth/authorize`,
        token_endpoint: `${issuer}/oauth/token`,
        revocation_endpoint: `${issuer}/oauth/revoke`,
        response_types_supported: ['code'],
        response_modes_supported: ['query'],
        grant_types_supported: ['authorization_code', 'refresh_token'],
        token_endpoint_auth_methods_supported: ['client_secret_basic', 'client_secret_post', 'none'],
        revocation_endpoint_auth_methods_supported: ['client_secret_basic', 'client_secret_post', 'none'],
        code_challenge_methods_supported: ['S256'],
        scopes_supported: [...ALL_SCOPES],
        authorization_response_iss_parameter_supported: true,
      }
    })
  }
}
