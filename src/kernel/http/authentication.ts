import type { FastifyRequest } from 'fastify'
import { findPrincipal, keyMode } from '../auth/api-keys.js'
import { resolverFor } from '../auth/bearer-tokens.js'
import { minRoleOf, roleAtLeast } from '../auth/roles.js'
import { hasScope } from '../auth/scopes.js'
import { AppError } from '../errors.js'
import type { Kernel } from '../kernel.js'
import type { Services } from '../services.js'
import type { Mode, Principal } from '../tenant.js'
import { BASE_OF } from './bases.js'
import type { AnyRoute } from './define-route.js'

/** The bearer credential of the Authorization header, or null. */
export function bearer(request: FastifyRequest): string | null {
  const h = request.headers.authorization
  if (!h) return null
  const m = /^Bearer\s+(\S+)\s*$/i.exec(h)
  return m ? m[1] : null
}

export type Authentication = ReturnType<typeof createAuthentication>

/**
 * Who is asking: API keys and the bearer tokens the modules issue (OAuth access tokens), the principal
 * looked up once per request (rate-limit bucket, then authentication), and the scope and role checks.
 */
export function createAuthentication(kernel: Kernel, services: Services) {
  const { config } = kernel
  const principals = new WeakMap<FastifyRequest, Principal | null>()
  // Bearer credentials the modules issue besides API keys (OAuth access tokens), told apart by shape.
  const resolvers = kernel.modules.flatMap((m) => (m.bearer ? [m.bearer(kernel, services)] : []))
  const tokenSchemes = resolvers.flatMap((r) => (r.openapi ? [r.openapi] : []))

  async function principalOf(request: FastifyRequest, key: string): Promise<Principal | null> {
    const known = principals.get(request)
    if (known !== undefined) return known
    const resolver = keyMode(key) ? null : resolverFor(resolvers, key)
    const principal = resolver ? await resolver.resolve(key) : await findPrincipal(kernel.db, key)
    principals.set(request, principal)
    return principal
  }

  /** The rate limiter's bucket: a known key has its own; anything else shares its client address's. */
  async function rateLimitKey(request: FastifyRequest): Promise<string> {
    const key = request.routeOptions.config?.public ? null : bearer(request)
    if (!key || (!keyMode(key) && !resolverFor(resolvers, key))) return `ip:${request.ip}`
    const principal = await principalOf(request, key)
    return principal ? `k:${principal.keyId}` : `ip:${request.ip}`
  }

  /**
   * Sets request.principal or throws; returns a promise only when the key's principal is not known yet
   * (the rate limiter has usually looked it up already). Public operations (the Playground) skip this:
   * receivers under test send their own tokens.
   */
  function authenticate(request: FastifyRequest, r: AnyRoute, mode: Mode): Promise<void> | undefined {
    const key = bearer(request)
    if (!key) {
      throw new AppError('unauthorized', 'Send your API key as "Authorization: Bearer svc_live_…" (or svc_test_… on the sandbox URL).')
    }
    const km = keyMode(key)
    if (!km) {
      const resolver = resolverFor(resolvers, key)
      if (!resolver) throw new AppError('unauthorized', 'The API key is malformed.')
      return principalOf(request, key).then((principal) => admitToken(request, r, mode, resolver.name, principal))
    }
    if (km !== mode) {
      const url = `${config.publicUrl}${BASE_OF[km]}`
      throw new AppError('wrong_environment', km === 'test' ? `svc_test_ keys work only on the sandbox base URL ${url}.` : `svc_live_ keys work only on the live base URL ${url}.`)
    }
    const known = principals.get(request)
    if (known !== undefined) {
      admit(request, r, known)
      return undefined
    }
    return principalOf(request, key).then((principal) => admit(request, r, principal))
  }

  /**
   * A token's mode is known only once it is found: a test-mode grant on /v2 (or a live one on the sandbox)
   * is `wrong_environment`, as a key of the other prefix is. Failures carry RFC 6750's WWW-Authenticate.
   */
  function admitToken(request: FastifyRequest, r: AnyRoute, mode: Mode, name: string, principal: Principal | null): void {
    const challenge = (error: string, extra = '') => ({ 'WWW-Authenticate': `Bearer realm="svc", error="${error}"${extra}` })
    if (!principal) throw new AppError('unauthorized', `The ${name} is unknown, expired or revoked.`, { headers: challenge('invalid_token') })
    if (principal.mode !== mode) {
      const url = `${config.publicUrl}${BASE_OF[principal.mode]}`
      throw new AppError('wrong_environment', `This ${name} was granted for ${principal.mode === 'test' ? 'the sandbox' : 'live'}: use ${url}.`, { headers: challenge('invalid_token') })
    }
    try {
      admit(request, r, principal)
    } catch (err) {
      if (err instanceof AppError && err.code === 'insufficient_scope') Object.assign(err.headers, challenge('insufficient_scope', `, scope="${r.scope}"`))
      throw err
    }
  }

  /**
   * A long-lived request (an event stream) asks again whether its credential still admits it: the key or
   * token looked up afresh (revoked, expired, a member removed or demoted), with the same checks. The
   * principal as it is now, or null.
   */
  async function reauthenticate(request: FastifyRequest, r: AnyRoute, mode: Mode): Promise<Principal | null> {
    const key = bearer(request)
    if (!key) return null
    const resolver = keyMode(key) ? null : resolverFor(resolvers, key)
    if (!keyMode(key) && !resolver) return null
    const principal = resolver ? await resolver.resolve(key) : await findPrincipal(kernel.db, key)
    if (!principal || principal.mode !== mode) return null
    try {
      admit({} as FastifyRequest, r, principal)
      return principal
    } catch {
      return null
    }
  }

  function admit(request: FastifyRequest, r: AnyRoute, principal: Principal | null): void {
    if (!principal) throw new AppError('unauthorized', 'The API key is unknown or has been revoked.')
    request.principal = principal
    if (r.anyScope ? !r.anyScope.some((s: string) => hasScope(principal.scopes, s)) : !hasScope(principal.scopes, r.scope)) {
      const wanted = r.anyScope ? `one of the scopes ${(r.anyScope as string[]).map((s) => `'${s}'`).join(', ')}` : `the scope '${r.scope}'`
      throw new AppError('insufficient_scope', `This operation requires ${wanted}; the ${principal.actor ? 'token' : 'key'} has: ${principal.scopes.join(' ') || '(none)'}.`, {
        required_scope: r.scope,
      })
    }
    // A person's credential (dashboard session, OAuth grant) is bound by their role as well (kernel/auth/roles.ts).
    const needed = minRoleOf(r)
    if (principal.role && !roleAtLeast(principal.role, needed)) {
      throw new AppError('insufficient_role', `This operation needs the role '${needed}' or higher; your role in this workspace is '${principal.role}'.`, {
        required_role: needed,
      })
    }
  }

  /** The principal the request's credential resolved to, admitted or not (null: unknown; undefined: not looked up). */
  const lookedUp = (request: FastifyRequest): Principal | null | undefined => principals.get(request)

  return { tokenSchemes, rateLimitKey, authenticate, reauthenticate, lookedUp }
}
