import { fromJson, toJson } from '../../kernel/db/database.js'
import type { Kernel } from '../../kernel/kernel.js'
import type { Tenant } from '../../kernel/tenant.js'
import type { SealedSettings, SettingsSection } from './workspaces.schemas.js'

const SEALED = '_sealed'

/**
 * The load, seal, open, view and reseal steps of a settings section that keeps secrets (leads' CRM, voice's
 * carrier): the owning module decides what is stored and when it may be; this is how every such section holds
 * it. Secrets are bound to `<workspace>:<mode>:<column>`, so one copied into another tenant's row never opens.
 */
export class SealedSection<Stored extends object> implements SealedSettings<Stored> {
  private readonly sealed: (keyof Stored & string)[]

  constructor(
    private readonly k: Kernel,
    private readonly read: (tenant: Tenant, column: SettingsSection['column']) => Promise<string | null>,
    private readonly column: SettingsSection['column'],
    /** The stored fields the workspace shows, in order (secrets included, as flags). */
    private readonly shown: readonly (keyof Stored & string)[],
  ) {
    this.sealed = shown.filter((f) => f.endsWith(SEALED))
  }

  private context(tenant: Tenant): string {
    return `${tenant.workspaceId}:${tenant.mode}:${this.column}`
  }

  parse(json: string | null): Stored | null {
    return fromJson<Stored | null>(json, null)
  }

  async load(tenant: Tenant): Promise<Stored | null> {
    return this.parse(await this.read(tenant, this.column))
  }

  seal(tenant: Tenant, secret: string): string {
    return this.k.secrets.seal(secret, this.context(tenant))
  }

  open(tenant: Tenant, sealed: string): string
  open(tenant: Tenant, sealed: string | null): string | null
  open(tenant: Tenant, sealed: string | null): string | null {
    return sealed ? this.k.secrets.open(sealed, this.context(tenant)) : null
  }

  view(json: string): Record<string, unknown> | null {
    const stored = this.parse(json)
    if (!stored) return null
    return Object.fromEntries(this.shown.map((f) => (f.endsWith(SEALED) ? [`${f.slice(0, -SEALED.length)}_set`, !!stored[f]] : [f, stored[f]])))
  }

  reseal(tenant: Tenant, json: string): string | null {
    const stored = this.parse(json)
    const box = this.k.secrets
    const secretOf = (f: keyof Stored) => (typeof stored?.[f] === 'string' ? (stored[f] as string) : null)
    if (!stored || !this.sealed.some((f) => secretOf(f) !== null && box.isStale(secretOf(f)!))) return null
    const again = this.sealed.map((f) => [f, secretOf(f) === null ? null : this.seal(tenant, this.open(tenant, secretOf(f)!))])
    return toJson({ ...stored, ...Object.fromEntries(again) })
  }
}
