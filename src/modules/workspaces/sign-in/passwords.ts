import { randomBytes, scrypt, timingSafeEqual, type ScryptOptions } from 'node:crypto'

/**
 * Member passwords, hashed with scrypt (memory-hard, in node:crypto). Parameters N = 2^15, r = 8, p = 3:
 * 32 MiB of memory per hash, one of OWASP's equivalent scrypt settings (Password Storage Cheat Sheet);
 * each hash is stored with its own parameters (`scrypt$15$8$3$salt$hash`), so raising them later rehashes
 * a member's password at their next sign-in. Runs on libuv's thread pool, never the event loop.
 */
const CURRENT = { logN: 15, r: 8, p: 3 }
const KEY_BYTES = 32
const SALT_BYTES = 16
export const PASSWORD_MIN = 12
export const PASSWORD_MAX = 256

function derive(password: string, salt: Buffer, p: { logN: number; r: number; p: number }): Promise<Buffer> {
  const N = 2 ** p.logN
  // scrypt needs 128·N·r bytes; node's default ceiling (32 MiB) is exactly that, so allow twice over.
  const options: ScryptOptions = { N, r: p.r, p: p.p, maxmem: 256 * N * p.r }
  return new Promise((resolve, reject) => scrypt(password.normalize('NFKC'), salt, KEY_BYTES, options, (err, key) => (err ? reject(err) : resolve(key))))
}

export async function hashPassword(password: string): Promise<string> {
  const salt = randomBytes(SALT_BYTES)
  const key = await derive(password, salt, CURRENT)
  return ['scrypt', CURRENT.logN, CURRENT.r, CURRENT.p, salt.toString('base64url'), key.toString('base64url')].join('$')
}

const SHAPE = /^scrypt\$(\d{1,2})\$(\d{1,2})\$(\d{1,2})\$([A-Za-z0-9_-]+)\$([A-Za-z0-9_-]+)$/
// Compared against when the email has no password, so an unknown account takes as long as a wrong password.
const DUMMY = `scrypt$${CURRENT.logN}$${CURRENT.r}$${CURRENT.p}$${Buffer.alloc(SALT_BYTES).toString('base64url')}$${Buffer.alloc(KEY_BYTES).toString('base64url')}`

/** Whether `password` matches `stored` (null: no password set — still costs one hash). */
export async function verifyPassword(password: string, stored: string | null): Promise<boolean> {
  const m = SHAPE.exec(stored ?? DUMMY) ?? SHAPE.exec(DUMMY)!
  const params = { logN: Number(m[1]), r: Number(m[2]), p: Number(m[3]) }
  const expected = Buffer.from(m[5], 'base64url')
  const key = await derive(password, Buffer.from(m[4], 'base64url'), params)
  return stored !== null && key.length === expected.length && timingSafeEqual(key, expected)
}

/** A hash made with weaker parameters than today's: rehash it once the password is known to be right. */
export function needsRehash(stored: string): boolean {
  const m = SHAPE.exec(stored)
  return !m || Number(m[1]) < CURRENT.logN || Number(m[2]) < CURRENT.r || Number(m[3]) < CURRENT.p
}

/** Why a new password is refused, or null (NIST SP 800-63B: length, not composition rules). */
export function passwordProblem(password: string, email: string): string | null {
  const code = passwordProblemCode(password, email)
  if (code === 'tooShort') return `Use at least ${PASSWORD_MIN} characters.`
  if (code === 'tooLong') return `Use at most ${PASSWORD_MAX} characters.`
  if (code === 'isEmail') return 'The password must not be your email address.'
  return null
}

/** The same rules as a code, for pages that say it in the reader's language (sign-in.i18n.ts). */
export function passwordProblemCode(password: string, email: string): 'tooShort' | 'tooLong' | 'isEmail' | null {
  if ([...password].length < PASSWORD_MIN) return 'tooShort'
  if (password.length > PASSWORD_MAX) return 'tooLong'
  if (password.trim().toLowerCase() === email.toLowerCase()) return 'isEmail'
  return null
}
