import type { FastifyInstance } from 'fastify'
import { timingSafeEqual } from 'node:crypto'
import { hashKey } from '../auth/api-keys.js'
import { AppError } from '../errors.js'
import type { Kernel } from '../kernel.js'
import { bearer } from './authentication.js'

/** The orchestrator's probes and the metrics scrape: outside the base URLs, no API key. */
export function registerProbes(app: FastifyInstance, kernel: Kernel, metrics: { render(): Promise<string> } | undefined): void {
  const { config } = kernel
  app.get('/livez', { config: {} }, async () => ({ status: 'ok' }))
  // Ready while the database answers. A dependency the API runs without (Redis) makes it `degraded`, still
  // 200: taking every node out of the load balancer because shared counters are away would be an outage.
  app.get('/readyz', async (_request, reply) => {
    try {
      await kernel.database.ping()
    } catch {
      return reply.code(503).send({ status: 'unavailable' })
    }
    const dependencies = await kernel.dependencies.check()
    const degraded = Object.values(dependencies).some((d) => d.status !== 'ok')
    return { status: degraded ? 'degraded' : 'ok', ...(Object.keys(dependencies).length > 0 ? { dependencies } : {}) }
  })

  if (metrics) {
    app.get('/metrics', async (request, reply) => {
      if (config.metricsToken) {
        if (!sameSecret(bearer(request) ?? '', config.metricsToken)) throw new AppError('unauthorized', 'GET /metrics needs "Authorization: Bearer <METRICS_TOKEN>".')
      } else if (!config.metricsPublic && !isLoopback(request.socket.remoteAddress)) {
        // No token configured: only a scraper on this host may read (HOST defaults to 0.0.0.0).
        throw new AppError('forbidden', 'GET /metrics answers only loopback clients; set METRICS_TOKEN (or METRICS_PUBLIC=true) to scrape it remotely.')
      }
      return reply.type('text/plain; version=0.0.4; charset=utf-8').send(await metrics.render())
    })
  }
}

function isLoopback(address: string | undefined): boolean {
  return !!address && (address === '::1' || address.startsWith('127.') || address.startsWith('::ffff:127.'))
}

function sameSecret(a: string, b: string): boolean {
  const x = Buffer.from(hashKey(a))
  const y = Buffer.from(hashKey(b))
  return timingSafeEqual(x, y)
}
