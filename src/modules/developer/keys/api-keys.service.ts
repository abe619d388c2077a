import { clearPrincipalCache, createApiKey, revokeApiKey } from '../../../kernel/auth/api-keys.js'
import type { ApiKeysTable } from '../../../kernel/db/kernel.tables.js'
import { notFound } from '../../../kernel/errors.js'
import type { PageResult } from '../../../kernel/http/pagination.js'
import type { Kernel } from '../../../kernel/kernel.js'
import type { Tenant } from '../../../kernel/tenant.js'
import type { ApiKeyT, CreateApiKeyBodyT, CreatedApiKeyT, ListApiKeysQueryT } from './keys.schemas.js'
import * as repo from './keys.repository.js'

export function apiKeyView(row: Pick<ApiKeysTable, 'id' | 'name' | 'prefix' | 'mode' | 'scopes' | 'created_at' | 'revoked_at' | 'last_used_at'>): ApiKeyT {
  return {
    id: row.id,
    object: 'api_key',
    name: row.name,
    prefix: row.prefix,
    livemode: row.mode === 'live',
    scopes: row.scopes.split(' ').filter(Boolean),
    status: row.revoked_at ? 'revoked' : 'active',
    created_at: row.created_at,
    last_used_at: row.last_used_at ?? null,
    revoked_at: row.revoked_at,
  }
}

/**
 * services.apiKeys: the workspace's API keys through the API (the dashboard's developer area; the CLI
 * makes them on the server). A key works in the mode it was made in: one made on /sandbox/v2 is a
 * svc_test_ key. Only the SHA-256 of a key is stored, so the key itself is in the creation answer only.
 */
export class ApiKeysService {
  constructor(private readonly k: Kernel) {}

  list(tenant: Tenant, q: ListApiKeysQueryT): Promise<PageResult<ApiKeyT>> {
    const { cursor: _c, limit: _l, ...filters } = q
    return this.k.paginate({ list: 'listApiKeys', tenant, filters, query: q, fetch: (p) => repo.listKeys(this.k.db, tenant, q, p), key: (r) => r.id, view: apiKeyView })
  }

  async get(tenant: Tenant, id: string): Promise<ApiKeyT> {
    const row = await repo.findKey(this.k.db, tenant, id)
    if (!row) throw notFound('api_key', id)
    return apiKeyView(row)
  }

  create(tenant: Tenant, body: CreateApiKeyBodyT): Promise<CreatedApiKeyT> {
    return this.k.transaction(tenant, async (tx) => {
      const made = await createApiKey(tx, this.k.clock, { workspaceId: tenant.workspaceId, mode: tenant.mode, scopes: body.scopes, name: body.name ?? null })
      return { ...apiKeyView({ ...made, scopes: made.scopes.join(' ') }), key: made.key }
    })
  }

  /** Revokes at once in this process, within a second on every other node (the principal cache). Revoking twice is a no-op. */
  async revoke(tenant: Tenant, id: string): Promise<ApiKeyT> {
    const key = await this.k.transaction(tenant, async (tx) => {
      const row = await repo.findKey(tx, tenant, id)
      if (!row) throw notFound('api_key', id)
      if (!row.revoked_at) await revokeApiKey(tx, this.k.clock, id)
      return apiKeyView((await repo.findKey(tx, tenant, id))!)
    })
    // Again after the commit: a request in between (another connection) may have cached the key as still valid.
    clearPrincipalCache()
    return key
  }
}

declare module '../../../kernel/services.js' {
  interface Services {
    apiKeys: ApiKeysService
  }
}
