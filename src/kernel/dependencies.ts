/** The state of an outside service the API keeps working without, degraded. */
export interface DependencyState {
  status: 'ok' | 'down'
  detail: string
  [k: string]: unknown
}

/**
 * Outside services the process can run without (Redis, for the shared rate-limit counters): each registers
 * a check, and `/readyz` and GET /health report them. A database is not one of them (nothing works without it).
 */
export class Dependencies {
  private readonly checks = new Map<string, () => Promise<DependencyState>>()

  add(name: string, check: () => Promise<DependencyState>): void {
    this.checks.set(name, check)
  }

  async check(): Promise<Record<string, DependencyState>> {
    const out: Record<string, DependencyState> = {}
    for (const [name, check] of this.checks) {
      out[name] = await check().catch((err: Error) => ({ status: 'down' as const, detail: err.message }))
    }
    return out
  }
}
