import type { FastifyInstance } from 'fastify'
import { AppError } from '../../kernel/errors.js'
import { sendBlob } from '../../kernel/http/send-blob.js'
import type { Kernel } from '../../kernel/kernel.js'
import * as repo from './compliance.repository.js'
import { tokenHash } from './dsar.service.js'

/**
 * GET /downloads/dsar/{token}: a DSAR export by its link (no API key: the token is the credential, 256
 * random bits, stored only as a hash and sealed). 404 for an unknown token, 409 `export_not_ready` while it is
 * built, 410 `export_link_expired` after EXPORT_LINK_HOURS, 410 `export_deleted` once its archive was deleted
 * (an erasure about the person, or retention: the token's hash stays for that). Range supported.
 */
export function dsarDownloads(k: Kernel) {
  return async (app: FastifyInstance) => {
    app.get<{ Params: { token: string } }>('/downloads/dsar/:token', async (request, reply) => {
      const token = request.params.token
      const row = /^[A-Za-z0-9_-]{20,100}$/.test(token) ? await repo.findDsarByToken(k.db, tokenHash(token)) : undefined
      if (!row) throw new AppError('resource_not_found', 'No export has this link (a newer export replaces the link of the one before).')
      if (row.export_status === 'none') throw new AppError('export_deleted', `This export was deleted${row.export_error ? ` (${row.export_error})` : ''}.`)
      if (row.export_status === 'pending') throw new AppError('export_not_ready', 'The export is still being built; try again in a moment.', { headers: { 'Retry-After': '5' } })
      if (row.export_status !== 'ready' || !row.export_key) throw new AppError('export_not_ready', `The export is ${row.export_status}${row.export_error ? `: ${row.export_error}` : ''}.`)
      if (Date.parse(row.export_expires_at!) <= k.clock.now().getTime()) {
        throw new AppError('export_link_expired', `This link expired at ${row.export_expires_at}; ask for a new export (POST /compliance/dsar/${row.id}/export).`)
      }
      reply.header('Cache-Control', 'private, no-store')
      return sendBlob(request, reply, k.blobs, row.export_key, { contentType: 'application/zip', filename: `${row.id}.zip` })
    })
  }
}
