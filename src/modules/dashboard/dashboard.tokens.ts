import { createHmac, timingSafeEqual } from 'node:crypto'
import type { BearerResolver } from '../../kernel/auth/bearer-tokens.js'
import { isRole } from '../../kernel/auth/roles.js'
import type { Clock } from '../../kernel/clock.js'
import type { Mode, Principal } from '../../kernel/tenant.js'
import type { Services } from '../../kernel/services.js'

export const DASHBOARD_TOKEN_PREFIX = 'svc_dash_'
/** Short: a token copied out of the browser is useless within minutes; the app asks for a new one as it goes. */
export const DASHBOARD_TOKEN_TTL_S = 10 * 60

/** What a member's role lets the dashboard do: owners and admins everything, members read and write. */
export function scopesOfRole(role: string): string[] {
  return role === 'owner' || role === 'admin' ? ['admin'] : ['write']
}

export interface IssuedToken {
  token: string
  expires_at: string
  workspace_id: string
  mode: Mode
  scopes: string[]
}

/**
 * Dashboard access tokens: the web app calls the public API with `Authorization: Bearer svc_dash_…`, a
 * token that stands for one member session in one workspace and mode. Stateless (HMAC over session id,
 * membership id and expiry) yet never outliving what it stands for: each request checks that the session
 * still lasts (signed out, idle or past its absolute expiry → 401) and the membership is still active,
 * with the role it has now. A bearer header, not the cookie, so a forged cross-site request carries
 * nothing (CSRF cannot reach the API), and the kernel authenticates it like any other bearer credential:
 * mode, scopes, the member's role (each operation's `minRole`), rate limit (per session), audit actor `member`.
 */
export class DashboardTokens {
  constructor(
    private readonly key: Buffer,
    private readonly clock: Clock,
    private readonly signIn: Services['signIn'],
  ) {}

  private mac(body: string): string {
    return createHmac('sha256', this.key).update(body).digest('base64url')
  }

  issue(sessionId: string, membership: { member_id: string; workspace_id: string; mode: Mode; role: string }): IssuedToken {
    const exp = Math.floor(this.clock.now().getTime() / 1000) + DASHBOARD_TOKEN_TTL_S
    const body = Buffer.from(`${sessionId}.${membership.member_id}.${exp}`).toString('base64url')
    return {
      token: `${DASHBOARD_TOKEN_PREFIX}${body}.${this.mac(body)}`,
      expires_at: new Date(exp * 1000).toISOString(),
      workspace_id: membership.workspace_id,
      mode: membership.mode,
      scopes: scopesOfRole(membership.role),
    }
  }

  resolver(): BearerResolver {
    return {
      name: 'dashboard session token',
      claims: (token) => token.startsWith(DASHBOARD_TOKEN_PREFIX),
      resolve: async (token): Promise<Principal | null> => {
        const [body, mac] = token.slice(DASHBOARD_TOKEN_PREFIX.length).split('.')
        if (!body || !mac) return null
        const a = Buffer.from(mac)
        const b = Buffer.from(this.mac(body))
        if (a.length !== b.length || !timingSafeEqual(a, b)) return null
        const [sessionId, memberId, exp] = Buffer.from(body, 'base64url').toString().split('.')
        if (!(Number(exp) * 1000 > this.clock.now().getTime())) return null
        const session = await this.signIn.sessionById(sessionId)
        const membership = session?.memberships.find((m) => m.member_id === memberId)
        if (!session || !membership) return null
        return {
          keyId: session.id,
          workspaceId: membership.workspace_id,
          mode: membership.mode,
          scopes: scopesOfRole(membership.role),
          actor: { type: 'member', id: membership.member_id },
          role: isRole(membership.role) ? membership.role : 'member',
        }
      },
    }
  }
}
