import { SCOPES } from './scopes.js'

// Role rules (docs/api-conventions.md "Roles"): a person acts with their role as well as their credential's
// scopes. Keys are bound by scopes alone (their holder chose them); a member's dashboard session, and an
// OAuth token a member granted, are also bound by the member's role, checked per operation here.

/** A member's role in a workspace, weakest first. */
export const ROLES = ['member', 'admin', 'owner'] as const
export type Role = (typeof ROLES)[number]

export function isRole(s: unknown): s is Role {
  return typeof s === 'string' && (ROLES as readonly string[]).includes(s)
}

/** owner ⊇ admin ⊇ member. */
export function roleAtLeast(held: Role, required: Role): boolean {
  return ROLES.indexOf(held) >= ROLES.indexOf(required)
}

/**
 * The minimum role when a route does not declare `minRole`, by its scope. Reading is everyone's; the
 * day-to-day writes (the scope resources their modules declare `memberWrites`: conversations, messages,
 * leads) are members'; every other write changes how the workspace works (bots, agents, knowledge, voice
 * numbers, webhooks, developer tools, compliance, the workspace itself) and is admins'. A new write
 * operation is therefore admin-only until it says otherwise.
 */
export function defaultMinRole(scope: string): Role {
  if (scope === 'admin') return 'admin'
  if (scope === 'read' || scope.endsWith(':read')) return 'member'
  return SCOPES.memberWrites.includes(scope) ? 'member' : 'admin'
}

/** The role a member needs for an operation: its declared `minRole`, else the default of its scope. */
export function minRoleOf(route: { scope: string; minRole?: Role }): Role {
  return route.minRole ?? defaultMinRole(route.scope)
}
