/** A member's password: one per email (the identity across workspaces and modes), scrypt-hashed (passwords.ts). */
export interface MemberCredentialsTable {
  email: string
  password_hash: string
  created_at: string
  updated_at: string
}

/** A signed-in browser: the cookie's token only as its SHA-256; idle and absolute expiry (sessions.ts). */
export interface MemberSessionsTable {
  id: string
  token_hash: string
  email: string
  ip: string | null
  user_agent: string | null
  created_at: string
  last_seen_at: string
  expires_at: string
}

/** Failed sign-ins per bucket (an account's email hash, or a client address) in a fixed window (throttle.ts). */
export interface SignInThrottleTable {
  bucket: string
  window_start: string
  failures: number
}

declare module '../../../kernel/db/database.js' {
  interface Tables {
    member_credentials: MemberCredentialsTable
    member_sessions: MemberSessionsTable
    sign_in_throttle: SignInThrottleTable
  }
}
