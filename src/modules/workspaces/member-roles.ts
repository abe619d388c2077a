import type { Executor } from '../../kernel/db/database.js'
import { AppError } from '../../kernel/errors.js'
import type { Principal, Tenant } from '../../kernel/tenant.js'
import * as repo from './workspaces.repository.js'
import type { MemberRole } from './workspaces.tables.js'

/**
 * A person acts with their role, not only with their credential's scopes. A member signed in to the
 * dashboard (actor `member`) holds `write` or `admin` by role, and `write` is what the member and
 * workspace operations ask of keys (the spec's scopes). Without this, a `member` could invite people,
 * promote themselves to owner or replace the CRM's credentials. So, for members only:
 * - members of role `member` may change their own name and nothing else here;
 * - admins manage admins and members, not owners (nor make anyone an owner);
 * - owners manage everyone (the last owner stays, see `last_owner`).
 * API keys and OAuth apps keep the scope rules alone: a key's holder chose its scopes.
 */
export async function assertRoleAllows(
  db: Executor,
  tenant: Tenant,
  what: { action: 'change the workspace' | 'invite members' | 'change members' | 'remove members'; target?: { id: string; role: MemberRole }; grants?: MemberRole; nameOnly?: boolean },
): Promise<void> {
  const actor = (tenant as Partial<Principal>).actor
  if (actor?.type !== 'member') return
  if (what.nameOnly && what.target?.id === actor.id) return
  const me = await repo.findMember(db, tenant, actor.id)
  const role = me?.status === 'active' ? me.role : null
  if (role !== 'owner' && role !== 'admin') {
    throw new AppError('insufficient_role', `Only owners and admins can ${what.action}; your role is ${role ?? 'none'}.`)
  }
  if (role === 'admin' && (what.target?.role === 'owner' || what.grants === 'owner')) {
    throw new AppError('insufficient_role', 'Only owners can add, change or remove owners; your role is admin.')
  }
}
