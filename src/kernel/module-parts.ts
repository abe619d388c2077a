import type { ModuleDefinition } from './module.js'

/**
 * One module made of parts (the developer module: OAuth, logs, snapshots, Terraform, sandboxes, SDKs), each
 * part a ModuleDefinition of its own folder with its routes, migrations and services. The module registers
 * and reports as one (`name`, one OpenAPI tag, one usage report); its parts keep their code apart. Hooks
 * that may exist only once per module (event delivery, bearer tokens, privacy, health) may come from at most
 * one part.
 */
export function moduleFromParts(name: string, parts: ModuleDefinition[]): ModuleDefinition {
  const one = <K extends keyof ModuleDefinition>(key: K): ModuleDefinition[K] => {
    const having = parts.filter((p) => p[key] !== undefined)
    if (having.length > 1) throw new Error(`module ${name}: parts ${having.map((p) => p.name).join(', ')} each define ${String(key)}`)
    return having[0]?.[key]
  }
  const withUsage = parts.filter((p) => p.usage)
  const withCallbacks = parts.filter((p) => p.callbacks)
  const withMaintenance = parts.filter((p) => p.maintenance)
  const withReseal = parts.filter((p) => p.reseal)
  const withMetrics = parts.filter((p) => p.metrics)
  const withAccessReview = parts.filter((p) => p.accessReview)
  const retention = parts.flatMap((p) => p.retention ?? [])
  return {
    name,
    uses: [...new Set(parts.flatMap((p) => p.uses ?? []))],
    ...(parts.some((p) => p.scopes) ? { scopes: parts.flatMap((p) => p.scopes ?? []) } : {}),
    errors: Object.assign({}, ...parts.map((p) => p.errors ?? {})),
    migrations: parts.flatMap((p) => p.migrations),
    routes: parts.flatMap((p) => p.routes),
    init(kernel, services) {
      for (const p of parts) p.init(kernel, services)
    },
    health: one('health'),
    eventDelivery: one('eventDelivery'),
    bearer: one('bearer'),
    privacy: one('privacy'),
    ...(parts.some((p) => p.noSubjectData) ? { noSubjectData: Object.assign({}, ...parts.map((p) => p.noSubjectData ?? {})) } : {}),
    ...(retention.length ? { retention } : {}),
    ...(withUsage.length ? { usage: async (k, tenant, from, to) => (await Promise.all(withUsage.map((p) => p.usage!(k, tenant, from, to)))).flat() } : {}),
    ...(withCallbacks.length
      ? {
          callbacks: async (app, kernel, services) => {
            for (const p of withCallbacks) await p.callbacks!(app, kernel, services)
          },
        }
      : {}),
    ...(withMaintenance.length
      ? {
          maintenance: async (kernel, services) => {
            for (const p of withMaintenance) await p.maintenance!(kernel, services)
          },
        }
      : {}),
    ...(withReseal.length ? { reseal: async (kernel, services) => (await Promise.all(withReseal.map((p) => p.reseal!(kernel, services)))).reduce((a, b) => a + b, 0) } : {}),
    ...(withAccessReview.length
      ? {
          accessReview: async (kernel, services, tenant, memberEmail) => {
            const reviewed = await Promise.all(withAccessReview.map((p) => p.accessReview!(kernel, services, tenant, memberEmail)))
            return { summary: reviewed.flatMap((r) => r.summary), sections: reviewed.flatMap((r) => r.sections) }
          },
        }
      : {}),
    ...(withMetrics.length ? { metrics: async (kernel, services) => (await Promise.all(withMetrics.map((p) => p.metrics!(kernel, services)))).flat() } : {}),
  }
}
