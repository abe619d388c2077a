import type { FastifyReply, FastifyRequest } from 'fastify'
import { bindAudit } from '../../../kernel/audit/audit.js'
import { iso } from '../../../kernel/clock.js'
import { isUniqueViolation } from '../../../kernel/db/database.js'
import { AppError } from '../../../kernel/errors.js'
import type { Kernel } from '../../../kernel/kernel.js'
import { cookieNames, type CookieNames } from './cookies.js'
import { CsrfTokens } from './csrf.js'
import { hashPassword, needsRehash, PASSWORD_MAX, passwordProblem, verifyPassword } from './passwords.js'
import { MemberSessions, type MemberSession } from './sessions.js'
import * as repo from './sign-in.repository.js'
import { SignInThrottle } from './throttle.js'

export type { MemberSession } from './sessions.js'
export type { Membership } from './sign-in.repository.js'

export type SignInOutcome = { ok: true } | { ok: false; reason: 'wrong' } | { ok: false; reason: 'throttled'; retryAfter: number }

/**
 * What an invitation link can do for the browser that opens it:
 * - `set_password`: a new identity (no password, no active membership anywhere): choose a password, join;
 * - `accept`: the browser is signed in as the invited email: join with one click;
 * - `sign_in`: the email has a password: sign in first (the link alone never changes a password);
 * - `operator`: the email is already active elsewhere without a password: an operator sets one (CLI);
 * - `other_member`: signed in as someone else: sign out first.
 * The inviter sees the link (invitation_url), so a link may only ever create a password for an email that
 * has nothing yet — never take over an existing identity or its other workspaces.
 */
export type InvitationState = 'set_password' | 'accept' | 'sign_in' | 'operator' | 'other_member'
export interface Invitation {
  token: string
  member_id: string
  email: string
  workspace_id: string
  workspace_name: string
  mode: 'live' | 'test'
  role: string
  state: InvitationState
}

/** `?next=`: a path on this server only (no scheme, host, `//`, backslash or control character), else null. */
export function safeNext(raw: string | null | undefined): string | null {
  if (!raw || raw.length > 4000 || !raw.startsWith('/') || /[\\\u0000-\u001f\u007f]/.test(raw) || raw.startsWith('//')) return null
  const origin = 'http://next.invalid'
  const u = new URL(raw, origin)
  return u.origin === origin ? u.pathname + u.search : null
}

/** services.signIn: member sign-in (pages in sign-in.routes.ts) and the session API other modules use. */
export class SignInService {
  readonly cookies: CookieNames
  readonly sessions: MemberSessions
  private readonly csrf: CsrfTokens
  private readonly throttle: SignInThrottle

  constructor(private readonly k: Kernel) {
    this.cookies = cookieNames(k.config.publicUrl)
    this.sessions = new MemberSessions(k.db, k.clock, this.cookies)
    this.csrf = new CsrfTokens(k.deriveKey('member-sign-in-csrf'), this.cookies)
    this.throttle = new SignInThrottle(k.db, k.clock, k.deriveKey('member-sign-in-throttle'))
  }

  /** The signed-in member of this request (email and active memberships), or null. */
  session(request: FastifyRequest): Promise<MemberSession | null> {
    return this.sessions.current(request)
  }

  /** A session by its id while it lasts (not by its cookie): what a dashboard token stands for. */
  sessionById(id: string): Promise<MemberSession | null> {
    return this.sessions.byId(id)
  }

  /** The CSRF token for a form rendered for this request (the session's, or the visitor's when signed out). */
  csrfToken(request: FastifyRequest, reply: FastifyReply, session: MemberSession | null): string {
    return this.csrf.token(request, reply, session)
  }

  /** Whether a submitted form's CSRF token is valid for this session (or visitor). */
  verifyCsrf(request: FastifyRequest, session: MemberSession | null, token: string | null | undefined): boolean {
    return this.csrf.verify(request, session, token)
  }

  /** Where to send a browser that must sign in first, coming back to `next` (a path on this server). */
  loginPath(next: string): string {
    return `/login?next=${encodeURIComponent(next)}`
  }

  async signIn(request: FastifyRequest, reply: FastifyReply, rawEmail: string, password: string): Promise<SignInOutcome> {
    const email = rawEmail.trim().toLowerCase().slice(0, 320)
    const ip = request.ip
    const wait = await this.throttle.retryAfter(email, ip)
    if (wait > 0) return { ok: false, reason: 'throttled', retryAfter: wait }
    const credentials = email ? await repo.findCredentials(this.k.db, email) : undefined
    const ok = password.length <= PASSWORD_MAX && (await verifyPassword(password, credentials?.password_hash ?? null))
    if (!ok || !credentials) {
      await this.throttle.failed(email, ip)
      return { ok: false, reason: 'wrong' }
    }
    await this.throttle.succeeded(email, ip)
    if (needsRehash(credentials.password_hash)) {
      await repo.saveCredentials(this.k.db, { ...credentials, password_hash: await hashPassword(password), updated_at: iso(this.k.clock.now()) })
    }
    await this.sessions.start(this.k.db, request, reply, email)
    return { ok: true }
  }

  signOut(request: FastifyRequest, reply: FastifyReply): Promise<void> {
    return this.sessions.end(request, reply)
  }

  /** `svc members set-password`: sets (or replaces) an existing member's password and ends their sessions. */
  async setPassword(rawEmail: string, password: string): Promise<{ email: string; sessions_ended: number }> {
    const email = rawEmail.trim().toLowerCase()
    if ((await repo.countMemberships(this.k.db, email)) === 0) throw new AppError('resource_not_found', `${email} is not a member of any workspace; invite them first.`)
    const problem = passwordProblem(password, email)
    if (problem) throw new AppError('validation_failed', problem)
    const hash = await hashPassword(password)
    const now = iso(this.k.clock.now())
    return this.k.db.transaction().execute(async (tx) => {
      await repo.saveCredentials(tx, { email, password_hash: hash, created_at: now, updated_at: now })
      return { email, sessions_ended: await repo.deleteSessionsOf(tx, email) }
    })
  }

  /** The invitation behind a link, with what this browser can do with it; null when unknown or used. */
  async invitation(request: FastifyRequest, token: string): Promise<Invitation | null> {
    if (!/^[A-Za-z0-9_-]{20,64}$/.test(token)) return null
    const row = await repo.findInvitation(this.k.db, token)
    if (!row) return null
    const session = await this.session(request)
    let state: InvitationState
    if (session) state = session.email === row.email ? 'accept' : 'other_member'
    else if (await repo.findCredentials(this.k.db, row.email)) state = 'sign_in'
    else state = (await repo.activeMemberships(this.k.db, row.email)).length > 0 ? 'operator' : 'set_password'
    return { token, member_id: row.id, email: row.email, workspace_id: row.workspace_id, workspace_name: row.workspace_name, mode: row.mode, role: row.role, state }
  }

  /**
   * Joins the workspace of an invitation: `accept` as the signed-in member, or `set_password` with the
   * new password (then signed in). Returns the state that stands in the way instead when it is another.
   */
  async acceptInvitation(request: FastifyRequest, reply: FastifyReply, invite: Invitation, password: string | null): Promise<{ ok: true } | { ok: false; state: InvitationState }> {
    if (invite.state !== 'accept' && !(invite.state === 'set_password' && password !== null)) return { ok: false, state: invite.state }
    const hash = invite.state === 'set_password' ? await hashPassword(password!) : null
    const tenant = { workspaceId: invite.workspace_id, mode: invite.mode }
    const now = iso(this.k.clock.now())
    const scope = { actor: { type: 'member' as const, id: invite.member_id }, action: 'acceptInvitation', ip: request.ip, requestId: String(request.id), fields: hash ? ['password'] : [] }
    try {
      const accepted = await this.k.transaction(bindAudit(tenant, scope), async (tx) => {
        // A plain insert: a password set meanwhile (another link, the CLI) is never overwritten.
        if (hash) await tx.insertInto('member_credentials').values({ email: invite.email, password_hash: hash, created_at: now, updated_at: now }).execute()
        if (!(await repo.activateMember(tx, tenant, invite.member_id, invite.token, now))) return null
        if (hash) await this.sessions.start(tx, request, reply, invite.email)
        return { object: 'workspace_member', id: invite.member_id }
      })
      return accepted ? { ok: true } : { ok: false, state: invite.state }
    } catch (err) {
      if (isUniqueViolation(err)) return { ok: false, state: 'sign_in' }
      throw err
    }
  }

  /** Maintenance: ended sessions and old failure counts. */
  async purge(): Promise<void> {
    await this.sessions.purge()
    await this.throttle.purge()
  }
}

declare module '../../../kernel/services.js' {
  interface Services {
    signIn: SignInService
  }
}
