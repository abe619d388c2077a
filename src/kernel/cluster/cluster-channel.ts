import cluster from 'node:cluster'

/**
 * A worker's requests to the cluster's primary over the IPC channel node:cluster opens (WEB_CONCURRENCY > 1):
 * the shared rate-limit counters and the metrics of every process. Messages carry `svc` so that nothing
 * else on the channel is taken for ours.
 */
export interface ChannelMessage {
  svc: string
  id: number
  [field: string]: unknown
}

/** The live feed's messages (kernel/events/feed-bus.ts ClusterBus): a worker sends one, the primary passes it to every other. */
export const FEED_SVC = 'feed'

/** How long a worker waits for the primary before it goes on without the answer (a rate limit skips, metrics go without). */
const TIMEOUT_MS = 5000

type Handler = (msg: ChannelMessage) => Promise<Record<string, unknown>>

class Channel {
  private next = 1
  private readonly waiting = new Map<number, { resolve(m: ChannelMessage): void; reject(e: Error): void; timer: NodeJS.Timeout }>()
  private readonly handlers = new Map<string, Handler>()
  private listening = false

  /** Sends `msg` to the primary; resolves with its answer (the message with the same kind and id). */
  request(kind: string, fields: Record<string, unknown>): Promise<ChannelMessage> {
    this.listen()
    const id = this.next++
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => {
        this.waiting.delete(id)
        reject(new Error(`the cluster's primary did not answer "${kind}" within ${TIMEOUT_MS} ms`))
      }, TIMEOUT_MS)
      timer.unref()
      this.waiting.set(id, { resolve, reject, timer })
      process.send!({ svc: kind, id, ...fields }, undefined, undefined, (err) => {
        if (!err) return
        clearTimeout(timer)
        this.waiting.delete(id)
        reject(err)
      })
    })
  }

  /** Answers the primary's requests of one kind (it asks every worker for its metrics). */
  handle(kind: string, handler: Handler): void {
    this.listen()
    this.handlers.set(kind, handler)
  }

  private listen(): void {
    if (this.listening) return
    this.listening = true
    process.on('message', (raw: unknown) => {
      const msg = raw as ChannelMessage
      if (!msg || typeof msg.svc !== 'string' || typeof msg.id !== 'number') return
      const handler = this.handlers.get(msg.svc)
      if (handler) {
        handler(msg).then(
          (fields) => process.send?.({ svc: `${msg.svc}:done`, id: msg.id, ...fields }),
          (err: Error) => process.send?.({ svc: `${msg.svc}:done`, id: msg.id, error: err.message }),
        )
        return
      }
      const w = this.waiting.get(msg.id)
      if (!w) return
      clearTimeout(w.timer)
      this.waiting.delete(msg.id)
      if (typeof msg.error === 'string') w.reject(new Error(msg.error))
      else w.resolve(msg)
    })
  }
}

/** This process's channel to the primary, or null when it is not a cluster worker. */
export const primaryChannel: Channel | null = cluster.isWorker && process.send ? new Channel() : null
