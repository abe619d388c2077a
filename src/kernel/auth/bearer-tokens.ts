import type { Principal } from '../tenant.js'

/**
 * A kind of bearer credential other than API keys (OAuth access tokens), contributed by a module through
 * `defineModule({ bearer })`: the kernel authenticates with it without knowing what issued it. A token
 * belongs to the first resolver that `claims` it; the principal's `mode` decides the base URL it works on
 * (a live principal on /v2, a test one on /sandbox/v2) exactly as a key's prefix does, and its `scopes`
 * are checked like a key's.
 */
export interface BearerResolver {
  /** What these tokens are called in error messages ("OAuth access token"). */
  name: string
  /** A cheap shape test, no I/O (a prefix): is this token one of ours? */
  claims(token: string): boolean
  /** The token's principal, or null when it is unknown, expired or revoked. */
  resolve(token: string): Promise<Principal | null>
  /**
   * How the OpenAPI document describes these tokens: a security scheme (e.g. `oauth2` with the endpoints
   * that issue them), listed on every authenticated operation as an alternative to API keys.
   */
  openapi?: { name: string; scheme: Record<string, unknown> }
}

/** The resolver that claims `token`, or null (then it can only be an API key). */
export function resolverFor(resolvers: readonly BearerResolver[], token: string): BearerResolver | null {
  for (const r of resolvers) if (r.claims(token)) return r
  return null
}
