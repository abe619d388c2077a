import { readFile } from 'node:fs/promises'
import { resolve } from 'node:path'
import fastifyStatic from '@fastify/static'
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify'
import { AppError } from '../../kernel/errors.js'
import type { Kernel } from '../../kernel/kernel.js'
import type { Services } from '../../kernel/services.js'
import type { DashboardTokens } from './dashboard.tokens.js'

/**
 * The app's one policy: scripts and styles only from this origin's files (no inline script or style
 * element, no eval), API calls only to this origin, recordings and downloads as blob: URLs, never framed.
 */
export const DASHBOARD_CSP = [
  "default-src 'none'",
  "script-src 'self'",
  "style-src 'self'",
  "img-src 'self' data: blob:",
  "media-src 'self' blob:",
  "connect-src 'self'",
  "font-src 'self'",
  "manifest-src 'self'",
  "form-action 'self'",
  "frame-ancestors 'none'",
  "base-uri 'none'",
].join('; ')

function securityHeaders(reply: FastifyReply): void {
  reply.header('Content-Security-Policy', DASHBOARD_CSP)
  reply.header('X-Content-Type-Options', 'nosniff')
  reply.header('Referrer-Policy', 'same-origin')
  reply.header('Cross-Origin-Opener-Policy', 'same-origin')
}

/**
 * The dashboard's server side (callbacks: outside the API base URLs): its built files, and the two
 * session endpoints that turn a member's sign-in cookie into short-lived API tokens. Everything else the
 * app does goes through the public API with those tokens.
 */
export function dashboardHttp(kernel: Kernel, services: Services, tokens: DashboardTokens) {
  const dir = resolve(kernel.config.dashboardDir)
  const signIn = services.signIn

  async function sessionOrThrow(request: FastifyRequest) {
    const session = await signIn.session(request)
    if (!session) throw new AppError('unauthorized', 'Not signed in, or the session ended: sign in at /login.')
    return session
  }

  return async (app: FastifyInstance) => {
    await app.register(fastifyStatic, {
      root: resolve(dir, 'assets'),
      prefix: '/dashboard/assets/',
      // File names carry their content hash (dashboard/build.mjs): a new build is a new name.
      immutable: true,
      maxAge: '365d',
      index: false,
      wildcard: true,
      // dashboard/build.mjs writes .br and .gz beside each script and stylesheet.
      preCompressed: true,
      setHeaders: (res) => {
        res.header('X-Content-Type-Options', 'nosniff')
      },
    })

    // The member, their workspaces and the CSRF token the app sends with its session requests. A JSON read
    // that another origin cannot make (no CORS), so the token stays with this origin's pages.
    app.get('/dashboard/session', async (request, reply) => {
      const session = await sessionOrThrow(request)
      reply.header('Cache-Control', 'no-store')
      return {
        email: session.email,
        expires_at: session.expires_at,
        csrf_token: signIn.csrfToken(request, reply, session),
        memberships: session.memberships.map((m) => ({ member_id: m.member_id, workspace_id: m.workspace_id, workspace_name: m.workspace_name, mode: m.mode, role: m.role })),
      }
    })

    // A token for one of the member's workspaces in one mode. Changes nothing, yet guarded like a form
    // (X-CSRF-Token): a page elsewhere must not be able to make the browser mint tokens.
    app.post('/dashboard/session/tokens', async (request, reply) => {
      const session = await sessionOrThrow(request)
      const csrf = request.headers['x-csrf-token']
      if (!signIn.verifyCsrf(request, session, typeof csrf === 'string' ? csrf : null)) {
        throw new AppError('forbidden', "The X-CSRF-Token header is missing or is not this session's (GET /dashboard/session gives it).")
      }
      const body = (request.body ?? {}) as { workspace_id?: unknown; mode?: unknown }
      if (typeof body.workspace_id !== 'string' || (body.mode !== 'live' && body.mode !== 'test')) {
        throw new AppError('validation_failed', 'Send {"workspace_id": "ws_…", "mode": "live" | "test"}.')
      }
      const membership = session.memberships.find((m) => m.workspace_id === body.workspace_id && m.mode === body.mode)
      if (!membership) throw new AppError('resource_not_found', `You are not an active member of ${body.workspace_id} in ${body.mode} mode.`)
      reply.header('Cache-Control', 'no-store')
      reply.code(201)
      return tokens.issue(session.id, membership)
    })

    // The app's page for every path under /dashboard (client-side routes): signed-out browsers go to the
    // sign-in page and come back.
    const page = async (request: FastifyRequest, reply: FastifyReply) => {
      const session = await signIn.session(request)
      if (!session) {
        const path = request.url.startsWith('/dashboard') ? request.url : '/dashboard'
        return reply.code(302).header('Location', signIn.loginPath(path)).header('Cache-Control', 'no-store').send()
      }
      let index: string
      try {
        index = await readFile(resolve(dir, 'index.html'), 'utf8')
      } catch {
        throw new AppError('service_unavailable', `The dashboard is not built (${dir} has no index.html): run "npm run build".`)
      }
      securityHeaders(reply)
      return reply.header('Cache-Control', 'no-store').type('text/html; charset=utf-8').send(index)
    }
    app.get('/dashboard', page)
    app.get('/dashboard/*', page)
  }
}
