import { createHash } from 'node:crypto'
import type { FastifyReply, FastifyRequest } from 'fastify'
import { iso, type Clock } from '../clock.js'
import type { Insertable } from 'kysely'
import { isUniqueViolation, type Db, type Tables, type Tx } from '../db/database.js'
import { prepared } from '../db/prepared.js'
import { SecretBox } from '../crypto/secret-box.js'
import { AppError } from '../errors.js'
import { randomToken } from '../ids.js'
import { WithStatus } from './response-status.js'
import '../db/kernel.tables.js'

const MAX_KEY_LENGTH = 255
/** Responses that mean "never executed" or "try again": not stored, so the same key can be retried. */
const NOT_STORED = new Set([401, 403, 422, 429])
const JSON_TYPE = 'application/json; charset=utf-8'
/**
 * Stored responses are sealed (AES-256-GCM under the server secret, bound to the API key and the
 * Idempotency-Key): a replay must answer the original body, and some bodies carry a secret shown once
 * (an API key, a webhook signing secret, an OAuth client secret) that must not sit in the table in clear.
 */
const aad = (apiKeyId: string, key: string) => `idempotency:${apiKeyId}:${key}`

interface Claim {
  apiKeyId: string
  key: string
  /** Fences the owner: only the holder of this token may commit an effect under the key. */
  token: string
  /** Encrypts a response for storage, bound to this key (responses may hold secrets shown once). */
  seal(body: string): string
  /** The response stored with the committed effect, when the transaction produced one. */
  committed?: { status: number; body: string }
  /**
   * Not written yet: no row held the key when the request began, and the effect's transaction inserts it
   * (committed) itself; `lockedUntil` and `hash` are what that row gets. See `begin`.
   */
  deferred?: { hash: string; createdAt: string; lockedUntil: string }
}

/** What a transaction needs to know about the idempotent request it runs for. */
export interface ActiveClaim extends Claim {
  /** The operation's default success status, replayed with the provisional body after a crash (unless the transaction returned a WithStatus). */
  status: number
  /** The operation's response serializer for a status. */
  serialize(result: unknown, status: number): string
}

declare module 'fastify' {
  interface FastifyRequest {
    idempotency?: Claim
  }
}

/**
 * The claim of an idempotent request, by the request's own principal object (a per-request copy): a
 * service passes the principal (or tenant) it was handed to `kernel.transaction(owner, fn)`, which marks
 * the key committed in that transaction (see `commitInTransaction`). An explicit owner rather than
 * AsyncLocalStorage: on Node 20 enabling async hooks cost a quarter of a write's throughput, and nothing
 * started by the request (a job woken by its commit) can inherit the claim by accident.
 */
const claims = new WeakMap<object, ActiveClaim>()
export const claimFor = (owner: object | null | undefined): ActiveClaim | undefined => (owner ? claims.get(owner) : undefined)
export function bindClaim(owner: object, claim: ActiveClaim): void {
  claims.set(owner, claim)
}

export function requestHash(request: FastifyRequest): string {
  const body = request.body === undefined ? '' : typeof request.body === 'string' || Buffer.isBuffer(request.body) ? request.body.toString() : JSON.stringify(request.body)
  return createHash('sha256').update(`${request.method}\n${request.url}\n${body}`).digest('hex')
}

// The statements every idempotent write runs, built and compiled once (kernel/db/prepared.ts).
const insertClaim = prepared((db, row: Insertable<Tables['idempotency_keys']>) => db.insertInto('idempotency_keys').values(row))
const readClaim = prepared((db, a: { apiKeyId: string; key: string }) => db.selectFrom('idempotency_keys').selectAll().where('api_key_id', '=', a.apiKeyId).where('idem_key', '=', a.key))
const commitClaim = prepared((tx, a: { apiKeyId: string; key: string; token: string; status: number; body: string | null }) =>
  tx
    .updateTable('idempotency_keys')
    .set({ status: 'committed', committed: 1, response_status: a.status, response_body: a.body, response_content_type: a.body === null ? null : JSON_TYPE })
    .where('api_key_id', '=', a.apiKeyId)
    .where('idem_key', '=', a.key)
    .where('lock_token', '=', a.token)
    .where('status', '!=', 'completed'),
)

/** The deferred claim's row, inserted committed by the effect's transaction: 1, or 0 when a racing request holds the key. */
async function insertCommitted(tx: Tx, claim: Claim, d: NonNullable<Claim['deferred']>, status: number, body: string | null): Promise<number> {
  try {
    await insertClaim.run(tx, {
      api_key_id: claim.apiKeyId,
      idem_key: claim.key,
      request_hash: d.hash,
      status: 'committed',
      committed: 1,
      lock_token: claim.token,
      response_status: status,
      response_body: body,
      response_content_type: body === null ? null : JSON_TYPE,
      locked_until: d.lockedUntil,
      created_at: d.createdAt,
    })
    return 1
  } catch (err) {
    if (isUniqueViolation(err)) return 0
    throw err
  }
}

/** A resource or list of ours (`{ object: … }`): what a write operation's transaction returns and answers. */
const isResponseResource = (v: unknown): boolean => typeof v === 'object' && v !== null && typeof (v as { object?: unknown }).object === 'string'

/**
 * Idempotency-Key, scoped to the API key. The primary key (api_key_id, idem_key) is the lock: the INSERT
 * either wins or sees the other request's row, so two processes never both execute. Crash safety: the
 * key is marked `committed` inside the effect's own transaction, fenced by the claim's token, with the
 * transaction's result as a provisional response. So after a SIGKILL a retry either re-runs a request
 * whose effect never committed, or replays the committed one — it can never repeat a committed effect.
 */
export class IdempotencyStore {
  constructor(
    private readonly db: Db,
    private readonly clock: Clock,
    private readonly retentionHours: number,
    private readonly lockSeconds: number,
    private readonly box: SecretBox,
  ) {}

  /** A stored response; one written before responses were sealed is plain JSON. */
  private open(stored: string, apiKeyId: string, key: string): string {
    if (!SecretBox.isSealed(stored)) return stored
    try {
      return this.box.open(stored, aad(apiKeyId, key))
    } catch {
      // Sealed under a server secret no longer configured: the effect happened, its answer is unreadable.
      throw new AppError(
        'idempotency_outcome_unavailable',
        'The request with this Idempotency-Key took effect, but its stored response can no longer be read (the server secret changed). Read the resource instead of retrying.',
      )
    }
  }

  private lockUntil(now: Date): string {
    return iso(new Date(now.getTime() + this.lockSeconds * 1000))
  }

  /**
   * preHandler: claim the key, or answer from the stored response. Returns true when it replied.
   *
   * `inTransaction` (operations whose whole effect is one kernel.transaction): when no row holds the key,
   * the claim is deferred to that transaction, which inserts the row already committed, with the effect
   * (`commitInTransaction`). That saves the claim's own commit — on SQLite a WAL commit of its own, about a
   * third of a write's database time — and keeps the guarantees: before the commit there is no row (a
   * crash leaves nothing, a retry runs again), after it the committed row replays; of two requests racing
   * with one new key, the second transaction's insert hits the primary key and rolls back (409 in progress,
   * as when the claim is taken first). Only what runs before the transaction (reads, validation) may run twice.
   */
  async begin(request: FastifyRequest, reply: FastifyReply, apiKeyId: string, inTransaction = false): Promise<boolean> {
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
      const token = randomToken(12)
      if (inTransaction && attempt === 0 && !(await readClaim.first(this.db, { apiKeyId, key }))) {
        const deferred = { hash, createdAt: iso(now), lockedUntil: this.lockUntil(now) }
        request.idempotency = { apiKeyId, key, token, deferred, seal: (body) => this.box.seal(body, aad(apiKeyId, key)) }
        return false
      }
      try {
        await insertClaim.run(this.db, {
          api_key_id: apiKeyId,
          idem_key: key,
          request_hash: hash,
          status: 'in_progress',
          lock_token: token,
          response_status: null,
          response_body: null,
          response_content_type: null,
          locked_until: this.lockUntil(now),
          created_at: iso(now),
        })
        request.idempotency = { apiKeyId, key, token, seal: (body) => this.box.seal(body, aad(apiKeyId, key)) }
        return false
      } catch (err) {
        if (!isUniqueViolation(err)) throw err
      }
      const row = await this.db.selectFrom('idempotency_keys').selectAll().where('api_key_id', '=', apiKeyId).where('idem_key', '=', key).executeTakeFirst()
      if (!row) continue // released meanwhile: try to claim again
      const expired = Date.parse(row.created_at) < now.getTime() - this.retentionHours * 3600_000
      if (expired) {
        await this.db.deleteFrom('idempotency_keys').where('api_key_id', '=', apiKeyId).where('idem_key', '=', key).where('created_at', '=', row.created_at).execute()
        continue
      }
      if (row.request_hash !== hash) {
        throw new AppError('idempotency_key_reused', 'This Idempotency-Key was already used with a different method, path or body. Use a new key for a new request.')
      }
      // Completed, or committed by a request that died before answering: its effect happened, so replay.
      if (row.status !== 'in_progress' && row.response_body !== null) {
        reply.header('Idempotent-Replayed', 'true')
        reply.code(row.response_status ?? 200)
        if (row.response_content_type) reply.type(row.response_content_type)
        await reply.send(this.open(row.response_body, apiKeyId, key))
        return true
      }
      const abandoned = Date.parse(row.locked_until) < now.getTime()
      if (row.status === 'committed' && abandoned) {
        throw new AppError(
          'idempotency_outcome_unavailable',
          'The request with this Idempotency-Key took effect, but the process answering it stopped before its response was stored. Read the resource instead of retrying.',
        )
      }
      if (row.status === 'in_progress' && abandoned) {
        // The first request's process died before its effect committed: take the claim over. The old
        // token stops matching, so the old request (if it was only slow) can no longer commit.
        const res = await this.db
          .updateTable('idempotency_keys')
          .set({ locked_until: this.lockUntil(now), lock_token: token })
          .where('api_key_id', '=', apiKeyId)
          .where('idem_key', '=', key)
          .where('status', '=', 'in_progress')
          .where((eb) => (row.lock_token === null ? eb('lock_token', 'is', null) : eb('lock_token', '=', row.lock_token)))
          .executeTakeFirst()
        if (Number(res.numUpdatedRows) === 1) {
          request.idempotency = { apiKeyId, key, token, seal: (body) => this.box.seal(body, aad(apiKeyId, key)) }
          return false
        }
      }
      throw new AppError('idempotency_request_in_progress', 'A request with this Idempotency-Key is still being processed; retry after it finishes.', { headers: { 'Retry-After': '1' } })
    }
    throw new AppError('idempotency_request_in_progress', 'Could not claim the Idempotency-Key; retry.', { headers: { 'Retry-After': '1' } })
  }

  /**
   * Inside the effect's transaction: mark the key committed while this request still holds it, with the
   * transaction's result as the provisional response. If the claim was taken over, throw: the effect
   * rolls back, so two holders can never both commit.
   */
  static async commitInTransaction(tx: Tx, claim: ActiveClaim, result: unknown): Promise<void> {
    const [status, value] = result instanceof WithStatus ? [result.status, result.body] : [claim.status, result]
    const body = isResponseResource(value) ? claim.serialize(value, status) : null
    const sealed = body === null ? null : claim.seal(body)
    const updated = claim.deferred
      ? await insertCommitted(tx, claim, claim.deferred, status, sealed)
      : await commitClaim.run(tx, { apiKeyId: claim.apiKeyId, key: claim.key, token: claim.token, status, body: sealed })
    if (updated === 1) {
      // A later transaction of the same request (none today) finds the row and updates it.
      claim.deferred = undefined
      // Remembered on the claim (the request's own object) so onSend can skip rewriting the same response.
      if (body !== null) claim.committed = { status, body }
      return
    }
    throw new AppError('idempotency_request_in_progress', 'Another request took over this Idempotency-Key; this one was rolled back. Retry to read its outcome.', {
      headers: { 'Retry-After': '1' },
    })
  }

  /**
   * An event stream's outcome under its Idempotency-Key, once its work settled: the whole stream as sent
   * (replayed as one text/event-stream response), or null — it ended with an `error` event (a failure, the
   * client gone for good, the server closing) or outgrew what is kept — to release the key so that a retry
   * runs it again. Streams commit no effects of their own, so there is nothing provisional to keep.
   */
  async finishStream(claim: Claim, text: string | null): Promise<void> {
    const mine = this.db.updateTable('idempotency_keys').where('api_key_id', '=', claim.apiKeyId).where('idem_key', '=', claim.key).where('lock_token', '=', claim.token)
    if (text === null) {
      await this.db.deleteFrom('idempotency_keys').where('api_key_id', '=', claim.apiKeyId).where('idem_key', '=', claim.key).where('lock_token', '=', claim.token).execute()
      return
    }
    await mine.set({ status: 'completed', response_status: 200, response_body: claim.seal(text), response_content_type: 'text/event-stream; charset=utf-8' }).execute()
  }

  /** onSend: store the response for replay, or release the key when the request did not take effect. */
  async finish(request: FastifyRequest, reply: FastifyReply, payload: unknown): Promise<void> {
    const claim = request.idempotency
    if (!claim) return
    request.idempotency = undefined
    const status = reply.statusCode
    if (claim.deferred) {
      // Nothing committed (its transaction would have cleared `deferred`): a stored answer is written now,
      // as the eager claim's row would have been completed; a key that must stay free is simply not written.
      if (NOT_STORED.has(status) || status >= 500) return
      const body = typeof payload === 'string' ? payload : Buffer.isBuffer(payload) ? payload.toString('utf8') : payload == null ? '' : JSON.stringify(payload)
      const contentType = reply.getHeader('content-type')
      try {
        await insertClaim.run(this.db, {
          api_key_id: claim.apiKeyId,
          idem_key: claim.key,
          request_hash: claim.deferred.hash,
          status: 'completed',
          lock_token: claim.token,
          response_status: status,
          response_body: claim.seal(body),
          response_content_type: typeof contentType === 'string' ? contentType : null,
          locked_until: claim.deferred.lockedUntil,
          created_at: claim.deferred.createdAt,
        })
      } catch (err) {
        // A racing request with the same key stored its answer first: that one is what a retry replays.
        if (!isUniqueViolation(err)) throw err
      }
      return
    }
    if (NOT_STORED.has(status) || status >= 500) {
      // Released only if nothing committed; a committed effect keeps its provisional response.
      await this.db
        .deleteFrom('idempotency_keys')
        .where('api_key_id', '=', claim.apiKeyId)
        .where('idem_key', '=', claim.key)
        .where('lock_token', '=', claim.token)
        .where('status', '=', 'in_progress')
        .execute()
      return
    }
    const body = typeof payload === 'string' ? payload : Buffer.isBuffer(payload) ? payload.toString('utf8') : payload == null ? '' : JSON.stringify(payload)
    const contentType = reply.getHeader('content-type')
    // The usual case: the transaction already stored exactly this response with the effect.
    if (claim.committed && claim.committed.status === status && claim.committed.body === body && contentType === JSON_TYPE) return
    await this.db
      .updateTable('idempotency_keys')
      .set({ status: 'completed', response_status: status, response_body: claim.seal(body), response_content_type: typeof contentType === 'string' ? contentType : null })
      .where('api_key_id', '=', claim.apiKeyId)
      .where('idem_key', '=', claim.key)
      .where('lock_token', '=', claim.token)
      .execute()
  }
}
