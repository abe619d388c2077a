import { createHash } from 'node:crypto'
import type { FastifyReply, FastifyRequest } from 'fastify'
import { iso, type Clock } from '../../../kernel/clock.js'
import type { Executor } from '../../../kernel/db/database.js'
import { newId, randomToken } from '../../../kernel/ids.js'
import { readCookie, setCookie, type CookieNames } from './cookies.js'
import * as repo from './sign-in.repository.js'
import type { Membership } from './sign-in.repository.js'
import type { MemberSessionsTable } from './sign-in.tables.js'

/**
 * Member sessions: the cookie carries 256 random bits, the table only their SHA-256 (a stolen database
 * opens no session). A session ends after 1 hour without a request (idle) and 12 hours after sign-in
 * (absolute), at sign-out, and when the member's password is set again. A new session is made at every
 * sign-in (no fixation). `last_seen_at` is written at most once a minute.
 */
export const SESSION_LIMITS = { idleMs: 60 * 60_000, absoluteMs: 12 * 3600_000, touchEveryMs: 60_000 }
const TOKEN_SHAPE = /^[A-Za-z0-9_-]{43}$/
const hash = (token: string): string => createHash('sha256').update(token).digest('hex')

/** The signed-in member of a request: who (email) and in which workspaces and modes (active memberships). */
export interface MemberSession {
  id: string
  email: string
  memberships: Membership[]
  expires_at: string
}

export class MemberSessions {
  /** One lookup per request, however many helpers ask. */
  private readonly ofRequest = new WeakMap<FastifyRequest, Promise<MemberSession | null>>()

  constructor(
    private readonly db: Executor,
    private readonly clock: Clock,
    private readonly cookies: CookieNames,
  ) {}

  current(request: FastifyRequest): Promise<MemberSession | null> {
    let found = this.ofRequest.get(request)
    if (!found) {
      found = this.load(request)
      this.ofRequest.set(request, found)
    }
    return found
  }

  private async load(request: FastifyRequest): Promise<MemberSession | null> {
    const token = readCookie(request, this.cookies.session)
    if (!token || !TOKEN_SHAPE.test(token)) return null
    return this.alive(await repo.findSession(this.db, hash(token)))
  }

  /**
   * The session with this id while it lasts (a dashboard token names its session by id): use counts as
   * activity, so a member working in the dashboard is not signed out by the idle limit.
   */
  async byId(id: string): Promise<MemberSession | null> {
    return this.alive(await repo.findSessionById(this.db, id))
  }

  private async alive(row: MemberSessionsTable | undefined): Promise<MemberSession | null> {
    if (!row) return null
    const now = this.clock.now().getTime()
    if (Date.parse(row.expires_at) <= now || Date.parse(row.last_seen_at) + SESSION_LIMITS.idleMs <= now) {
      await repo.deleteSession(this.db, row.id)
      return null
    }
    if (Date.parse(row.last_seen_at) + SESSION_LIMITS.touchEveryMs <= now) await repo.touchSession(this.db, row.id, iso(new Date(now)))
    return { id: row.id, email: row.email, memberships: await repo.activeMemberships(this.db, row.email), expires_at: row.expires_at }
  }

  /** Starts a session for `email` and sets its cookie (ending the one this browser had). */
  async start(db: Executor, request: FastifyRequest, reply: FastifyReply, email: string): Promise<void> {
    const previous = await this.current(request)
    if (previous) await repo.deleteSession(db, previous.id)
    const token = randomToken(32)
    const now = this.clock.now()
    await repo.insertSession(db, {
      id: newId('mses'),
      token_hash: hash(token),
      email,
      ip: request.ip ?? null,
      user_agent: typeof request.headers['user-agent'] === 'string' ? request.headers['user-agent'].slice(0, 300) : null,
      created_at: iso(now),
      last_seen_at: iso(now),
      expires_at: iso(new Date(now.getTime() + SESSION_LIMITS.absoluteMs)),
    })
    // The cookie outlives no session: it lasts until the absolute expiry (the idle limit is checked here).
    setCookie(reply, this.cookies, this.cookies.session, token, SESSION_LIMITS.absoluteMs / 1000)
    this.ofRequest.delete(request)
  }

  async end(request: FastifyRequest, reply: FastifyReply): Promise<void> {
    const session = await this.current(request)
    if (session) await repo.deleteSession(this.db, session.id)
    setCookie(reply, this.cookies, this.cookies.session, '', 0)
    this.ofRequest.set(request, Promise.resolve(null))
  }

  purge(): Promise<number> {
    const now = this.clock.now().getTime()
    return repo.purgeSessions(this.db, iso(new Date(now)), iso(new Date(now - SESSION_LIMITS.idleMs)))
  }
}
