import type { ModuleMigration } from './db/migrations.js'
import type { ErrorSpec } from './errors.js'
import type { AnyRoute } from './http/define-route.js'
import type { EventDelivery } from './http/openapi.js'
import type { Kernel } from './kernel.js'
import type { Services } from './services.js'
import type { Tenant } from './tenant.js'
import type { ModuleGauge } from './metrics.js'

export interface ModuleHealth {
  status: 'ok' | 'degraded' | 'down'
  detail?: string
  [k: string]: unknown
}

/** What a fixture may use: workspace A's keys and a request function (the test app's, in tests). */
export interface FixtureClient {
  a: { workspaceId: string; live: string; test: string }
  request(opts: { method: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE'; url: string; payload?: object; key?: string | null }): Promise<{ statusCode: number; body: string }>
  /** Runs every due job now (a fixture whose resource exists only after its worker ran, e.g. a run waiting for approval). */
  drainJobs(): Promise<void>
}

/**
 * For the shared route-table suites (security, cursors, aliases): make a resource in workspace A (live)
 * and return the path parameters addressing it — or `{ params, body }` when the operation needs a valid
 * body to get past validation.
 */
export type Fixture = (c: FixtureClient) => Promise<Record<string, string> | { params: Record<string, string>; body?: unknown }>

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
  /** Fixtures per operationId with path parameters, loaded only by the tests (`<module>.fixtures.ts`). */
  fixtures?: () => Promise<Record<string, Fixture>>
  /** How this module delivers events to receivers (the OpenAPI `webhooks` section); at most one module. */
  eventDelivery?: EventDelivery
  /** Re-seal the credentials this module stores under the current server secret; returns how many rows changed. */
  reseal?(kernel: Kernel, services: Services): Promise<number>
  /** Gauges reported on GET /metrics at scrape time (names prefixed `svc_<module>_`). */
  metrics?(kernel: Kernel, services: Services): Promise<ModuleGauge[]>
}

export const defineModule = (m: ModuleDefinition): ModuleDefinition => m
