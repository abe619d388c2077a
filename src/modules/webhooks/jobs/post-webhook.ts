import type { Agent } from 'undici'

/** Bytes of the response body kept on the attempt; more is read (to reuse the connection) up to DRAIN_LIMIT. */
export const RESPONSE_EXCERPT_BYTES = 2048
const DRAIN_LIMIT = 64 * 1024

export interface HttpAnswer {
  status: number
  retryAfter: string | undefined
  excerpt: string
}

/** Thrown at WEBHOOK_TIMEOUT_MS after the request started. */
export class DeliveryTimeout extends Error {
  override name = 'TimeoutError'
}

/**
 * One POST through undici's dispatcher interface: the answer's status, its Retry-After, and the first
 * RESPONSE_EXCERPT_BYTES of its body; more is read (so the connection can be reused) up to DRAIN_LIMIT,
 * then the request is cut off. No response stream, async iterator or AbortSignal per request: about half
 * the client-side CPU of `request()` (measured ~120 → ~60 µs a request).
 */
export function post(agent: Agent, url: { origin: string; path: string }, headers: Record<string, string>, body: string, timeoutMs: number): Promise<HttpAnswer> {
  return new Promise<HttpAnswer>((resolve, reject) => {
    let status = 0
    let retryAfter: string | undefined
    const kept: Buffer[] = []
    let keptBytes = 0
    let total = 0
    let abort: ((err: Error) => void) | null = null
    let cut: Error | null = null
    let settled = false
    const answer = () => ({ status, retryAfter, excerpt: Buffer.concat(kept).toString('utf8') })
    const stop = (err: Error) => {
      cut = err
      abort?.(err)
    }
    const finish = (fn: () => void) => {
      if (settled) return
      settled = true
      clearTimeout(timer)
      fn()
    }
    // The whole request, queueing and connecting included; a request not written yet is aborted when
    // undici gets to it (onConnect), before anything is sent.
    const timer = setTimeout(() => {
      const err = new DeliveryTimeout('timeout')
      stop(err)
      finish(() => reject(err))
    }, timeoutMs)
    agent.dispatch({ origin: url.origin, path: url.path, method: 'POST', headers, body }, {
      onConnect(a: (err?: Error) => void) {
        abort = a
        if (cut) a(cut)
      },
      onHeaders(statusCode: number, raw: Buffer[] | string[] | null) {
        status = statusCode
        if (raw && (statusCode === 429 || statusCode === 503)) {
          for (let i = 0; i + 1 < raw.length; i += 2) if (String(raw[i]).toLowerCase() === 'retry-after') retryAfter = String(raw[i + 1])
        }
        return true
      },
      onData(chunk: Buffer) {
        total += chunk.length
        if (keptBytes < RESPONSE_EXCERPT_BYTES) {
          const part = chunk.subarray(0, RESPONSE_EXCERPT_BYTES - keptBytes)
          kept.push(part)
          keptBytes += part.length
        }
        // Enough read: the answer is what came so far (the connection is closed, not reused).
        if (total > DRAIN_LIMIT) {
          finish(() => resolve(answer()))
          stop(new Error('response body over the drain limit'))
          return false
        }
        return true
      },
      onComplete() {
        finish(() => resolve(answer()))
      },
      onError(err: Error) {
        finish(() => reject(cut instanceof DeliveryTimeout ? cut : err))
      },
    } as unknown as Parameters<Agent['dispatch']>[1])
  })
}
