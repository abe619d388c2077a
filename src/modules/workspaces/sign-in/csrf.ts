import { createHmac, timingSafeEqual } from 'node:crypto'
import type { FastifyReply, FastifyRequest } from 'fastify'
import { randomToken } from '../../../kernel/ids.js'
import { readCookie, setCookie, type CookieNames } from './cookies.js'

/**
 * CSRF tokens for every form. Signed in: a synchronizer token tied to the session, HMAC(key, session id),
 * so it needs no storage and dies with the session. Not signed in (the sign-in and invitation forms):
 * signed double submit — a random value in an HttpOnly SameSite=Lax cookie and HMAC(key, value) in the
 * form; a forged form cannot carry a token matching the victim's cookie. The key is derived from the
 * server secret for this purpose only.
 */
export class CsrfTokens {
  constructor(
    private readonly key: Buffer,
    private readonly cookies: CookieNames,
  ) {}

  private mac(what: string): string {
    return createHmac('sha256', this.key).update(what).digest('base64url')
  }

  /** The token to put in a form: the session's, or the visitor's (setting the visitor cookie when missing). */
  token(request: FastifyRequest, reply: FastifyReply, session: { id: string } | null): string {
    if (session) return this.mac(`session:${session.id}`)
    let visitor = readCookie(request, this.cookies.csrf)
    if (!visitor || !/^[A-Za-z0-9_-]{43}$/.test(visitor)) {
      visitor = randomToken(32)
      setCookie(reply, this.cookies, this.cookies.csrf, visitor, 2 * 3600)
    }
    return this.mac(`visitor:${visitor}`)
  }

  /** Whether the form's token is the one `token` gave for this session (or this visitor's cookie). */
  verify(request: FastifyRequest, session: { id: string } | null, presented: string | null | undefined): boolean {
    if (!presented) return false
    let expected: string
    if (session) expected = this.mac(`session:${session.id}`)
    else {
      const visitor = readCookie(request, this.cookies.csrf)
      if (!visitor) return false
      expected = this.mac(`visitor:${visitor}`)
    }
    const a = Buffer.from(presented)
    const b = Buffer.from(expected)
    return a.length === b.length && timingSafeEqual(a, b)
  }
}
