import { iso } from '../../../kernel/clock.js'
import { fromJson, toJson } from '../../../kernel/db/database.js'
import { AppError } from '../../../kernel/errors.js'
import type { Kernel } from '../../../kernel/kernel.js'
import type { Services } from '../../../kernel/services.js'
import type { Tenant } from '../../../kernel/tenant.js'
import type { CrmSettingsInputT, SettingsSection } from '../../workspaces/workspaces.schemas.js'
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

const context = (tenant: Tenant) => `${tenant.workspaceId}:${tenant.mode}:crm`

/**
 * The CRM a tenant's leads sync to: set with the workspace (PATCH /workspaces/{id} `crm`, kept in its
 * settings row), but what is stored, shown and opened is the leads module's (registered by its init).
 */
export class CrmSettings implements SettingsSection<CrmSettingsInputT> {
  readonly column = 'crm'

  constructor(
    private readonly k: Kernel,
    private readonly services: Services,
  ) {}

  /** The tenant's CRM, its secrets opened; null when none is set. */
  async connection(tenant: Tenant): Promise<CrmConnection | null> {
    const crm = fromJson<StoredCrm | null>(await this.services.workspaces.storedSettings(tenant, 'crm'), null)
    if (!crm) return null
    return {
      provider: crm.provider,
      base_url: crm.base_url,
      url: crm.url,
      access_token: crm.access_token_sealed ? this.k.secrets.open(crm.access_token_sealed, context(tenant)) : null,
      signing_secret: crm.signing_secret_sealed ? this.k.secrets.open(crm.signing_secret_sealed, context(tenant)) : null,
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
    const before = fromJson<StoredCrm | null>(beforeJson, null)
    const ctx = context(tenant)
    const kept = before?.provider === input.provider ? before : null
    const token = input.access_token !== undefined ? this.k.secrets.seal(input.access_token, ctx) : (kept?.access_token_sealed ?? null)
    const secret = input.signing_secret !== undefined ? this.k.secrets.seal(input.signing_secret, ctx) : (kept?.signing_secret_sealed ?? null)
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
    const crm = fromJson<StoredCrm | null>(json, null)
    if (!crm) return null
    return { provider: crm.provider, base_url: crm.base_url, url: crm.url, access_token_set: !!crm.access_token_sealed, signing_secret_set: !!crm.signing_secret_sealed, updated_at: crm.updated_at }
  }

  reseal(tenant: Tenant, json: string): string | null {
    const crm = fromJson<StoredCrm | null>(json, null)
    const box = this.k.secrets
    if (!crm || ![crm.access_token_sealed, crm.signing_secret_sealed].some((v) => v !== null && box.isStale(v))) return null
    const again = (v: string | null) => (v === null ? null : box.seal(box.open(v, context(tenant)), context(tenant)))
    return toJson({ ...crm, access_token_sealed: again(crm.access_token_sealed), signing_secret_sealed: again(crm.signing_secret_sealed) })
  }
}
