import { parse, serialize } from 'cookie'
import type { FastifyReply, FastifyRequest } from 'fastify'

/**
 * The sign-in cookies: HttpOnly, SameSite=Lax, Path=/, and Secure with the `__Host-` prefix when
 * PUBLIC_URL is https (the prefix makes browsers refuse one set by a sibling subdomain or over http).
 */
export interface CookieNames {
  secure: boolean
  session: string
  csrf: string
}

export function cookieNames(publicUrl: string): CookieNames {
  const secure = publicUrl.startsWith('https:')
  const prefix = secure ? '__Host-' : ''
  return { secure, session: `${prefix}svc_session`, csrf: `${prefix}svc_csrf` }
}

export function readCookie(request: FastifyRequest, name: string): string | undefined {
  const header = request.headers.cookie
  if (!header) return undefined
  return parse(header)[name]
}

/** Adds a Set-Cookie (several may be set on one answer); maxAge in seconds, 0 deletes it. */
export function setCookie(reply: FastifyReply, names: CookieNames, name: string, value: string, maxAge: number): void {
  const cookie = serialize(name, value, { httpOnly: true, sameSite: 'lax', secure: names.secure, path: '/', maxAge })
  const existing = reply.getHeader('set-cookie')
  const list = existing === undefined ? [] : Array.isArray(existing) ? existing : [String(existing)]
  reply.header('set-cookie', [...list, cookie])
}
