import { randomBytes } from 'node:crypto'
import { monotonicFactory } from 'ulid'

// ULIDs sort by creation time, so `ORDER BY id` is newest/oldest first with a built-in tie-break.
const ulid = monotonicFactory()

export function newId(prefix: string, now: number = Date.now()): string {
  return `${prefix}_${ulid(now)}`
}

/** URL-safe random token with `bytes` bytes of entropy. */
export function randomToken(bytes = 32): string {
  return randomBytes(bytes).toString('base64url')
}
