import { createHmac } from 'node:crypto'
import { iso, type Clock } from '../../../kernel/clock.js'
import type { Executor } from '../../../kernel/db/database.js'
import * as repo from './sign-in.repository.js'

/**
 * Failed sign-ins are counted per account and per client address in a fixed 15-minute window, in the
 * database (shared by every API process, both engines, no Redis needed): past 10 failures for one account
 * or 50 from one address, sign-in is refused (429, Retry-After) until the window ends — without even
 * checking the password, so a guesser gets no answer. Only failures count; a success clears the account's
 * count. The kernel's rate limiter counts every request by key or address and cannot see the account,
 * so it stays in front as the coarse limit. Checks and counts are separate statements: a burst of
 * concurrent guesses can overshoot a limit by the number in flight (each costs a full scrypt hash).
 * Account buckets hold an HMAC of the email, not the email.
 */
export const SIGN_IN_LIMITS = { windowMs: 15 * 60_000, perAccount: 10, perAddress: 50 }

export class SignInThrottle {
  constructor(
    private readonly db: Executor,
    private readonly clock: Clock,
    private readonly key: Buffer,
  ) {}

  private buckets(email: string, ip: string): { account: string; address: string } {
    return { account: `acct:${createHmac('sha256', this.key).update(email).digest('base64url')}`, address: `ip:${ip}` }
  }

  private windowFrom(): string {
    return iso(new Date(this.clock.now().getTime() - SIGN_IN_LIMITS.windowMs))
  }

  /** Seconds until sign-in may be tried again, or 0 when it may now. */
  async retryAfter(email: string, ip: string): Promise<number> {
    const b = this.buckets(email, ip)
    const from = this.windowFrom()
    const now = this.clock.now().getTime()
    let wait = 0
    for (const [bucket, max] of [
      [b.account, SIGN_IN_LIMITS.perAccount],
      [b.address, SIGN_IN_LIMITS.perAddress],
    ] as const) {
      const row = await repo.failuresOf(this.db, bucket, from)
      if (row && Number(row.failures) >= max) wait = Math.max(wait, Math.ceil((Date.parse(row.window_start) + SIGN_IN_LIMITS.windowMs - now) / 1000))
    }
    return Math.max(0, wait)
  }

  async failed(email: string, ip: string): Promise<void> {
    const b = this.buckets(email, ip)
    const now = iso(this.clock.now())
    const from = this.windowFrom()
    await repo.recordFailure(this.db, b.account, now, from)
    await repo.recordFailure(this.db, b.address, now, from)
  }

  async succeeded(email: string, ip: string): Promise<void> {
    await repo.clearFailures(this.db, this.buckets(email, ip).account)
  }

  purge(): Promise<number> {
    return repo.purgeFailures(this.db, this.windowFrom())
  }
}
