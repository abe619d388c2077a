import { iso } from '../../../kernel/clock.js'
import type { Tx } from '../../../kernel/db/database.js'
import { notFound } from '../../../kernel/errors.js'
import type { PageResult } from '../../../kernel/http/pagination.js'
import type { Kernel } from '../../../kernel/kernel.js'
import type { Principal, Tenant } from '../../../kernel/tenant.js'
import { revokeGrantIn } from './grant-revocation.js'
import * as repo from './oauth.repository.js'
import type { OAuthAuthorizationT } from './oauth.schemas.js'
import { authorizationView } from './oauth.views.js'

/**
 * The authorizations given in a workspace, as its admins see them: listOAuthAuthorizations,
 * revokeOAuthAuthorization, and the membership rule (a member removed or demoted loses every grant they
 * gave in that workspace and mode, in the transaction that removes or demotes them).
 */
export class OAuthAuthorizations {
  constructor(private readonly k: Kernel) {}

  private now(): string {
    return iso(this.k.clock.now())
  }

  list(principal: Principal, query: { cursor?: string; limit?: number }): Promise<PageResult<OAuthAuthorizationT>> {
    const now = this.now()
    return this.k.paginate({
      list: 'listOAuthAuthorizations',
      tenant: principal,
      query,
      fetch: (page) => repo.listGrants(this.k.db, principal, now, page),
      key: (r) => r.id,
      view: authorizationView,
    })
  }

  /** Revokes one authorization of this workspace and mode and every token from it; revoking it again answers it as it is. */
  revoke(principal: Principal, id: string): Promise<OAuthAuthorizationT> {
    return this.k.transaction(principal, async (tx) => {
      const grant = await repo.findGrant(tx, principal, id)
      if (!grant || !grant.code_used_at) throw notFound('OAuth authorization', id)
      await revokeGrantIn(this.k, tx, grant, 'revoked by the workspace')
      return authorizationView((await repo.findGrantListed(tx, principal, this.now(), id))!)
    })
  }

  /**
   * A member removed or demoted: every grant they gave in this tenant is revoked (pending codes included),
   * whatever its scopes — an app that still needs access asks again, and gets what the new role may grant.
   */
  async memberAccessReduced(tx: Tx, tenant: Tenant, change: { memberId: string; why: 'removed' | 'demoted' }): Promise<void> {
    const reason = change.why === 'removed' ? 'member removed' : 'member demoted'
    for (const grant of await repo.liveGrantsOfMember(tx, tenant, change.memberId)) await revokeGrantIn(this.k, tx, grant, reason)
  }
}
