import type { Role } from './auth/roles.js'

/** live = the /v2 base URL and svc_live_ keys; test = /sandbox/v2 and svc_test_ keys. */
export type Mode = 'live' | 'test'

/** Every repository function takes this first: rows of another workspace or mode are simply not found. */
export interface Tenant {
  workspaceId: string
  mode: Mode
}

export interface Principal extends Tenant {
  /** The API key's id, or for another bearer credential (an OAuth grant) the id its budget and Idempotency-Keys go by. */
  keyId: string
  scopes: string[]
  /** Who acts, for the audit log, when it is not the API key `keyId` (an OAuth app acting for a member). */
  actor?: { type: 'oauth_app' | 'member'; id: string }
  /**
   * The role, now, of the member this credential acts for (a dashboard session, an OAuth token a member
   * granted): each operation's `minRole` applies on top of the scopes. Absent for API keys.
   */
  role?: Role
}
