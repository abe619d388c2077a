import cluster, { type Worker } from 'node:cluster'
import { createRequire } from 'node:module'
import type { Logger } from 'pino'
import { AggregatorRegistry } from 'prom-client'
import type { Config } from '../../config.js'
import { FEED_SVC, type ChannelMessage } from './cluster-channel.js'

/**
 * WEB_CONCURRENCY > 1: this process forks that many HTTP processes sharing one port (node:cluster hands
 * connections round-robin) and serves nothing itself. It:
 * - starts slot 0 first and waits until it listens, so that migrations and the first-start bootstrap run
 *   once; slot 0 alone runs jobs and maintenance when the role has them, the others are `api`;
 * - starts a process that died again (after 1 s, doubling to 30 s while it keeps dying young) and gives up,
 *   exiting 1, when one slot died 5 times within a minute;
 * - holds the rate-limit counters all of them share when there is no Redis (cluster-rate-limit.store.ts);
 * - gathers every process's metrics for GET /metrics, whichever process serves the scrape;
 * - on SIGTERM/SIGINT passes SIGTERM on, waits for every process's graceful shutdown and exits 0 (1 if one
 *   failed or overran SHUTDOWN_TIMEOUT_MS + 10 s).
 * A SIGKILL of this process closes the channels and node:cluster ends the workers at once: what they had
 * acknowledged is committed, as for any crash.
 */
export async function runClusterPrimary(config: Config, log: Logger, entry: { exec: string; args: string[] }): Promise<void> {
  const slots = config.webConcurrency
  cluster.setupPrimary({ exec: entry.exec, args: entry.args })
  const bySlot = new Map<number, Worker>()
  const deaths = new Map<number, number[]>()
  let stopping = false
  let failed = false

  const counters = new RateCounters()
  const metrics = new MetricsGatherer(() => [...bySlot.values()])

  const fork = (slot: number): Worker => {
    const w = cluster.fork({ SVC_PROCESS_SLOT: String(slot), SVC_ROLE: slot === 0 ? config.role : 'api' })
    bySlot.set(slot, w)
    const started = Date.now()
    w.on('message', (msg: ChannelMessage) => {
      if (!msg || typeof msg.svc !== 'string' || typeof msg.id !== 'number') return
      if (msg.svc === 'rl' || msg.svc === 'rl:read') w.send({ svc: msg.svc, id: msg.id, ...counters.answer(msg) })
      else if (msg.svc === 'metrics')
        metrics.gather().then(
          (text) => w.isConnected() && w.send({ svc: 'metrics', id: msg.id, text }),
          // A scrape that cannot be summed fails that scrape, never the primary.
          (err: Error) => w.isConnected() && w.send({ svc: 'metrics', id: msg.id, error: err.message }),
        )
      else if (msg.svc === 'metrics:collect:done') metrics.collected(w, msg)
      // The live feed's bus without Redis or PostgreSQL (kernel/events/feed-bus.ts ClusterBus): to every other process.
      else if (msg.svc === FEED_SVC) for (const other of bySlot.values()) if (other !== w && other.isConnected()) other.send({ svc: FEED_SVC, id: 0, msg: msg.msg })
    })
    w.on('exit', (code, signal) => {
      if (bySlot.get(slot) === w) bySlot.delete(slot)
      if (stopping) {
        // A process still starting has no handler yet: SIGTERM ends it at once, with nothing acknowledged.
        if (code !== 0 && signal !== 'SIGTERM') failed = true
        if (bySlot.size === 0) finish()
        return
      }
      const recent = [...(deaths.get(slot) ?? []), Date.now()].filter((t) => t > Date.now() - 60_000)
      deaths.set(slot, recent)
      if (recent.length >= 5) {
        log.error({ slot, code, signal }, 'an HTTP process died 5 times within a minute; stopping')
        failed = true
        stop('crash loop')
        return
      }
      const young = Date.now() - started < 10_000
      const delay = young ? Math.min(30_000, 1000 * 2 ** (recent.length - 1)) : 1000
      log.error({ slot, pid: w.process.pid, code, signal, restart_in_ms: delay }, 'an HTTP process exited; starting another')
      // Not unref'd: when every process died at once, this timer is all that keeps the primary alive.
      setTimeout(() => !stopping && fork(slot), delay)
    })
    return w
  }

  const finish = () => {
    log.info({ processes: slots }, failed ? 'stopped, not cleanly' : 'stopped')
    process.exit(failed ? 1 : 0)
  }
  const stop = (reason: string) => {
    if (stopping) return
    stopping = true
    log.info({ reason }, 'shutting down the HTTP processes')
    if (bySlot.size === 0) return finish()
    for (const w of bySlot.values()) w.process.kill('SIGTERM')
    setTimeout(() => {
      log.error('the HTTP processes did not stop in time')
      for (const w of bySlot.values()) w.process.kill('SIGKILL')
      process.exit(1)
    }, config.shutdownTimeoutMs + 10_000).unref()
  }
  process.on('SIGTERM', () => stop('SIGTERM'))
  process.on('SIGINT', () => stop('SIGINT'))

  // Slot 0 migrates and bootstraps; the others start once it listens (or the primary gives up with it).
  const first = fork(0)
  await new Promise<void>((resolve) => {
    const onExit = (code: number | null) => {
      log.error({ code }, 'the first HTTP process exited before it listened')
      stopping = true
      process.exit(code || 1)
    }
    first.once('exit', onExit)
    first.once('listening', () => {
      first.off('exit', onExit)
      resolve()
    })
  })
  for (let slot = 1; slot < slots && !stopping; slot++) fork(slot)
  log.info({ processes: slots, role: config.role }, `${slots} HTTP processes on port ${config.port}`)
}

/** The shared rate-limit counters: @fastify/rate-limit's own LocalStore, so the window rules are the plugin's. */
class RateCounters {
  private readonly LocalStore = createRequire(import.meta.url)('@fastify/rate-limit/store/LocalStore.js') as new (
    continueExceeding: boolean,
    exponentialBackoff: boolean,
    cache: number,
  ) => {
    incr(key: string, cb: (err: Error | null, r: { current: number; ttl: number }) => void, window: number, max: number): void
    read(key: string, cb: (err: Error | null, r: { current: number; ttl: number }) => void, window: number, max: number): void
  }
  private readonly stores = new Map<string, InstanceType<RateCounters['LocalStore']>>()

  answer(msg: ChannelMessage): { current: number; ttl: number } | { error: string } {
    const flags = `${msg.cont ? 1 : 0}${msg.exp ? 1 : 0}`
    let store = this.stores.get(flags)
    // Every process's keys in one map: 20,000 recent clients (the plugin keeps 5,000 per process).
    if (!store) this.stores.set(flags, (store = new this.LocalStore(!!msg.cont, !!msg.exp, 20_000)))
    let out: { current: number; ttl: number } | { error: string } = { error: 'no answer' }
    // LocalStore answers synchronously.
    store[msg.svc === 'rl' ? 'incr' : 'read'](String(msg.key), (err, r) => (out = err ? { error: err.message } : { current: r.current, ttl: r.ttl }), Number(msg.window), Number(msg.max))
    return out
  }
}

/** One scrape: every process's own metrics, summed by prom-client's cluster aggregator. */
class MetricsGatherer {
  private next = 1
  private readonly rounds = new Map<number, { want: Set<Worker>; got: object[][]; done(): void }>()

  constructor(private readonly workers: () => Worker[]) {}

  async gather(): Promise<string> {
    const id = this.next++
    const want = new Set(this.workers().filter((w) => w.isConnected()))
    const got: object[][] = []
    await new Promise<void>((resolve) => {
      const timer = setTimeout(done, 3000) // a process that does not answer is left out of this scrape
      function done() {
        clearTimeout(timer)
        resolve()
      }
      this.rounds.set(id, { want, got, done })
      if (want.size === 0) done()
      for (const w of want) w.send({ svc: 'metrics:collect', id })
    })
    this.rounds.delete(id)
    return AggregatorRegistry.aggregate(got).metrics()
  }

  collected(w: Worker, msg: ChannelMessage): void {
    const round = this.rounds.get(msg.id)
    if (!round || !round.want.delete(w)) return
    if (Array.isArray(msg.metrics)) round.got.push(msg.metrics as object[])
    if (round.want.size === 0) round.done()
  }
}
