// When and how long to wait before trying a request again.

/** Statuses worth another attempt: rate limited and the server-side failures a retry can outlive. */
export const RETRYABLE_STATUSES: ReadonlySet<number> = new Set([429, 500, 502, 503, 504])

export const INITIAL_DELAY_MS = 500
export const MAX_DELAY_MS = 8_000
/** The longest Retry-After the client honours. */
export const MAX_RETRY_AFTER_MS = 60_000

export function isRetryableStatus(status: number): boolean {
  return RETRYABLE_STATUSES.has(status)
}

/**
 * The `Retry-After` header in milliseconds (delta-seconds or an HTTP date), capped at 60 s; null when absent
 * or unreadable.
 */
export function parseRetryAfter(value: string | null, now = Date.now()): number | null {
  if (value === null) return null
  const v = value.trim()
  if (/^\d+(\.\d+)?$/.test(v)) return Math.min(Number(v) * 1000, MAX_RETRY_AFTER_MS)
  const date = Date.parse(v)
  if (Number.isNaN(date)) return null
  return Math.min(Math.max(0, date - now), MAX_RETRY_AFTER_MS)
}

/**
 * The wait before retry number `retry` (0 for the first): Retry-After when the server gave one, else
 * exponential backoff 0.5 s × 2^retry capped at 8 s, less up to 25 % of jitter.
 */
export function retryDelayMs(retry: number, retryAfter: string | null = null, random: () => number = Math.random): number {
  const fromHeader = parseRetryAfter(retryAfter)
  if (fromHeader !== null) return fromHeader
  const base = Math.min(INITIAL_DELAY_MS * 2 ** retry, MAX_DELAY_MS)
  return Math.round(base * (1 - 0.25 * random()))
}

/** Resolves after `ms`, or rejects with the signal's reason when it aborts first. */
export function sleep(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) return reject(signal.reason)
    const timer = setTimeout(() => {
      signal?.removeEventListener('abort', onAbort)
      resolve()
    }, ms)
    const onAbort = () => {
      clearTimeout(timer)
      reject(signal?.reason)
    }
    signal?.addEventListener('abort', onAbort, { once: true })
  })
}
