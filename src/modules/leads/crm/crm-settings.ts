import { iso } from '../../../kernel/clock.js'
import { toJson } from '../../../kernel/db/database.js'
import { AppError } from '../../../kernel/errors.js'
import type { Kernel } from '../../../kernel/kernel.js'
import type { Services } from '../../../kernel/services.js'
import type { Tenant } from '../../../kernel/tenant.js'
import type { CrmSettingsInputT, SealedSettings, SettingsSection } from '../../workspaces/workspaces.schemas.js'
import type { CrmConnection } from './crm.types.js'

/** The CRM settings as stored in the workspace's settings (secrets sealed under the workspace id and mode). */
interface StoredCrm {
  provider: 'hubspot' | 'webhook'
  base_url: string | null
  url: string | null
  access_token_sealed: string | null
  signing_secret_sealed: string | null
  updated_at: string
}

/**
 * The CRM a tenant's leads sync to: set with the workspace (PATCH /workspaces/{id} `crm`, kept in its
 * settings row), but what is stored, shown and opened is the leads module's (registered by its init).
 */
export class CrmSettings implements SettingsSection<CrmSettingsInputT> {
  readonly column = 'crm'
  private readonly stored: SealedSettings<StoredCrm>

  constructor(
    private readonly k: Kernel,
    services: Services,
  ) {
    this.stored = services.workspaces.sealedSettings<StoredCrm>('crm', ['provider', 'base_url', 'url', 'access_token_sealed', 'signing_secret_sealed', 'updated_at'])
  }

  /** The tenant's CRM, its secrets opened; null when none is set. */
  async connection(tenant: Tenant): Promise<CrmConnection | null> {
    const crm = await this.stored.load(tenant)
    if (!crm) return null
    return {
      provider: crm.provider,
      base_url: crm.base_url,
      url: crm.url,
      access_token: this.stored.open(tenant, crm.access_token_sealed),
      signing_secret: this.stored.open(tenant, crm.signing_secret_sealed),
    }
  }

  urls(input: CrmSettingsInputT): [string, string | undefined][] {
    return [
      ['/body/crm/url', input.url],
      ['/body/crm/base_url', input.base_url],
    ]
  }

  /** Secrets sealed; ones left out kept while the provider stays. */
  store(tenant: Tenant, input: CrmSettingsInputT, beforeJson: string | null): string {
    const before = this.stored.parse(beforeJson)
    const kept = before?.provider === input.provider ? before : null
    const token = input.access_token !== undefined ? this.stored.seal(tenant, input.access_token) : (kept?.access_token_sealed ?? null)
    const secret = input.signing_secret !== undefined ? this.stored.seal(tenant, input.signing_secret) : (kept?.signing_secret_sealed ?? null)
    const missing = (pointer: string, what: string) => new AppError('validation_failed', `A ${input.provider} CRM needs ${what}.`, { errors: [{ pointer, detail: 'required' }] })
    if (input.provider === 'hubspot' && !token) throw missing('/body/crm/access_token', 'an access_token (a HubSpot private-app token)')
    if (input.provider === 'webhook' && !input.url) throw missing('/body/crm/url', 'a url')
    if (input.provider === 'webhook' && !secret) throw missing('/body/crm/signing_secret', 'a signing_secret')
    const stored: StoredCrm = {
      provider: input.provider,
      base_url: input.provider === 'hubspot' ? (input.base_url ?? kept?.base_url ?? 'https://api.hubapi.com') : null,
      url: input.provider === 'webhook' ? (input.url ?? null) : null,
      access_token_sealed: input.provider === 'hubspot' ? token : null,
      signing_secret_sealed: input.provider === 'webhook' ? secret : null,
      updated_at: iso(this.k.clock.now()),
    }
    return toJson(stored)
  }

  view(json: string) {
    return this.stored.view(json)
  }

  reseal(tenant: Tenant, json: string): string | null {
    return this.stored.reseal(tenant, json)
  }
}
