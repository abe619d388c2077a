import { problemOf } from './problem.js'

/** The member's workspaces and modes, as GET /dashboard/session lists them. */
export interface Membership {
  member_id: string
  workspace_id: string
  workspace_name: string
  mode: 'live' | 'test'
  role: 'owner' | 'admin' | 'member'
}
export interface SessionInfo {
  email: string
  expires_at: string
  csrf_token: string
  memberships: Membership[]
}
interface IssuedToken {
  token: string
  expires_at: string
  workspace_id: string
  mode: 'live' | 'test'
  scopes: string[]
}

/** Back to the sign-in page, returning here afterwards (the session ended or never was). */
export function redirectToLogin(): never {
  window.location.assign(`/login?next=${encodeURIComponent(window.location.pathname + window.location.search)}`)
  throw new Error('signed out')
}

let session: SessionInfo | null = null

export async function loadSession(): Promise<SessionInfo> {
  const res = await fetch('/dashboard/session', { credentials: 'same-origin', headers: { accept: 'application/json' } })
  if (res.status === 401) redirectToLogin()
  if (!res.ok) throw await problemOf(res)
  session = (await res.json()) as SessionInfo
  return session
}

export const currentSession = (): SessionInfo | null => session

/**
 * API tokens for the chosen workspace and mode: asked for with the session cookie and its CSRF token,
 * kept in memory only (never in storage), renewed a minute before they expire or when the API refuses one.
 */
const tokens = new Map<string, IssuedToken>()
const pending = new Map<string, Promise<IssuedToken>>()

export async function tokenFor(workspaceId: string, mode: 'live' | 'test', fresh = false): Promise<string> {
  const k = `${workspaceId}:${mode}`
  const known = tokens.get(k)
  if (!fresh && known && Date.parse(known.expires_at) - Date.now() > 60_000) return known.token
  let p = pending.get(k)
  if (!p) {
    p = issue(workspaceId, mode).finally(() => pending.delete(k))
    pending.set(k, p)
  }
  const t = await p
  tokens.set(k, t)
  return t.token
}

async function issue(workspaceId: string, mode: 'live' | 'test'): Promise<IssuedToken> {
  const s = session ?? (await loadSession())
  const res = await fetch('/dashboard/session/tokens', {
    method: 'POST',
    credentials: 'same-origin',
    headers: { 'content-type': 'application/json', 'x-csrf-token': s.csrf_token },
    body: JSON.stringify({ workspace_id: workspaceId, mode }),
  })
  if (res.status === 401) redirectToLogin()
  if (!res.ok) throw await problemOf(res)
  return (await res.json()) as IssuedToken
}

export function forgetTokens(): void {
  tokens.clear()
}
