import { createHash, randomBytes } from 'node:crypto'
import { iso } from '../../kernel/clock.js'
import { toJson } from '../../kernel/db/database.js'
import { AppError, notFound } from '../../kernel/errors.js'
import type { PageResult } from '../../kernel/http/pagination.js'
import { newId } from '../../kernel/ids.js'
import { enqueue, type JobDefinition } from '../../kernel/jobs/jobs.js'
import type { Kernel } from '../../kernel/kernel.js'
import type { Principal, Tenant } from '../../kernel/tenant.js'
import * as repo from './compliance.repository.js'
import type { CreateDsarBodyT, DsarRequestT, ListDsarQueryT } from './compliance.schemas.js'
import { maskSubject, subjectOf } from './compliance.shared.js'
import type { DsarRequestsTable } from './compliance.tables.js'
import { dsarView } from './compliance.views.js'

/** Default time to answer a request (GDPR art. 12(3): one month). */
export const DSAR_DUE_DAYS = 30
/** How long an export's download link works. */
export const EXPORT_LINK_HOURS = 24

export interface DsarJobPayload {
  workspace_id: string
  mode: Tenant['mode']
  dsar_id: string
}

export const tokenHash = (token: string) => createHash('sha256').update(token).digest('hex')

/** Data-subject requests: received, processed by a job across every module, exported as a ZIP behind an expiring link. */
export class DsarService {
  constructor(
    private readonly k: Kernel,
    private readonly jobs: () => { process: JobDefinition<DsarJobPayload>; exporter: JobDefinition<DsarJobPayload> },
  ) {}

  /** The download link of a ready export (its token opened), or null. */
  link(r: DsarRequestsTable): string | null {
    if (!r.export_token_sealed) return null
    return `${this.k.config.publicUrl}/downloads/dsar/${this.k.secrets.open(r.export_token_sealed, r.id)}`
  }

  view = (r: DsarRequestsTable): DsarRequestT => dsarView(r, this.k.clock.now(), this.link(r))

  /** What events carry: the subject masked (events go to receivers and stay in the outbox), no link. */
  eventView = (r: DsarRequestsTable): DsarRequestT => {
    const v = dsarView(r, this.k.clock.now(), null)
    return { ...v, subject: maskSubject({ email: r.subject_email, phone: r.subject_phone, external_id: r.subject_external_id }) }
  }

  list(tenant: Tenant, q: ListDsarQueryT): Promise<PageResult<DsarRequestT>> {
    const { cursor: _c, limit: _l, ...filters } = q
    return this.k.paginate({ list: 'listDsarRequests', tenant, filters, query: q, fetch: (page) => repo.listDsar(this.k.db, tenant, q, page), key: (r) => r.id, view: this.view })
  }

  async get(tenant: Tenant, id: string): Promise<DsarRequestT> {
    return this.view(await this.or404(tenant, id))
  }

  async create(principal: Principal, body: CreateDsarBodyT): Promise<DsarRequestT> {
    const subject = subjectOf(body.subject)
    if (body.type === 'rectification' && !body.changes) {
      throw new AppError('validation_failed', 'A rectification request needs the corrected values in `changes`.', { errors: [{ pointer: '/body/changes', detail: 'required for rectification' }] })
    }
    const changes = body.changes
      ? {
          ...body.changes,
          ...(body.changes.phone ? { phone: subjectOf({ phone: body.changes.phone }, '/body/changes').phone! } : {}),
          ...(body.changes.email ? { email: body.changes.email.toLowerCase() } : {}),
        }
      : {}
    const now = this.k.clock.now()
    const row: DsarRequestsTable = {
      id: newId('dsar'),
      workspace_id: principal.workspaceId,
      mode: principal.mode,
      type: body.type,
      status: 'received',
      subject_email: subject.email,
      subject_phone: subject.phone,
      subject_external_id: subject.external_id,
      changes: toJson(changes),
      notes: body.notes ?? null,
      due_at: body.due_at ? new Date(body.due_at).toISOString() : iso(new Date(now.getTime() + DSAR_DUE_DAYS * 86400_000)),
      progress: '{}',
      export_status: 'none',
      export_key: null,
      export_sha256: null,
      export_size: null,
      export_token_hash: null,
      export_token_sealed: null,
      export_expires_at: null,
      export_error: null,
      created_at: iso(now),
      updated_at: iso(now),
      completed_at: null,
    }
    return this.k.transaction(principal, async (tx) => {
      await repo.insertDsar(tx, row)
      const view = this.view(row)
      await this.k.events.emit(tx, principal, 'dsar.created', this.eventView(row))
      await enqueue(tx, this.k.clock, this.jobs().process, { workspace_id: principal.workspaceId, mode: principal.mode, dsar_id: row.id })
      return view
    })
  }

  /**
   * A new export of the subject's data: a fresh link (the old one stops working), built by a job. 202 with
   * the export pending; the link appears on the request once the archive is ready.
   */
  async export(principal: Principal, id: string): Promise<DsarRequestT> {
    const current = await this.or404(principal, id)
    if (current.status === 'rejected') throw new AppError('dsar_rejected', `DSAR ${id} was rejected; there is nothing to export.`)
    const token = randomBytes(32).toString('base64url')
    const patch: Partial<DsarRequestsTable> = {
      export_status: 'pending',
      export_error: null,
      export_token_hash: tokenHash(token),
      export_token_sealed: this.k.secrets.seal(token, id),
      export_expires_at: null,
      updated_at: iso(this.k.clock.now()),
    }
    return this.k.transaction(principal, async (tx) => {
      await repo.updateDsar(tx, principal, id, patch)
      await enqueue(tx, this.k.clock, this.jobs().exporter, { workspace_id: principal.workspaceId, mode: principal.mode, dsar_id: id })
      return this.view({ ...current, ...patch })
    })
  }

  async or404(tenant: Tenant, id: string): Promise<DsarRequestsTable> {
    const row = await repo.findDsar(this.k.db, tenant, id)
    if (!row) throw notFound('DSAR request', id)
    return row
  }
}
