import { AppError } from '../../kernel/errors.js'
import type { Principal, Tenant } from '../../kernel/tenant.js'

/**
 * The member behind a credential: a dashboard session token acts as its member (actor `member`). API
 * keys, and OAuth apps (which act for a member but are not one), have none: read state and `me` are a
 * person's, and a key is shared by a team or a machine.
 */
export function memberIdOf(t: Tenant): string | null {
  const actor = (t as Partial<Principal>).actor
  return actor?.type === 'member' ? actor.id : null
}

/** 422 at `pointer`: the parameter needs a member's credential. */
export const memberOnly = (pointer: string, what: string): AppError =>
  new AppError('member_credential_required', `${what} needs a member's credential (a dashboard session); an API key acts for no member.`, {
    errors: [{ pointer, detail: 'only with a member credential' }],
  })

/** Inbound messages after the mark: the conversation's inbound count less the count at the mark. */
export const unreadOf = (inboundCount: number, readInboundCount: number | null): number => Math.max(0, Number(inboundCount) - Number(readInboundCount ?? 0))
