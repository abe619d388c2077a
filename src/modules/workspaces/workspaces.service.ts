import { iso } from '../../kernel/clock.js'
import { toJson, type Executor, type Tx } from '../../kernel/db/database.js'
import { uniqueConflict } from '../../kernel/db/unique-conflict.js'
import { AppError, notFound } from '../../kernel/errors.js'
import type { PageResult } from '../../kernel/http/pagination.js'
import { newId, randomToken } from '../../kernel/ids.js'
import type { Kernel } from '../../kernel/kernel.js'
import type { Tenant } from '../../kernel/tenant.js'
import { isPhoneRegion } from '../../kernel/pii/pii.js'
import { assertRoleAllows } from './member-roles.js'
import { checkSettingsUrls } from './check-settings-urls.js'
import * as repo from './workspaces.repository.js'
import { memberView, workspaceView } from './workspaces.views.js'
import { SealedSection } from './sealed-settings.js'
import type { CrmSettingsInputT, MemberT, SealedSettings, SettingsSection, UsageT, VoiceCarrierSettingsInputT, WorkspaceT } from './workspaces.schemas.js'
import type { MemberRole, WorkspaceMembersTable, WorkspacesTable } from './workspaces.tables.js'

const MAX_USAGE_DAYS = 366

function isTimezone(tz: string): boolean {
  try {
    new Intl.DateTimeFormat('en', { timeZone: tz })
    return true
  } catch {
    return false
  }
}

const ROLE_RANK: Record<MemberRole, number> = { member: 1, admin: 2, owner: 3 }

/** A member's access shrank: they were removed, or their role was lowered (what it was, what it is now). */
export interface MemberAccessChange {
  memberId: string
  why: 'removed' | 'demoted'
  from: MemberRole
  to: MemberRole | null
}

export class WorkspacesService {
  private readonly accessReduced: ((tx: Tx, tenant: Tenant, change: MemberAccessChange) => Promise<void>)[] = []
  private readonly sections = new Map<'crm' | 'voice', SettingsSection<unknown>>()

  constructor(private readonly k: Kernel) {}

  /**
   * Modules that hold what a member granted (OAuth authorizations) revoke it here, in the transaction that
   * removes or demotes the member: it commits with the change or not at all, and every node sees it at once
   * (the database, not a cache). Registered by the module's init; workspaces knows none of them.
   */
  onMemberAccessReduced(fn: (tx: Tx, tenant: Tenant, change: MemberAccessChange) => Promise<void>): void {
    this.accessReduced.push(fn)
  }

  private async reduced(tx: Tx, tenant: Tenant, change: MemberAccessChange): Promise<void> {
    for (const fn of this.accessReduced) await fn(tx, tenant, change)
  }

  /**
   * The module that uses a part of the settings owns it (leads: the CRM, voice: the carrier): how its input
   * is stored, shown and resealed. Registered by the module's init; workspaces only keeps the JSON.
   */
  registerSettings<Input>(section: SettingsSection<Input>): void {
    this.sections.set(section.column, section as SettingsSection<unknown>)
  }

  /** The stored JSON of a registered part of the tenant's settings, or null (read by the module that owns it). */
  async storedSettings(tenant: Tenant, column: 'crm' | 'voice'): Promise<string | null> {
    return (await repo.findSettings(this.k.db, tenant))?.[column] ?? null
  }

  /** How a section that keeps secrets loads, seals, opens, shows and reseals them (sealed-settings.ts). */
  sealedSettings<Stored extends object>(column: 'crm' | 'voice', shown: readonly (keyof Stored & string)[]): SealedSettings<Stored> {
    return new SealedSection<Stored>(this.k, (tenant, c) => this.storedSettings(tenant, c), column, shown)
  }

  /** `{id}` must be the key's own workspace; any other id is indistinguishable from a missing one. */
  private guard(tenant: Tenant, id: string): void {
    if (id !== tenant.workspaceId) throw notFound('workspace', id)
  }

  /** Used by the CLI and the first start; not an HTTP operation. */
  async create(input: { name: string; ownerEmail?: string | null }): Promise<WorkspacesTable> {
    const now = iso(this.k.clock.now())
    const row: WorkspacesTable = {
      id: newId('ws'),
      name: input.name,
      timezone: 'UTC',
      default_language: 'en',
      default_region: null,
      metadata: '{}',
      created_at: now,
      updated_at: now,
    }
    await this.k.transaction(null, async (tx) => {
      await repo.insertWorkspace(tx, row)
      if (input.ownerEmail) {
        for (const mode of ['live', 'test'] as const) {
          await repo.insertMember(tx, {
            id: newId('mem'),
            workspace_id: row.id,
            mode,
            email: input.ownerEmail.toLowerCase(),
            name: null,
            role: 'owner',
            status: 'active',
            invitation_token: null,
            invited_at: now,
            joined_at: now,
            created_at: now,
            updated_at: now,
          })
        }
      }
    })
    return row
  }

  async first(): Promise<WorkspacesTable | undefined> {
    return repo.firstWorkspace(this.k.db)
  }

  async getCurrent(tenant: Tenant): Promise<WorkspaceT> {
    const found = await repo.findWorkspaceWithSettings(this.k.db, tenant)
    if (!found) throw notFound('workspace', tenant.workspaceId)
    return workspaceView(found.workspace, tenant, found.settings, this.sections)
  }

  /** Seals every stored settings secret (the CRM's, the voice carrier's) under the current server secret (`svc secrets reseal`). */
  async reseal(): Promise<number> {
    let after: Tenant | null = null
    let count = 0
    for (;;) {
      const page = await repo.allSealedSettings(this.k.db, after, 500)
      if (page.length === 0) return count
      for (const row of page) {
        const tenant = { workspaceId: row.workspace_id, mode: row.mode }
        for (const section of this.sections.values()) {
          const stored = row[section.column]
          const next = stored === null ? null : section.reseal(tenant, stored)
          if (next !== null && (await repo.resealColumn(this.k.db, tenant, section.column, stored!, next))) count++
        }
      }
      const last = page[page.length - 1]
      after = { workspaceId: last.workspace_id, mode: last.mode }
    }
  }

  /** Where national phone numbers are read (ISO 3166-1 alpha-2), or null: PII redaction's default region. */
  async defaultRegion(tenant: Tenant, db: Executor = this.k.db): Promise<string | null> {
    return (await repo.findWorkspace(db, tenant))?.default_region ?? null
  }

  /** The lead score at which a conversation creates its lead, or null (`db`: a transaction reading it). */
  async leadAutoCreateScore(tenant: Tenant, db: Executor = this.k.db): Promise<number | null> {
    return (await repo.findSettings(db, tenant))?.lead_auto_create_score ?? null
  }

  async get(tenant: Tenant, id: string): Promise<WorkspaceT> {
    this.guard(tenant, id)
    return this.getCurrent(tenant)
  }

  async update(
    tenant: Tenant,
    id: string,
    patch: {
      name?: string
      timezone?: string
      default_language?: string
      default_region?: string | null
      metadata?: Record<string, string>
      crm?: CrmSettingsInputT | null
      lead_auto_create_score?: number | null
      voice?: VoiceCarrierSettingsInputT | null
    },
  ): Promise<WorkspaceT> {
    this.guard(tenant, id)
    if (patch.timezone !== undefined && !isTimezone(patch.timezone)) {
      throw new AppError('validation_failed', `'${patch.timezone}' is not an IANA time zone.`, {
        errors: [{ pointer: '/body/timezone', detail: 'must be an IANA time zone such as Europe/Berlin' }],
      })
    }
    const region = patch.default_region ? patch.default_region.toUpperCase() : patch.default_region
    if (region && !isPhoneRegion(region)) {
      throw new AppError('validation_failed', `'${patch.default_region}' is not a region with phone number metadata (ISO 3166-1 alpha-2).`, {
        errors: [{ pointer: '/body/default_region', detail: 'must be an ISO 3166-1 alpha-2 region code such as GB or US' }],
      })
    }
    const given = (['crm', 'voice'] as const).flatMap((column) => {
      const input = patch[column]
      const section = this.sections.get(column)
      return input !== undefined && input !== null && section ? [{ section, input }] : []
    })
    for (const { section, input } of given) section.check?.(tenant, input)
    await checkSettingsUrls(
      this.k,
      given.flatMap(({ section, input }) => section.urls(input)),
    )
    return this.k.transaction(tenant, async (tx) => {
      await assertRoleAllows(tx, tenant, { action: 'change the workspace' })
      await repo.updateWorkspace(tx, tenant, {
        ...(patch.name !== undefined ? { name: patch.name } : {}),
        ...(patch.timezone !== undefined ? { timezone: patch.timezone } : {}),
        ...(patch.default_language !== undefined ? { default_language: patch.default_language } : {}),
        ...(region !== undefined ? { default_region: region } : {}),
        ...(patch.metadata !== undefined ? { metadata: toJson(patch.metadata) } : {}),
        updated_at: iso(this.k.clock.now()),
      })
      const row = await repo.findWorkspace(tx, tenant)
      if (!row) throw notFound('workspace', tenant.workspaceId)
      let settings = await repo.findSettings(tx, tenant)
      if (patch.crm !== undefined || patch.lead_auto_create_score !== undefined || patch.voice !== undefined) {
        settings = {
          workspace_id: tenant.workspaceId,
          mode: tenant.mode,
          crm: patch.crm !== undefined ? this.stored(tenant, 'crm', patch.crm, settings?.crm ?? null) : (settings?.crm ?? null),
          lead_auto_create_score: patch.lead_auto_create_score !== undefined ? patch.lead_auto_create_score : (settings?.lead_auto_create_score ?? null),
          voice: patch.voice !== undefined ? this.stored(tenant, 'voice', patch.voice, settings?.voice ?? null) : (settings?.voice ?? null),
          updated_at: iso(this.k.clock.now()),
        }
        await repo.saveSettings(tx, settings)
      }
      return workspaceView(row, tenant, settings, this.sections)
    })
  }

  /** What to store for a part of the settings (null clears it), by the module that owns it. */
  private stored(tenant: Tenant, column: 'crm' | 'voice', input: unknown, before: string | null): string | null {
    if (input === null) return null
    const section = this.sections.get(column)
    if (!section) throw new AppError('validation_failed', `This installation has no module that uses ${column} settings.`, { errors: [{ pointer: `/body/${column}`, detail: 'not supported' }] })
    return section.store(tenant, input, before)
  }

  async listMembers(tenant: Tenant, id: string, q: { cursor?: string; limit?: number }): Promise<PageResult<MemberT>> {
    this.guard(tenant, id)
    return this.k.paginate({
      list: 'listWorkspaceMembers',
      tenant,
      query: q,
      fetch: (page) => repo.listMembers(this.k.db, tenant, page),
      key: (r) => r.id,
      view: (r) => memberView(this.k.config.publicUrl, r),
    })
  }

  async getMember(tenant: Tenant, memberId: string): Promise<MemberT | null> {
    const row = await repo.findMember(this.k.db, tenant, memberId)
    return row ? memberView(this.k.config.publicUrl, row) : null
  }

  async invite(tenant: Tenant, id: string, input: { email: string; name?: string; role?: MemberRole }): Promise<MemberT> {
    this.guard(tenant, id)
    const now = iso(this.k.clock.now())
    const row: WorkspaceMembersTable = {
      id: newId('mem'),
      workspace_id: tenant.workspaceId,
      mode: tenant.mode,
      email: input.email.trim().toLowerCase(),
      name: input.name ?? null,
      role: input.role ?? 'member',
      status: 'invited',
      invitation_token: randomToken(24),
      invited_at: now,
      joined_at: null,
      created_at: now,
      updated_at: now,
    }
    return uniqueConflict(
      () =>
        this.k.transaction(tenant, async (tx) => {
          await assertRoleAllows(tx, tenant, { action: 'invite members', grants: row.role })
          await repo.insertMember(tx, row)
          return memberView(this.k.config.publicUrl, row)
        }),
      'member_already_exists',
      [{ pointer: '/body/email', detail: 'already a member', message: `${row.email} is already a member of this workspace.` }],
    )
  }

  async updateMember(tenant: Tenant, id: string, memberId: string, patch: { name?: string | null; role?: MemberRole; status?: 'active' }): Promise<MemberT> {
    this.guard(tenant, id)
    const now = iso(this.k.clock.now())
    return this.k.transaction(tenant, async (tx) => {
      const row = await repo.findMember(tx, tenant, memberId)
      if (!row) throw notFound('workspace member', memberId)
      const nameOnly = patch.role === undefined && patch.status === undefined
      await assertRoleAllows(tx, tenant, { action: 'change members', target: row, grants: patch.role, nameOnly })
      if (patch.role && patch.role !== 'owner' && row.role === 'owner') await this.assertNotLastOwner(tx, tenant, 'demote')
      const next: Partial<WorkspaceMembersTable> = { updated_at: now }
      if (patch.name !== undefined) next.name = patch.name
      if (patch.role !== undefined) next.role = patch.role
      if (patch.status === 'active' && row.status === 'invited') {
        Object.assign(next, { status: 'active', joined_at: now, invitation_token: null })
      }
      await repo.updateMember(tx, tenant, memberId, next)
      if (patch.role !== undefined && ROLE_RANK[patch.role] < ROLE_RANK[row.role]) {
        await this.reduced(tx, tenant, { memberId, why: 'demoted', from: row.role, to: patch.role })
      }
      return memberView(this.k.config.publicUrl, { ...row, ...next })
    })
  }

  async removeMember(tenant: Tenant, id: string, memberId: string): Promise<MemberT> {
    this.guard(tenant, id)
    return this.k.transaction(tenant, async (tx) => {
      const row = await repo.findMember(tx, tenant, memberId)
      if (!row) throw notFound('workspace member', memberId)
      await assertRoleAllows(tx, tenant, { action: 'remove members', target: row })
      if (row.role === 'owner') await this.assertNotLastOwner(tx, tenant, 'remove')
      await repo.deleteMember(tx, tenant, memberId)
      await this.reduced(tx, tenant, { memberId, why: 'removed', from: row.role, to: null })
      return memberView(this.k.config.publicUrl, row)
    })
  }

  private async assertNotLastOwner(tx: Tx, tenant: Tenant, action: 'remove' | 'demote'): Promise<void> {
    if ((await repo.countOwners(tx, tenant)) <= 1) {
      throw new AppError('last_owner', `Cannot ${action} the last owner; make another member owner first.`)
    }
  }

  async usage(tenant: Tenant, id: string, q: { from?: string; to?: string }): Promise<UsageT> {
    this.guard(tenant, id)
    const today = this.k.clock.now().toISOString().slice(0, 10)
    const to = q.to ?? today
    const from = q.from ?? new Date(Date.parse(to) - 29 * 86400_000).toISOString().slice(0, 10)
    const span = (Date.parse(to) - Date.parse(from)) / 86400_000
    if (Number.isNaN(span) || span < 0) {
      throw new AppError('validation_failed', '`from` must be on or before `to`.', { errors: [{ pointer: '/query/from', detail: 'must be on or before to' }] })
    }
    if (span >= MAX_USAGE_DAYS) {
      throw new AppError('validation_failed', `The period may span at most ${MAX_USAGE_DAYS} days.`, {
        errors: [{ pointer: '/query/from', detail: `period longer than ${MAX_USAGE_DAYS} days` }],
      })
    }
    await this.k.requests.flush()
    const days = new Map<string, UsageT['days'][number]>()
    for (let t = Date.parse(from); t <= Date.parse(to); t += 86400_000) {
      const date = new Date(t).toISOString().slice(0, 10)
      days.set(date, { date, api_requests: 0, api_errors: 0, by_module: {}, metrics: {} })
    }
    const totals: Record<string, number> & UsageT['totals'] = { api_requests: 0, api_errors: 0 }
    const byModule: Record<string, number> = {}
    for (const r of await repo.requestCounts(this.k.db, tenant, from, to)) {
      const d = days.get(r.day)
      if (!d) continue
      d.api_requests += Number(r.count)
      d.api_errors += Number(r.errors)
      d.by_module[r.module] = (d.by_module[r.module] ?? 0) + Number(r.count)
      byModule[r.module] = (byModule[r.module] ?? 0) + Number(r.count)
      totals.api_requests += Number(r.count)
      totals.api_errors += Number(r.errors)
    }
    for (const m of this.k.modules) {
      if (!m.usage) continue
      for (const u of await m.usage(this.k, tenant, from, to)) {
        const d = days.get(u.day)
        if (!d) continue
        d.metrics[u.metric] = (d.metrics[u.metric] ?? 0) + u.count
        totals[u.metric] = (totals[u.metric] ?? 0) + u.count
      }
    }
    return {
      object: 'workspace_usage',
      workspace_id: tenant.workspaceId,
      livemode: tenant.mode === 'live',
      from,
      to,
      totals,
      by_module: byModule,
      days: [...days.values()],
    }
  }
}

declare module '../../kernel/services.js' {
  interface Services {
    workspaces: WorkspacesService
  }
}
