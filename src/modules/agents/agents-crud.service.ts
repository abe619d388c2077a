import { aiEngineFor } from '../../kernel/ai/ai.js'
import { iso } from '../../kernel/clock.js'
import { newSecret } from '../../kernel/crypto/signature.js'
import { toJson } from '../../kernel/db/database.js'
import { AppError, notFound } from '../../kernel/errors.js'
import type { PageResult } from '../../kernel/http/pagination.js'
import { newId } from '../../kernel/ids.js'
import type { Kernel } from '../../kernel/kernel.js'
import type { Services } from '../../kernel/services.js'
import type { Tenant } from '../../kernel/tenant.js'
import { checkParameters } from '../../kernel/tools/tools.js'
import { prepareTools, toolsOf } from './agents.config.js'
import * as repo from './agents.repository.js'
import { LIMITS, type AgentT, type CreateAgentBodyT, type UpdateAgentBodyT } from './agents.schemas.js'
import type { AgentsTable } from './agents.tables.js'
import { agentView } from './agents.views.js'
import { invalidReference } from '../../kernel/references.js'

export const DEFAULT_INSTRUCTIONS = 'Use the tools to do what the input asks, then say what was done.'

/** Agents: create (with the signing secret, shown once), read, update (no delete: `status: disabled`). */
export class AgentsCrudService {
  constructor(
    private readonly k: Kernel,
    private readonly services: Services,
  ) {}

  list(tenant: Tenant, q: { cursor?: string; limit?: number; status?: 'active' | 'disabled' }): Promise<PageResult<AgentT>> {
    return this.k.paginate({
      list: 'listAgents',
      tenant,
      filters: { status: q.status },
      query: q,
      fetch: (page) => repo.listAgents(this.k.db, tenant, { ...page, status: q.status }),
      key: (r) => r.id,
      view: agentView,
    })
  }

  async get(tenant: Tenant, id: string): Promise<AgentT> {
    return agentView(await agentOr404(this.k, tenant, id))
  }

  async create(tenant: Tenant, body: CreateAgentBodyT): Promise<AgentT & { signing_secret: string }> {
    await this.checkReferences(tenant, body)
    const id = newId('agt')
    const tools = await prepareTools(this.k, body.tools ?? [], [])
    const secret = newSecret()
    const now = iso(this.k.clock.now())
    const row: AgentsTable = {
      id,
      workspace_id: tenant.workspaceId,
      mode: tenant.mode,
      name: body.name,
      description: body.description ?? null,
      instructions: body.instructions ?? DEFAULT_INSTRUCTIONS,
      tools: toJson(tools),
      knowledge_base_ids: toJson(body.knowledge_base_ids ?? []),
      input_schema: body.input_schema ? toJson(body.input_schema) : null,
      max_steps: body.max_steps ?? LIMITS.maxSteps.default,
      run_timeout_seconds: body.run_timeout_seconds ?? LIMITS.runTimeout.default,
      approval_timeout_seconds: body.approval_timeout_seconds ?? LIMITS.approvalTimeout.default,
      ai: toJson({ provider: null, temperature: null, ...body.ai }),
      status: body.status ?? 'active',
      signing_secret_sealed: this.k.secrets.seal(secret, id),
      metadata: toJson(body.metadata ?? {}),
      created_at: now,
      updated_at: now,
    }
    return this.k.transaction(tenant, async (tx) => {
      await repo.insertAgent(tx, row)
      const view = agentView(row)
      await this.k.events.emit(tx, tenant, 'agent.created', view)
      return { ...view, signing_secret: secret }
    })
  }

  /** Runs already created keep the agent as it was (their snapshot); new runs use the update. */
  async update(tenant: Tenant, id: string, body: UpdateAgentBodyT): Promise<AgentT> {
    const current = await agentOr404(this.k, tenant, id)
    await this.checkReferences(tenant, body)
    const tools = body.tools ? await prepareTools(this.k, body.tools, toolsOf(current)) : null
    return this.k.transaction(tenant, async (tx) => {
      const row = await agentOr404(this.k, tenant, id, tx)
      const patch: Partial<AgentsTable> = { updated_at: iso(this.k.clock.now()) }
      if (body.name !== undefined) patch.name = body.name
      if (body.description !== undefined) patch.description = body.description
      if (body.instructions !== undefined) patch.instructions = body.instructions
      if (tools) patch.tools = toJson(tools)
      if (body.knowledge_base_ids !== undefined) patch.knowledge_base_ids = toJson(body.knowledge_base_ids)
      if (body.input_schema !== undefined) patch.input_schema = body.input_schema ? toJson(body.input_schema) : null
      if (body.max_steps !== undefined) patch.max_steps = body.max_steps
      if (body.run_timeout_seconds !== undefined) patch.run_timeout_seconds = body.run_timeout_seconds
      if (body.approval_timeout_seconds !== undefined) patch.approval_timeout_seconds = body.approval_timeout_seconds
      if (body.ai !== undefined) patch.ai = toJson({ ...JSON.parse(row.ai), ...body.ai })
      if (body.status !== undefined) patch.status = body.status
      if (body.metadata !== undefined) patch.metadata = toJson(body.metadata)
      await repo.updateAgent(tx, tenant, id, patch)
      const view = agentView({ ...row, ...patch })
      await this.k.events.emit(tx, tenant, 'agent.updated', view)
      return view
    })
  }

  /**
   * Seals every agent's signing secret and tool headers under the current server secret (after a
   * rotation). Runs keep the tools of their snapshot as they were sealed: they open while the previous
   * secret is still configured (SERVER_SECRET_PREVIOUS).
   */
  async reseal(): Promise<number> {
    const box = this.k.secrets
    let after: string | null = null
    let count = 0
    for (;;) {
      const page = await repo.allAgentSecrets(this.k.db, after, 500)
      if (page.length === 0) return count
      for (const a of page) {
        const tools = toolsOf(a)
        if (!box.isStale(a.signing_secret_sealed) && !tools.some((t) => t.headers_sealed && box.isStale(t.headers_sealed))) continue
        const to = {
          signing_secret_sealed: box.seal(box.open(a.signing_secret_sealed, a.id), a.id),
          tools: toJson(tools.map((t) => (t.headers_sealed ? { ...t, headers_sealed: box.seal(box.open(t.headers_sealed, t.owner_id), t.owner_id) } : t))),
        }
        if (await repo.resealAgent(this.k.db, a.id, a, to)) count++
      }
      after = page[page.length - 1].id
    }
  }

  /** Knowledge bases exist here, the input schema compiles, an AI override is available. */
  private async checkReferences(tenant: Tenant, body: Pick<CreateAgentBodyT, 'knowledge_base_ids' | 'input_schema' | 'ai'>): Promise<void> {
    for (const [i, kb] of (body.knowledge_base_ids ?? []).entries()) {
      try {
        await this.services.knowledge.bases.get(tenant, kb)
      } catch (err) {
        if (!(err instanceof AppError) || err.code !== 'resource_not_found') throw err
        throw invalidReference(`/body/knowledge_base_ids/${i}`, `No knowledge base with id '${kb}' exists in this workspace.`)
      }
    }
    if (body.input_schema) {
      const schema = body.input_schema as Record<string, unknown>
      const errors = checkParameters({ ...schema, type: schema.type ?? 'object' }, '/body/input_schema')
      if (errors.length > 0) throw new AppError('validation_failed', `${errors[0].pointer}: ${errors[0].detail}`, { errors })
    }
    if (body.ai?.provider) {
      try {
        aiEngineFor(this.k, body.ai.provider)
      } catch (err) {
        if (!(err instanceof AppError)) throw err
        throw new AppError(err.code, err.detail, { errors: [{ pointer: '/body/ai/provider', detail: 'not configured on this server' }] })
      }
    }
  }
}

export async function agentOr404(k: Kernel, tenant: Tenant, id: string, db = k.db): Promise<AgentsTable> {
  const row = await repo.findAgent(db, tenant, id)
  if (!row) throw notFound('agent', id)
  return row
}
