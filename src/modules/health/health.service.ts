import { API_VERSION } from '../../kernel/events/events.js'
import { queueStats } from '../../kernel/jobs/jobs.js'
import type { Kernel } from '../../kernel/kernel.js'
import type { ModuleHealth } from '../../kernel/module.js'
import type { Services } from '../../kernel/services.js'
import type { Mode } from '../../kernel/tenant.js'

/** The modules GET /health reports on, as the 2.4.0 changelog lists them. */
export const REPORTED_MODULES = ['inbox', 'bots', 'voice', 'knowledge', 'webhooks', 'compliance'] as const

export type ComponentStatus = 'ok' | 'degraded' | 'down' | 'not_available'
export interface Component {
  status: ComponentStatus
  detail?: string
  latency_ms?: number
  [k: string]: unknown
}

export class HealthService {
  constructor(
    private readonly k: Kernel,
    private readonly services: Services,
  ) {}

  root(mode: Mode) {
    const base = this.k.config.publicUrl
    const own = mode === 'live' ? `${base}/v2` : `${base}/sandbox/v2`
    return {
      object: 'api_root' as const,
      name: 'Conversational Automation Service API',
      api_version: API_VERSION,
      livemode: mode === 'live',
      links: {
        live: `${base}/v2`,
        sandbox: `${base}/sandbox/v2`,
        openapi: `${own}/openapi.json`,
        api_docs: `${own}/api-docs`,
        health: `${own}/health`,
      },
    }
  }

  private async timed(check: () => Promise<ModuleHealth | Component>): Promise<Component> {
    const t = performance.now()
    try {
      const r = await check()
      return { ...r, latency_ms: Math.round((performance.now() - t) * 100) / 100 }
    } catch (err) {
      return { status: 'down', detail: err instanceof Error ? err.message : String(err), latency_ms: Math.round(performance.now() - t) }
    }
  }

  async report(): Promise<{ healthy: boolean; body: Record<string, unknown> }> {
    const database = await this.timed(async () => {
      await this.k.database.ping()
      return { status: 'ok', engine: this.k.database.engine }
    })
    const jobQueue =
      database.status === 'ok'
        ? await this.timed(async () => {
            const s = await queueStats(this.k.db, this.k.clock)
            // A backlog older than five minutes means workers are missing or stuck.
            const status = s.oldestDueAgeSeconds > 300 ? 'degraded' : 'ok'
            return { status, pending: s.pending, running: s.running, failed: s.failed, oldest_due_age_seconds: Math.round(s.oldestDueAgeSeconds) }
          })
        : { status: 'down' as const, detail: 'database unreachable' }
    const modules: Record<string, Component> = {}
    for (const name of REPORTED_MODULES) {
      const m = this.k.modules.find((x) => x.name === name)
      if (!m) {
        modules[name] = { status: 'not_available', detail: 'This module is not part of this build yet.' }
      } else if (database.status !== 'ok') {
        modules[name] = { status: 'down', detail: 'database unreachable' }
      } else {
        modules[name] = m.health ? await this.timed(() => m.health!(this.k, this.services)) : { status: 'ok' }
      }
    }
    // Down dependencies degrade the report (still 200): the API answers without them.
    const dependencies = await this.k.dependencies.check()
    const parts = [database, jobQueue, ...Object.values(dependencies), ...Object.values(modules).filter((m) => m.status !== 'not_available')]
    const status = database.status !== 'ok' ? 'down' : parts.every((p) => p.status === 'ok') ? 'ok' : 'degraded'
    return {
      healthy: database.status === 'ok',
      body: {
        object: 'health',
        status,
        api_version: API_VERSION,
        checked_at: this.k.clock.now().toISOString(),
        database,
        job_queue: jobQueue,
        dependencies,
        modules,
      },
    }
  }
}

declare module '../../kernel/services.js' {
  interface Services {
    health: HealthService
  }
}
