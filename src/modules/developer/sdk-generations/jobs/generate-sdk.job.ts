import { createHash } from 'node:crypto'
import { join } from 'node:path'
import { inheritAudit } from '../../../../kernel/audit/audit.js'
import { iso } from '../../../../kernel/clock.js'
import { defineJob, type JobContext } from '../../../../kernel/jobs/jobs.js'
import type { Kernel } from '../../../../kernel/kernel.js'
import type { Mode, Tenant } from '../../../../kernel/tenant.js'
// The generator's pure emitters (lib/sdk-generator, the layer below src/ and sdk/: docs/architecture.md), bundled.
import { LANGUAGES, readModel, type ApiModel } from '../../../../../lib/sdk-generator/languages.js'
import { buildArchive, readRuntime, type BuiltArchive } from '../sdk-archive.js'
import { findSdkRoot } from '../sdk-folder.js'
import * as repo from '../sdk-generations.repository.js'
import type { SdkGenerationT } from '../sdk-generations.schemas.js'
import type { DeveloperSdkGenerationsTable } from '../sdk-generations.tables.js'

export interface GenerateSdkPayload {
  workspace_id: string
  mode: Mode
  generation_id: string
}

const RETRIES = [5, 30]
/** How long a download link works once the archive is ready. */
export const DOWNLOAD_LINK_HOURS = 24

/** A failure that another attempt would repeat (the generator or the inputs): the generation fails at once. */
class GenerationFailed extends Error {}
const describe = (what: string, err: unknown) => new GenerationFailed(`${what}: ${(err as Error).message ?? String(err)}`)

export const archiveKey = (r: DeveloperSdkGenerationsTable) => `developer/sdk/${r.workspace_id}/${r.mode}/${r.id}.zip`.toLowerCase()

/**
 * Runs the clients' generator on the stored document (the one this server served when asked, as data) and
 * packs the result with the language's runtime. Pure functions over a parsed document: nothing is loaded per
 * generation, so memory stays flat however many run (sdk-generations.memory.test.ts).
 */
async function generate(k: Kernel, r: DeveloperSdkGenerationsTable): Promise<{ built: BuiltArchive; operations: number }> {
  const root = findSdkRoot()
  if (!root) throw new GenerationFailed('The server has no sdk/ folder (the clients’ runtimes) next to its code.')
  if (!r.document_key || !(await k.blobs.stat(r.document_key))) throw new GenerationFailed('The stored OpenAPI document is gone; create a new generation.')
  const text = Buffer.concat(await k.blobs.read(r.document_key).toArray())
  if (createHash('sha256').update(text).digest('hex') !== r.document_sha256) throw new GenerationFailed('The stored OpenAPI document does not match its SHA-256.')
  let model: ApiModel
  let files: Map<string, string>
  try {
    model = readModel(JSON.parse(text.toString('utf8')))
  } catch (err) {
    throw describe('The OpenAPI document could not be read', err)
  }
  const emit = LANGUAGES[r.language]
  if (!emit) throw new GenerationFailed(`The generator has no ${r.language} emitter.`)
  try {
    files = emit(model)
  } catch (err) {
    throw describe(`The ${r.language} emitter failed`, err)
  }
  const built = await buildArchive({
    runtime: readRuntime(join(root, r.language)),
    generated: files,
    packageName: r.package_name,
    version: r.version,
    provenance: {
      generation_id: r.id,
      language: r.language,
      package_name: r.package_name,
      version: r.version,
      api_version: r.api_version,
      document_sha256: r.document_sha256,
      generated_at: r.created_at,
    },
    date: new Date(r.created_at),
  }).catch((err) => Promise.reject(err instanceof SyntaxError ? describe('The package manifest is not valid', err) : err))
  return { built, operations: model.operations.length }
}

/**
 * The job behind createSdkGeneration. Re-runnable: the archive's key and bytes depend only on the
 * generation (entries dated at its creation), so a second run after a lost lease writes the same file.
 */
export function generateSdkJob(k: Kernel, view: (r: DeveloperSdkGenerationsTable) => SdkGenerationT) {
  async function finish(ctx: JobContext, r: DeveloperSdkGenerationsTable, patch: Partial<DeveloperSdkGenerationsTable>): Promise<void> {
    const tenant: Tenant = inheritAudit(ctx, { workspaceId: r.workspace_id, mode: r.mode })
    const now = iso(k.clock.now())
    const next: DeveloperSdkGenerationsTable = { ...r, ...patch, document_key: null, updated_at: now, completed_at: now }
    await k.transaction(tenant, async (tx) => {
      if (!(await repo.updateGeneration(tx, tenant, r.id, next, ['queued', 'running']))) return
      if (next.status === 'succeeded') await k.events.emit(tx, tenant, 'sdk_generation.succeeded', view(next))
      else await k.events.emit(tx, tenant, 'sdk_generation.failed', view(next))
    })
    // The document was kept for this job only.
    if (r.document_key) await k.blobs.delete(r.document_key)
  }

  return defineJob<GenerateSdkPayload>({
    name: 'developer.sdk-generate',
    retrySchedule: RETRIES,
    async run(p, ctx) {
      const tenant: Tenant = inheritAudit(ctx, { workspaceId: p.workspace_id, mode: p.mode })
      const row = await repo.findGeneration(k.db, tenant, p.generation_id)
      if (!row || (row.status !== 'queued' && row.status !== 'running')) return
      await repo.updateGeneration(k.db, tenant, row.id, { status: 'running', updated_at: iso(k.clock.now()) }, ['queued'])
      let result: Awaited<ReturnType<typeof generate>>
      try {
        result = await generate(k, row)
      } catch (err) {
        if (!(err instanceof GenerationFailed) && ctx.attempt <= RETRIES.length) throw err
        await finish(ctx, row, { status: 'failed', error: (err as Error).message.slice(0, 1000) })
        return
      }
      const key = archiveKey(row)
      const { size } = await k.blobs.put(key, result.built.archive, { contentType: 'application/zip' })
      await finish(ctx, row, {
        status: 'succeeded',
        operations: result.operations,
        archive_key: key,
        archive_sha256: createHash('sha256').update(result.built.archive).digest('hex'),
        archive_size: size,
        archive_files: result.built.files,
        expires_at: iso(new Date(k.clock.now().getTime() + DOWNLOAD_LINK_HOURS * 3600_000)),
      })
    },
  })
}
