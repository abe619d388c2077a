import { createHash } from 'node:crypto'
import type { FastifyReply, FastifyRequest } from 'fastify'
import { iso, type Clock } from '../clock.js'
import { isUniqueViolation, type Db } from '../db/database.js'
import { AppError } from '../errors.js'
import '../db/kernel.tables.js'

const MAX_KEY_LENGTH = 255
/** An in-progress claim older than this is presumed abandoned (process crashed) and may be taken over. */
const LOCK_SECONDS = 60
/** Responses that mean "never executed" or "try again": not stored, so the same key can be retried. */
const NOT_STORED = new Set([401, 403, 422, 429])

interface Claim {
  apiKeyId: string
  key: string
}

declare module 'fastify' {
  interface FastifyRequest {
    idempotency?: Claim
  }
}

export function requestHash(request: FastifyRequest): string {
  const body = request.body === undefined ? '' : typeof request.body === 'string' || Buffer.isBuffer(request.body) ? request.body.toString() : JSON.stringify(request.body)
  return createHash('sha256').update(`${request.method}\n${request.url}\n${body}`).digest('hex')
}

/**
 * Idempotency-Key, scoped to the API key. The primary key (api_key_id, idem_key) is the lock: the
 * INSERT either wins or sees the other request's row, so two processes can never both execute.
 */
export class IdempotencyStore {
  constructor(
    private readonly db: Db,
    private readonly clock: Clock,
    private readonly retentionHours: number,
  ) {}

  /** preHandler: claim the key, or answer from the stored response. Returns true when it replied. */
  async begin(request: FastifyRequest, reply: FastifyReply, apiKeyId: string): Promise<boolean> {
    const raw = request.headers['idempotency-key']
    if (raw === undefined) return false
    const key = Array.isArray(raw) ? raw[0] : raw
    if (!key || key.length > MAX_KEY_LENGTH) {
      throw new AppError('invalid_idempotency_key', `Idempotency-Key must be 1–${MAX_KEY_LENGTH} characters.`, {
        errors: [{ pointer: '/headers/idempotency-key', detail: `must be 1–${MAX_KEY_LENGTH} characters` }],
      })
    }
    const hash = requestHash(request)
    const now = this.clock.now()
    for (let attempt = 0; attempt < 3; attempt++) {
      try {
        await this.db
          .insertInto('idempotency_keys')
          .values({
            api_key_id: apiKeyId,
            idem_key: key,
            request_hash: hash,
            status: 'in_progress',
            response_status: null,
            response_body: null,
            response_content_type: null,
            locked_until: iso(new Date(now.getTime() + LOCK_SECONDS * 1000)),
            created_at: iso(now),
          })
          .execute()
        request.idempotency = { apiKeyId, key }
        return false
      } catch (err) {
        if (!isUniqueViolation(err)) throw err
      }
      const row = await this.db
        .selectFrom('idempotency_keys')
        .selectAll()
        .where('api_key_id', '=', apiKeyId)
        .where('idem_key', '=', key)
        .executeTakeFirst()
      if (!row) continue // released meanwhile: try to claim again
      const expired = Date.parse(row.created_at) < now.getTime() - this.retentionHours * 3600_000
      if (expired) {
        await this.db.deleteFrom('idempotency_keys').where('api_key_id', '=', apiKeyId).where('idem_key', '=', key).where('created_at', '=', row.created_at).execute()
        continue
      }
      if (row.request_hash !== hash) {
        throw new AppError(
          'idempotency_key_reused',
          'This Idempotency-Key was already used with a different method, path or body. Use a new key for a new request.',
        )
      }
      if (row.status === 'completed') {
        reply.header('Idempotent-Replayed', 'true')
        reply.code(row.response_status ?? 200)
        if (row.response_content_type) reply.type(row.response_content_type)
        await reply.send(row.response_body ?? '')
        return true
      }
      if (Date.parse(row.locked_until) < now.getTime()) {
        // The first request's process died mid-flight; take the claim over (guarded by the old lock).
        const res = await this.db
          .updateTable('idempotency_keys')
          .set({ locked_until: iso(new Date(now.getTime() + LOCK_SECONDS * 1000)) })
          .where('api_key_id', '=', apiKeyId)
          .where('idem_key', '=', key)
          .where('locked_until', '=', row.locked_until)
          .where('status', '=', 'in_progress')
          .executeTakeFirst()
        if (Number(res.numUpdatedRows) === 1) {
          request.idempotency = { apiKeyId, key }
          return false
        }
      }
      throw new AppError(
        'idempotency_request_in_progress',
        'A request with this Idempotency-Key is still being processed; retry after it finishes.',
        { headers: { 'Retry-After': '1' } },
      )
    }
    throw new AppError('idempotency_request_in_progress', 'Could not claim the Idempotency-Key; retry.', { headers: { 'Retry-After': '1' } })
  }

  /** onSend: store the response for replay, or release the key when the request did not execute. */
  async finish(request: FastifyRequest, reply: FastifyReply, payload: unknown): Promise<void> {
    const claim = request.idempotency
    if (!claim) return
    request.idempotency = undefined
    const status = reply.statusCode
    const where = this.db
      .updateTable('idempotency_keys')
      .where('api_key_id', '=', claim.apiKeyId)
      .where('idem_key', '=', claim.key)
    if (NOT_STORED.has(status) || status >= 500) {
      await this.db.deleteFrom('idempotency_keys').where('api_key_id', '=', claim.apiKeyId).where('idem_key', '=', claim.key).execute()
      return
    }
    const body = typeof payload === 'string' ? payload : Buffer.isBuffer(payload) ? payload.toString('utf8') : payload == null ? '' : JSON.stringify(payload)
    const contentType = reply.getHeader('content-type')
    await where
      .set({
        status: 'completed',
        response_status: status,
        response_body: body,
        response_content_type: typeof contentType === 'string' ? contentType : null,
      })
      .execute()
  }
}
