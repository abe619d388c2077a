import type { FastifyInstance } from 'fastify'
import { text } from 'node:stream/consumers'
import { iso } from '../../../kernel/clock.js'
import { toJson } from '../../../kernel/db/database.js'
import { AppError } from '../../../kernel/errors.js'
import type { PageResult } from '../../../kernel/http/pagination.js'
import { newId } from '../../../kernel/ids.js'
import type { Kernel } from '../../../kernel/kernel.js'
import type { Tenant } from '../../../kernel/tenant.js'
import { servedDocument } from './current-document.js'
import { diffOpenApi, type OpenApiDiff } from './openapi-diff.js'
import type { Json } from './openapi-walk.js'
import * as repo from './snapshots.repository.js'
import type { CreateOpenApiSnapshotBodyT, ListOpenApiSnapshotsQueryT, OpenApiSnapshotT } from './snapshots.schemas.js'
import type { OpenApiSnapshotsTable } from './snapshots.tables.js'
import { snapshotView } from './snapshots.views.js'

const EMPTY_DIFF: OpenApiDiff = { added_operations: [], removed_operations: [], breaking_changes: [], non_breaking_changes: [] }

/**
 * `services.openApiSnapshots`: the served OpenAPI document kept per workspace and mode, with its diff from
 * the previous snapshot. Documents are stored once per content (blob key = SHA-256 of the canonical JSON):
 * the document is the public contract of this build, the same for every tenant, so equal snapshots share
 * one file.
 */
export class OpenApiSnapshotsService {
  constructor(private readonly k: Kernel) {}

  private base(tenant: Tenant): string {
    return `${this.k.config.publicUrl}${tenant.mode === 'live' ? '/v2' : '/sandbox/v2'}`
  }

  async list(tenant: Tenant, q: ListOpenApiSnapshotsQueryT): Promise<PageResult<OpenApiSnapshotT>> {
    // A document is about 1 MB: one per request.
    if (q.include === 'document' && !q.id) {
      throw new AppError('validation_failed', 'include=document returns a snapshot’s whole document: name the snapshot with id (its document_url does).', {
        errors: [{ pointer: '/query/include', detail: 'only together with id' }],
      })
    }
    const { cursor: _c, limit: _l, ...filters } = q
    const page = await this.k.paginate({ list: 'listOpenApiSnapshots', tenant, filters, query: q, fetch: (p) => repo.listSnapshots(this.k.db, tenant, q, p), key: (r) => r.id, view: (r) => r })
    const base = this.base(tenant)
    const data = await Promise.all(page.data.map(async (r) => snapshotView(r, base, q.include === 'document' ? await this.document(r) : undefined)))
    return { ...page, data }
  }

  /**
   * Stores the served document and its diff from the tenant's newest snapshot. Two snapshots taken at
   * the same moment may both diff from the same predecessor: each diff is exact for the
   * `previous_snapshot_id` it names.
   */
  async create(tenant: Tenant, body: CreateOpenApiSnapshotBodyT, server: FastifyInstance): Promise<OpenApiSnapshotT> {
    const served = servedDocument(this.k, server)
    const key = `developer/openapi/${served.sha256}.json`
    if (!(await this.k.blobs.stat(key))) await this.k.blobs.put(key, Buffer.from(served.canonical, 'utf8'), { contentType: 'application/json' })
    const previous = await repo.latestSnapshot(this.k.db, tenant)
    const unchanged = previous?.sha256 === served.sha256
    const diff = !previous ? null : unchanged ? EMPTY_DIFF : diffOpenApi(await this.document(previous), served.document)
    const document = served.document
    const row: OpenApiSnapshotsTable = {
      id: newId('snap'),
      workspace_id: tenant.workspaceId,
      mode: tenant.mode,
      label: body.label ?? null,
      api_version: String((document.info as Json | undefined)?.version ?? ''),
      openapi_version: String(document.openapi ?? ''),
      sha256: served.sha256,
      operation_count: served.operationCount,
      size_bytes: Buffer.byteLength(served.canonical, 'utf8'),
      document_key: key,
      previous_id: previous?.id ?? null,
      unchanged: unchanged ? 1 : 0,
      diff: diff ? toJson(diff) : null,
      breaking_count: diff?.breaking_changes.length ?? 0,
      created_at: iso(this.k.clock.now()),
    }
    return this.k.transaction(tenant, async (tx) => {
      await repo.insertSnapshot(tx, row)
      const view = snapshotView(row, this.base(tenant))
      await this.k.events.emit(tx, tenant, 'openapi_snapshot.created', view)
      return view
    })
  }

  /** A snapshot's stored document. */
  private async document(r: OpenApiSnapshotsTable): Promise<Json> {
    return JSON.parse(await text(this.k.blobs.read(r.document_key))) as Json
  }
}

declare module '../../../kernel/services.js' {
  interface Services {
    openApiSnapshots: OpenApiSnapshotsService
  }
}
