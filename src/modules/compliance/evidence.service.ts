import { createHash } from 'node:crypto'
import type { FastifyReply, FastifyRequest } from 'fastify'
import { sideOwner } from '../../kernel/audit/audit.js'
import { iso } from '../../kernel/clock.js'
import { fromJson, toJson } from '../../kernel/db/database.js'
import { listTenantApiKeys } from '../../kernel/auth/api-keys.js'
import { AppError, notFound } from '../../kernel/errors.js'
import type { PageResult } from '../../kernel/http/pagination.js'
import { sendBlob } from '../../kernel/http/send-blob.js'
import { newId } from '../../kernel/ids.js'
import type { Kernel } from '../../kernel/kernel.js'
import type { AccessReviewPart } from '../../kernel/module.js'
import type { Services } from '../../kernel/services.js'
import type { Principal, Tenant } from '../../kernel/tenant.js'
import type { AuditCheckpoint } from '../../kernel/audit/audit-chain.js'
import type { AuditLogService } from './audit-log.service.js'
import * as repo from './compliance.repository.js'
import { EVIDENCE_KINDS, EVIDENCE_MAX_DAYS, type CreateEvidenceBodyT, type EvidenceT, type ListEvidenceQueryT } from './compliance.schemas.js'
import { apiBase } from './compliance.shared.js'
import type { ComplianceEvidenceTable, EvidenceKind } from './compliance.tables.js'
import { evidenceView } from './compliance.views.js'
import { renderEvidencePdf } from './evidence/render-pdf.js'
import type { EvidenceReport } from './evidence/report.types.js'

const TITLES: Record<EvidenceKind, string> = {
  audit_chain: 'Audit log chain verification',
  access_review: 'Access review',
  retention: 'Retention enforcement',
  dsar_timeliness: 'Data subject request timeliness',
}
const count = (n: number) => n.toLocaleString('en-US')
const sha256 = (s: string | Buffer) => createHash('sha256').update(s).digest('hex')

/**
 * Evidence reports an auditor asks for, each kept as JSON and PDF (blob store) with its SHA-256: the
 * audit chain verified, who has access (keys, scopes, last change made; members and roles), retention runs,
 * DSAR timeliness. Generated daily for the day before (the compliance worker) and on demand (the API, the CLI).
 */
export class EvidenceService {
  constructor(
    private readonly k: Kernel,
    private readonly services: Services,
    private readonly audit: AuditLogService,
  ) {}

  async list(tenant: Tenant, q: ListEvidenceQueryT): Promise<PageResult<EvidenceT>> {
    // The day's scheduled reports exist by the time anyone looks, even before the worker's next round.
    if (!q.cursor) for (const kind of EVIDENCE_KINDS) await this.daily(tenant, kind)
    const { cursor: _c, limit: _l, ...filters } = q
    const base = apiBase(this.k, tenant)
    return this.k.paginate({
      list: 'listComplianceEvidence',
      tenant,
      filters,
      query: q,
      fetch: (page) => repo.listEvidence(this.k.db, tenant, q, page),
      key: (r) => r.id,
      view: (r) => evidenceView(r, base),
    })
  }

  async download(tenant: Tenant, id: string, format: 'pdf' | 'json', request: FastifyRequest, reply: FastifyReply): Promise<FastifyReply> {
    const row = await repo.findEvidence(this.k.db, tenant, id)
    if (!row) throw notFound('evidence report', id)
    const pdf = format === 'pdf'
    return sendBlob(request, reply, this.k.blobs, pdf ? row.pdf_key : row.json_key, {
      contentType: pdf ? 'application/pdf' : 'application/json',
      filename: `${row.kind}-${row.period_from.slice(0, 10)}.${format}`,
    })
  }

  /** A report of `kind` over the period asked (default: the 30 days to now), made now. */
  async create(principal: Principal, body: CreateEvidenceBodyT): Promise<EvidenceT> {
    const now = this.k.clock.now().getTime()
    const to = body.to ? Date.parse(body.to) : now
    const from = body.from ? Date.parse(body.from) : to - 30 * 86400_000
    const invalid = (pointer: string, detail: string) => new AppError('validation_failed', `The report's period is invalid: ${detail}.`, { errors: [{ pointer, detail }] })
    if (to > now) throw invalid('/body/to', 'must not be in the future')
    if (from >= to) throw invalid('/body/from', 'must be before `to`')
    if (to - from > EVIDENCE_MAX_DAYS * 86400_000) throw invalid('/body/from', `a report covers at most ${EVIDENCE_MAX_DAYS} days`)
    const row = await this.generate(principal, body.kind, { from: iso(new Date(from)), to: iso(new Date(to)) }, 'manual', principal)
    return evidenceView(row, apiBase(this.k, principal))
  }

  /** The scheduled report of `kind` for the UTC day before `now`, unless it exists. */
  async daily(tenant: Tenant, kind: EvidenceKind): Promise<ComplianceEvidenceTable | null> {
    const today = new Date(`${iso(this.k.clock.now()).slice(0, 10)}T00:00:00.000Z`)
    const from = iso(new Date(today.getTime() - 86400_000))
    if (await repo.scheduledEvidence(this.k.db, tenant, kind, from)) return null
    return this.generate(tenant, kind, { from, to: iso(today) }, 'schedule')
  }

  /** `owner`: the principal of the request that asked (its Idempotency-Key commits with the report), or null. */
  async generate(tenant: Tenant, kind: EvidenceKind, period: { from: string; to: string }, trigger: 'schedule' | 'manual', owner: Principal | null = null): Promise<ComplianceEvidenceTable> {
    const ws = await this.services.workspaces.getCurrent(tenant)
    const { checkpoint, ...body } = await this.report(tenant, kind, period)
    const report: EvidenceReport = { kind, title: TITLES[kind], workspace: { id: ws.id, name: ws.name }, mode: tenant.mode, period, generated_at: iso(this.k.clock.now()), ...body }
    const json = JSON.stringify(report, null, 2)
    const checksum = sha256(json)
    const pdf = await renderEvidencePdf({ ...report, checksum })
    const id = newId('evd')
    const prefix = `compliance/${tenant.workspaceId}/${tenant.mode}/evidence/${id}`.toLowerCase()
    await this.k.blobs.put(`${prefix}.json`, Buffer.from(json, 'utf8'), { contentType: 'application/json' })
    await this.k.blobs.put(`${prefix}.pdf`, pdf, { contentType: 'application/pdf' })
    const row: ComplianceEvidenceTable = {
      id,
      workspace_id: tenant.workspaceId,
      mode: tenant.mode,
      kind,
      period_from: period.from,
      period_to: period.to,
      trigger,
      summary: toJson(Object.fromEntries(body.summary.map((s) => [s.label, s.value]))),
      json_key: `${prefix}.json`,
      pdf_key: `${prefix}.pdf`,
      sha256: checksum,
      generated_at: report.generated_at,
    }
    // A scheduled report is made by whoever asked for the list (the request) or the compliance job: audited as theirs.
    await this.k.transaction(owner ?? sideOwner(tenant), async (tx) => {
      await repo.insertEvidence(tx, row)
      const view = evidenceView(row, apiBase(this.k, tenant))
      await this.k.events.emit(tx, tenant, 'evidence.generated', view)
      if (checkpoint) await this.k.events.emit(tx, tenant, 'audit.checkpoint', checkpoint)
      return view
    })
    return row
  }

  private async allMembers(tenant: Tenant) {
    const members = []
    for (let cursor: string | undefined; ;) {
      const page = await this.services.workspaces.listMembers(tenant, tenant.workspaceId, { limit: 100, cursor })
      members.push(...page.data)
      if (!page.has_more || !page.next_cursor) return members
      cursor = page.next_cursor
    }
  }

  private async report(tenant: Tenant, kind: EvidenceKind, period: { from: string; to: string }): Promise<Pick<EvidenceReport, 'summary' | 'sections'> & { checkpoint?: AuditCheckpoint }> {
    if (kind === 'audit_chain') {
      const v = await this.audit.verify(tenant)
      const inPeriod = await repo.countAudit(this.k.db, tenant, period.from, period.to)
      // Only an intact chain moves the checkpoint; a broken one keeps the last good one (and reports it).
      const checkpoint = v.intact && v.head ? await this.k.audit.writeCheckpoint(tenant.workspaceId, v.head) : v.checkpoint
      return {
        summary: [
          { label: 'Result', value: v.intact ? 'Intact' : 'BROKEN' },
          { label: 'Entries verified', value: count(v.entries) },
          { label: 'Entries in period', value: count(inPeriod.n) },
          { label: 'Chain head', value: v.head ? `#${v.head.seq} ${v.head.hash}` : 'empty' },
          { label: 'Checkpoint', value: checkpoint ? `#${checkpoint.seq} of ${checkpoint.created_at}` : 'none' },
        ],
        sections: [
          {
            heading: 'Method',
            text: 'Every entry carries an HMAC-SHA256, under a key derived from the server secret and never stored in the database, of its content, its position and the link of the entry before it; an entry the service did not write carries no valid entry MAC and is never sealed. The chain was recomputed from its first entry: a modified, inserted or deleted entry, or one rewritten at the head, breaks it. It was then held to the latest signed checkpoint of its head, kept outside the database: entries deleted from the end break that.',
          },
          ...(checkpoint
            ? [
                {
                  heading: 'Signed checkpoint',
                  text: `Keep this outside the service; a later verification must find the same entry at #${checkpoint.seq}. ${Object.entries(checkpoint)
                    .map(([k, x]) => `${k}: ${x}`)
                    .join('; ')}`,
                },
              ]
            : []),
          ...(v.broken
            ? [{ heading: 'First broken entry', text: `Entry ${v.broken.seq === null ? 'outside the chain' : `#${v.broken.seq}`} (${v.broken.id ?? 'missing'}): ${v.broken.reason}.` }]
            : []),
        ],
        ...(checkpoint ? { checkpoint } : {}),
      }
    }
    if (kind === 'access_review') {
      const keys = await listTenantApiKeys(this.k.db, tenant)
      const last = new Map((await repo.lastWriteByKey(this.k.db, tenant)).map((r) => [r.actor_id, r.last]))
      const members = await this.allMembers(tenant)
      const email = new Map(members.map((m) => [m.id, m.email]))
      // Access through what other modules issue (OAuth authorizations) comes from their accessReview hooks: a
      // deployment without developer tools has no such part, and compliance reads none of their tables.
      const parts: AccessReviewPart[] = []
      for (const m of this.k.modules) if (m.accessReview) parts.push(await m.accessReview(this.k, this.services, tenant, (id) => email.get(id) ?? id))
      return {
        summary: [
          { label: 'Active API keys', value: count(keys.filter((key) => !key.revoked_at).length) },
          { label: 'Revoked API keys', value: count(keys.filter((key) => key.revoked_at).length) },
          { label: 'Members', value: count(members.length) },
          ...parts.flatMap((p) => p.summary),
        ],
        sections: [
          {
            heading: 'API keys',
            text: 'Last change: the newest audit entry made with the key (reads are not audited).',
            table: {
              columns: ['Key', 'Prefix', 'Scopes', 'Created', 'Revoked', 'Last change'],
              rows: keys.map((key) => [key.id, key.prefix, key.scopes.join(' '), key.created_at.slice(0, 10), key.revoked_at?.slice(0, 10) ?? '—', last.get(key.id)?.slice(0, 19) ?? 'never']),
            },
          },
          { heading: 'Members', table: { columns: ['Member', 'Email', 'Role', 'Status', 'Joined'], rows: members.map((m) => [m.id, m.email, m.role, m.status, m.joined_at?.slice(0, 10) ?? '—']) } },
          ...parts.flatMap((p) => p.sections),
        ],
      }
    }
    if (kind === 'retention') {
      const runs = await repo.runsIn(this.k.db, tenant, period.from, period.to)
      const totals: Record<string, number> = {}
      for (const r of runs) for (const [c, v] of Object.entries(fromJson<Record<string, { deleted: number }>>(r.deleted, {}))) totals[c] = (totals[c] ?? 0) + v.deleted
      const policies = fromJson<Record<string, number | 'keep'>>((await repo.findPolicies(this.k.db, tenant))?.policies ?? null, {})
      return {
        summary: [{ label: 'Enforcement runs', value: count(runs.length) }, ...Object.entries(totals).map(([c, n]) => ({ label: `Deleted: ${c}`, value: count(n) }))],
        sections: [
          { heading: 'Policies', table: { columns: ['Class', 'Retention'], rows: Object.entries(policies).map(([c, v]) => [c, v === 'keep' ? 'keep' : `${v} days`]) } },
          {
            heading: 'Runs',
            table: {
              columns: ['Finished', 'Class', 'Cutoff', 'Deleted'],
              rows: runs.flatMap((r) =>
                Object.entries(fromJson<Record<string, { cutoff: string; deleted: number }>>(r.deleted, {})).map(([c, v]) => [r.finished_at.slice(0, 19), c, v.cutoff.slice(0, 19), count(v.deleted)]),
              ),
            },
          },
        ],
      }
    }
    const dsars = await repo.dsarsIn(this.k.db, tenant, period.from, period.to)
    const done = dsars.filter((d) => d.completed_at)
    const onTime = done.filter((d) => d.completed_at! <= d.due_at)
    const overdue = dsars.filter((d) => !d.completed_at && d.due_at < iso(this.k.clock.now()))
    return {
      summary: [
        { label: 'Requests', value: count(dsars.length) },
        { label: 'Completed on time', value: count(onTime.length) },
        { label: 'Completed late', value: count(done.length - onTime.length) },
        { label: 'Open and overdue', value: count(overdue.length) },
      ],
      sections: [
        {
          heading: 'Requests',
          table: {
            columns: ['Request', 'Type', 'Status', 'Received', 'Due', 'Completed'],
            rows: dsars.map((d) => [d.id, d.type, d.status, d.created_at.slice(0, 10), d.due_at.slice(0, 10), d.completed_at?.slice(0, 10) ?? '—']),
          },
        },
      ],
    }
  }
}
