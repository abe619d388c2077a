import type { FastifyInstance } from 'fastify'
import { AppError } from '../../../kernel/errors.js'
import { sendBlob } from '../../../kernel/http/send-blob.js'
import type { Kernel } from '../../../kernel/kernel.js'
import * as repo from './sdk-generations.repository.js'
import { sha256 } from './sdk-generations.service.js'
import { archiveFilename } from './sdk-generations.views.js'

/**
 * GET /downloads/sdk/{token}: a generated SDK archive by its link (no API key: the token is the credential,
 * 256 random bits, stored only as a hash and sealed). 404 for an unknown token, 409 `sdk_archive_not_ready`
 * while queued or running (Retry-After) or when the generation failed, 410 `sdk_download_expired` after
 * DOWNLOAD_LINK_HOURS. Range supported.
 */
export function sdkDownloads(k: Kernel) {
  return async (app: FastifyInstance) => {
    app.get<{ Params: { token: string } }>('/downloads/sdk/:token', async (request, reply) => {
      const token = request.params.token
      const row = /^[A-Za-z0-9_-]{20,100}$/.test(token) ? await repo.findGenerationByToken(k.db, sha256(token)) : undefined
      if (!row) throw new AppError('resource_not_found', 'No SDK generation has this link.')
      if (row.status === 'queued' || row.status === 'running')
        throw new AppError('sdk_archive_not_ready', 'The archive is still being generated; try again in a moment.', { headers: { 'Retry-After': '5' } })
      if (row.status === 'failed') throw new AppError('sdk_archive_not_ready', `The generation failed: ${row.error ?? 'unknown error'}. Create a new one.`)
      if (!row.expires_at || Date.parse(row.expires_at) <= k.clock.now().getTime() || !row.archive_key) {
        throw new AppError('sdk_download_expired', `This link expired at ${row.expires_at}; create a new generation (POST /sdk-generations).`)
      }
      reply.header('Cache-Control', 'private, no-store')
      return sendBlob(request, reply, k.blobs, row.archive_key, { contentType: 'application/zip', filename: archiveFilename(row) })
    })
  }
}
