import type { PageResult } from '../../../kernel/http/pagination.js'
import type { Kernel } from '../../../kernel/kernel.js'
import type { Tenant } from '../../../kernel/tenant.js'
import * as repo from './logs.repository.js'
import type { ApiLogT, ListApiLogsQueryT } from './logs.schemas.js'
import { apiLogView } from './logs.views.js'

/** The request log as the API shows it: the tenant's requests, newest first. */
export class ApiLogsService {
  constructor(private readonly k: Kernel) {}

  async list(tenant: Tenant, q: ListApiLogsQueryT): Promise<PageResult<ApiLogT>> {
    // This node's buffered entries are readable at once; another node's within its flush interval (1 s).
    await this.k.apiLogs.flush()
    const { cursor: _c, limit: _l, ...filters } = q
    return this.k.paginate({ list: 'listApiLogs', tenant, filters, query: q, fetch: (page) => repo.listApiLogs(this.k.db, tenant, q, page), key: (r) => r.id, view: apiLogView })
  }
}
