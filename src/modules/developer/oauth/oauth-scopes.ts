import { SCOPES, isKnownScope } from '../../../kernel/auth/scopes.js'

/**
 * What each scope lets an app do, as the consent page says it. `admin` grants every scope (the kernel's
 * rule: docs/architecture.md#scopes), so it covers everything `write` does plus whatever an operation
 * requires `admin` for; only a workspace owner or admin may grant it (docs/oauth.md "Scopes").
 */
const DESCRIPTIONS: Record<string, string> = {
  read: 'Read everything in the workspace',
  write: 'Read, create, change and delete everything in the workspace, including members and settings',
  admin: 'Full control of the workspace: every scope, now and later',
}
export function describeScope(scope: string): string {
  if (DESCRIPTIONS[scope]) return DESCRIPTIONS[scope]
  const [resource, action] = scope.split(':')
  return `${action === 'write' ? 'Read and change' : 'Read'} ${resource}`
}

/** Roles allowed to grant a scope to an app: `admin` needs an owner or admin of the workspace. */
export function roleMayGrant(role: string, scopes: readonly string[]): boolean {
  return !scopes.includes('admin') || role === 'owner' || role === 'admin'
}

/**
 * A `scope` parameter (RFC 6749 §3.3: space-delimited, case-sensitive) → its scopes, or why not: an
 * unknown scope, or one the app may not ask for. Duplicates collapse.
 */
export function parseScope(raw: string | null, allowed: readonly string[]): { scopes: string[] } | { problem: string } {
  if (raw === null || raw.trim() === '') return { problem: 'scope is required (space-separated scope names)' }
  const scopes = [...new Set(raw.split(' ').filter(Boolean))]
  const unknown = scopes.filter((s) => !isKnownScope(s))
  if (unknown.length) return { problem: `unknown scope ${unknown.join(' ')}; known: ${SCOPES.all.join(' ')}` }
  const refused = scopes.filter((s) => !allowed.includes(s))
  if (refused.length) return { problem: `this app may not ask for ${refused.join(' ')}` }
  return { scopes }
}
