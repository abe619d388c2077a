import { createHash } from 'node:crypto'
import { readdirSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import type { FastifyInstance } from 'fastify'
import { stringify } from 'safe-stable-stringify'
import { iso } from '../../../kernel/clock.js'
import { countPerDay } from '../../../kernel/db/count-per-day.js'
import { AppError, type FieldError } from '../../../kernel/errors.js'
import type { PageResult } from '../../../kernel/http/pagination.js'
import { withStatus, type WithStatus } from '../../../kernel/http/response-status.js'
import { newId, randomToken } from '../../../kernel/ids.js'
import { enqueue, type JobDefinition } from '../../../kernel/jobs/jobs.js'
import type { Kernel } from '../../../kernel/kernel.js'
import type { Principal, Tenant } from '../../../kernel/tenant.js'
import { generateSdkJob, type GenerateSdkPayload } from './jobs/generate-sdk.job.js'
import { findSdkRoot, type SdkLanguage } from './sdk-folder.js'
import { findManifest, manifestKind, PACKAGE_RULES, type ManifestInfo } from './sdk-manifest.js'
import * as repo from './sdk-generations.repository.js'
import type { CreateSdkGenerationBodyT, ListSdkGenerationsQueryT, SdkGenerationT } from './sdk-generations.schemas.js'
import type { DeveloperSdkGenerationsTable } from './sdk-generations.tables.js'
import { generationView } from './sdk-generations.views.js'

/** Generations of one workspace and mode queued or running at once (each costs a second or two of CPU). */
export const MAX_PENDING = 5
/** Ids are `sdkgen_<ULID>`, longer than the kernel's default key shape. */
const ID_SHAPE = /^sdkgen_[0-9A-Z]{26}$/

export const sha256 = (b: Buffer | string) => createHash('sha256').update(b).digest('hex')

/**
 * The OpenAPI document exactly as this server serves it: GET /v2/openapi.json through the app itself, with the
 * caller's Authorization (the request counts in the caller's rate-limit bucket, not in the loopback address's).
 */
export async function servedDocument(app: FastifyInstance, authorization?: string): Promise<string> {
  const r = await app.inject({ method: 'GET', url: '/v2/openapi.json', headers: authorization ? { authorization } : {} })
  if (r.statusCode !== 200) throw new Error(`GET /v2/openapi.json answered ${r.statusCode}`)
  return r.body
}

/** The package manifest of a client folder (top-level files only: cheap enough for a request). */
function ownManifest(dir: string): ManifestInfo | null {
  try {
    const names = readdirSync(dir).filter((n) => manifestKind(n))
    return findManifest(new Map(names.map((n) => [n, readFileSync(join(dir, n))])))
  } catch {
    return null
  }
}

/**
 * SDK generations: a client package built by a job from the document served at the time of the request
 * (kept in the blob store until the job ran), downloadable behind an expiring link (docs/developer-tools.md).
 */
export class SdkGenerationsService {
  readonly job: JobDefinition<GenerateSdkPayload>

  constructor(private readonly k: Kernel) {
    this.job = generateSdkJob(k, (r) => this.view(r, null))
  }

  link(r: DeveloperSdkGenerationsTable): string {
    return `${this.k.config.publicUrl}/downloads/sdk/${this.k.secrets.open(r.token_sealed, r.id)}`
  }

  view(r: DeveloperSdkGenerationsTable, link: string | null = r.status === 'succeeded' ? this.link(r) : null): SdkGenerationT {
    return generationView(r, this.k.clock.now(), link)
  }

  list(tenant: Tenant, q: ListSdkGenerationsQueryT): Promise<PageResult<SdkGenerationT>> {
    const { cursor: _c, limit: _l, ...filters } = q
    return this.k.paginate({
      list: 'listSdkGenerations',
      tenant,
      filters,
      query: q,
      keyShape: ID_SHAPE,
      fetch: (page) => repo.listGenerations(this.k.db, tenant, q, page),
      key: (r) => r.id,
      view: (r) => this.view(r),
    })
  }

  async create(principal: Principal, body: CreateSdkGenerationBodyT, document: () => Promise<string>): Promise<WithStatus<SdkGenerationT>> {
    const root = findSdkRoot()
    if (!root) throw new AppError('sdk_generator_unavailable', 'This server was deployed without the sdk/ folder (the clients’ hand-written runtimes), so it cannot generate clients.')
    const language: SdkLanguage = body.language
    const rules = PACKAGE_RULES[language]
    const invalid: FieldError[] = []
    if (body.package_name !== undefined && !rules.name.test(body.package_name)) invalid.push({ pointer: '/body/package_name', detail: `must be ${rules.nameHint}` })
    if (body.version !== undefined && !rules.version.test(body.version)) invalid.push({ pointer: '/body/version', detail: `must be ${rules.versionHint}` })
    if (invalid.length) throw new AppError('validation_failed', `Not a valid ${language} package: ${invalid.map((e) => `${e.pointer.split('/').pop()} ${e.detail}`).join('; ')}.`, { errors: invalid })
    if ((await repo.countPending(this.k.db, principal)) >= MAX_PENDING) {
      throw new AppError('sdk_generations_busy', `${MAX_PENDING} generations are still queued or running; wait for one to finish.`, { headers: { 'Retry-After': '5' } })
    }

    const served = JSON.parse(await document()) as { info?: { version?: unknown } }
    // Canonical JSON (keys sorted, no whitespace): its SHA-256 is an OpenAPI snapshot's `sha256` of the same document.
    const text = stringify(served)!
    const apiVersion = String(served.info?.version ?? 'unknown')
    const own = ownManifest(join(root, language))
    const id = newId('sdkgen')
    const token = randomToken(32)
    const now = iso(this.k.clock.now())
    const documentKey = `developer/sdk/${id}/openapi.json`.toLowerCase()
    const row: DeveloperSdkGenerationsTable = {
      id,
      workspace_id: principal.workspaceId,
      mode: principal.mode,
      language,
      package_name: body.package_name ?? own?.name ?? rules.defaultName,
      version: body.version ?? own?.version ?? apiVersion,
      status: 'queued',
      api_version: apiVersion,
      document_sha256: sha256(text),
      document_key: documentKey,
      operations: null,
      archive_key: null,
      archive_sha256: null,
      archive_size: null,
      archive_files: null,
      token_hash: sha256(token),
      token_sealed: this.k.secrets.seal(token, id),
      expires_at: null,
      error: null,
      created_at: now,
      updated_at: now,
      completed_at: null,
    }
    // The document the caller asked about, for the job (which may run in a worker without HTTP).
    await this.k.blobs.put(documentKey, Buffer.from(text, 'utf8'), { contentType: 'application/json' })
    try {
      return await this.k.transaction(principal, async (tx) => {
        await repo.insertGeneration(tx, row)
        await enqueue(tx, this.k.clock, this.job, { workspace_id: principal.workspaceId, mode: principal.mode, generation_id: id })
        return withStatus(202, this.view(row))
      })
    } catch (err) {
      await this.k.blobs.delete(documentKey).catch(() => {})
      throw err
    }
  }

  /** Maintenance: archives whose link expired are deleted from the blob store (the generation stays listed). */
  async purgeExpired(): Promise<number> {
    const rows = await repo.expiredArchives(this.k.db, iso(this.k.clock.now()), 100)
    for (const r of rows) {
      await this.k.blobs.delete(r.archive_key!)
      await repo.clearArchiveKey(this.k.db, { workspaceId: r.workspace_id, mode: r.mode }, r.id, r.archive_key!)
    }
    return rows.length
  }
}

/** The module's usage hook: SDK generations requested per UTC day. */
export async function sdkGenerationsUsage(k: Kernel, tenant: Tenant, from: string, to: string): Promise<{ day: string; metric: string; count: number }[]> {
  return (await countPerDay(k.db, tenant, 'developer_sdk_generations', from, to)).map((r) => ({ ...r, metric: 'sdk_generations' }))
}

declare module '../../../kernel/services.js' {
  interface Services {
    developerSdk: SdkGenerationsService
  }
}
