import { createApiKey } from '../../../kernel/auth/api-keys.js'
import { iso } from '../../../kernel/clock.js'
import { countPerDay } from '../../../kernel/db/count-per-day.js'
import { AppError } from '../../../kernel/errors.js'
import type { PageResult } from '../../../kernel/http/pagination.js'
import { withStatus, type WithStatus } from '../../../kernel/http/response-status.js'
import { newId, randomToken } from '../../../kernel/ids.js'
import { enqueue, type JobDefinition } from '../../../kernel/jobs/jobs.js'
import type { Kernel } from '../../../kernel/kernel.js'
import type { Services } from '../../../kernel/services.js'
import type { Principal, Tenant } from '../../../kernel/tenant.js'
import { seedSandboxJob, type SeedSandboxPayload } from './jobs/seed-sandbox.job.js'
import * as repo from './sandbox.repository.js'
import type { CreatedSandboxWorkspaceT, CreateSandboxWorkspaceBodyT, ListSandboxWorkspacesQueryT, SandboxWorkspaceT } from './sandbox.schemas.js'
import type { DeveloperSandboxWorkspacesTable } from './sandbox.tables.js'
import { sandboxView } from './sandbox.views.js'

/** Sandbox workspaces one workspace may have (each is a whole workspace with its own data). */
export const SANDBOX_LIMIT = 20

/**
 * Sandbox workspaces: a new workspace of the caller's own, seeded with sample data in its test mode by a
 * job, reached with a test key shown once (docs/developer-tools.md "Sandbox workspaces").
 */
export class SandboxWorkspacesService {
  readonly seedJob: JobDefinition<SeedSandboxPayload>

  constructor(
    private readonly k: Kernel,
    private readonly services: Services,
  ) {
    this.seedJob = seedSandboxJob(k, services, (r) => this.view(r))
  }

  view(r: DeveloperSandboxWorkspacesTable): SandboxWorkspaceT {
    return sandboxView(r, this.k.config.publicUrl, this.k.secrets.open(r.playground_token_sealed, r.id))
  }

  list(tenant: Tenant, q: ListSandboxWorkspacesQueryT): Promise<PageResult<SandboxWorkspaceT>> {
    const { cursor: _c, limit: _l, ...filters } = q
    return this.k.paginate({ list: 'listSandboxWorkspaces', tenant, filters, query: q, fetch: (page) => repo.listSandboxes(this.k.db, tenant, q, page), key: (r) => r.id, view: (r) => this.view(r) })
  }

  /**
   * The workspace is made first (its own transaction: WorkspacesService.create), then the sandbox, its key
   * and the seeding job commit together with the Idempotency-Key. A crash between the two leaves an empty
   * workspace nothing refers to and no key can reach; the retry makes a new one.
   */
  async create(principal: Principal, body: CreateSandboxWorkspaceBodyT): Promise<WithStatus<CreatedSandboxWorkspaceT>> {
    // A test key is the credential that is safe to leak: it may not mint workspaces and keys. A sandbox
    // has only test keys, so sandboxes never nest.
    if (principal.mode !== 'live' || (await repo.isSandboxWorkspace(this.k.db, principal.workspaceId))) {
      throw new AppError('sandbox_requires_live_key', 'Sandbox workspaces are created with a live key (svc_live_…) of a workspace that is not itself a sandbox.')
    }
    if ((await repo.countSandboxes(this.k.db, principal)) >= SANDBOX_LIMIT) {
      throw new AppError('sandbox_limit_reached', `This workspace already has ${SANDBOX_LIMIT} sandbox workspaces.`)
    }
    const parent = await this.services.workspaces.getCurrent(principal)
    const name = body.name ?? `Sandbox of ${parent.name}`.slice(0, 200)
    const workspace = await this.services.workspaces.create({ name })
    const id = newId('sbx')
    const now = iso(this.k.clock.now())
    return this.k.transaction(principal, async (tx) => {
      // The key holds the caller's own scopes: making a sandbox never widens what the caller can do.
      const key = await createApiKey(tx, this.k.clock, { workspaceId: workspace.id, mode: 'test', scopes: principal.scopes, name: `Sandbox key (${id})` })
      const row: DeveloperSandboxWorkspacesTable = {
        id,
        workspace_id: principal.workspaceId,
        mode: principal.mode,
        sandbox_workspace_id: workspace.id,
        name,
        status: 'seeding',
        api_key_id: key.id,
        api_key_prefix: key.prefix,
        api_key_scopes: principal.scopes.join(' '),
        playground_token_sealed: this.k.secrets.seal(randomToken(24), id),
        seeded: '{}',
        error: null,
        created_at: now,
        updated_at: now,
        ready_at: null,
      }
      await repo.insertSandbox(tx, row)
      await enqueue(tx, this.k.clock, this.seedJob, { workspace_id: principal.workspaceId, mode: principal.mode, sandbox_id: id })
      return withStatus(202, { ...this.view(row), test_key: key.key })
    })
  }
}

/** The module's usage hook: sandbox workspaces created per UTC day. */
export async function sandboxUsage(k: Kernel, tenant: Tenant, from: string, to: string): Promise<{ day: string; metric: string; count: number }[]> {
  return (await countPerDay(k.db, tenant, 'developer_sandbox_workspaces', from, to)).map((r) => ({ ...r, metric: 'sandbox_workspaces' }))
}

declare module '../../../kernel/services.js' {
  interface Services {
    developerSandbox: SandboxWorkspacesService
  }
}
