import type { ModuleMigration } from './db/migrations.js'
import type { ErrorSpec } from './errors.js'
import type { AnyRoute } from './http/define-route.js'
import type { Kernel } from './kernel.js'
import type { Services } from './services.js'
import type { Tenant } from './tenant.js'
import type { ModuleGauge } from './metrics.js'

export interface ModuleHealth {
  status: 'ok' | 'degraded' | 'down'
  detail?: string
  [k: string]: unknown
}

/**
 * A module: its migrations, its routes, and `init`, which builds its service into the container and
 * registers its jobs, event types and event subscribers with the kernel.
 */
export interface ModuleDefinition {
  name: string
  /** The module's error catalogue (`<module>.errors.ts`, made with `defineErrors`). */
  errors?: Record<string, ErrorSpec>
  /** Modules whose services this one calls (`services.<name>`); each must come earlier in MODULES. */
  uses?: string[]
  migrations: ModuleMigration[]
  routes: AnyRoute[]
  init(kernel: Kernel, services: Services): void
  /** A real check of the module's own dependencies (tables, queues, providers). */
  health?(kernel: Kernel, services: Services): Promise<ModuleHealth>
  /** Counters this module adds to the workspace usage report, per UTC day (YYYY-MM-DD) in [from, to]. */
  usage?(kernel: Kernel, tenant: Tenant, from: string, to: string): Promise<{ day: string; metric: string; count: number }[]>
  /** Gauges reported on GET /metrics at scrape time (names prefixed `svc_<module>_`). */
  metrics?(kernel: Kernel, services: Services): Promise<ModuleGauge[]>
}

export const defineModule = (m: ModuleDefinition): ModuleDefinition => m
