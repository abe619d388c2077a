import { signatureHeaders } from '../../../kernel/crypto/signature.js'
import type { Kernel } from '../../../kernel/kernel.js'
import { classifyResponse, failure, is2xx, sendCrmRequest } from './crm.http.js'
import type { CrmAdapter, CrmConnection, CrmContext, CrmLead, CrmResult } from './crm.types.js'

// The lead POSTed to the workspace's own URL, signed exactly like our webhook deliveries
// (Svc-Status-Signature and the Standard Webhooks headers, kernel/crypto/signature.ts), so a receiver
// verifies it with the code it already runs for our webhooks. `webhook-id` is the Idempotency-Key: the
// same on every retry of one sync, which is what a receiver deduplicates on.

const PEER = 'The receiver'

export class WebhookCrmAdapter implements CrmAdapter {
  constructor(
    private readonly k: Kernel,
    private readonly conn: CrmConnection,
    private readonly timeoutMs: number,
  ) {}

  async upsert(lead: CrmLead, ctx: CrmContext): Promise<CrmResult> {
    if (!this.conn.url) return failure('not_configured', 'The webhook CRM connection has no URL.', false)
    if (!this.conn.signing_secret) return failure('not_configured', 'The webhook CRM connection has no signing secret.', false)
    const body = JSON.stringify({ type: 'lead.sync', lead })
    const t = Math.floor(this.k.clock.now().getTime() / 1000)
    const headers = { 'idempotency-key': ctx.idempotencyKey, ...signatureHeaders([this.conn.signing_secret], ctx.idempotencyKey, t, body) }
    const sent = await sendCrmRequest(this.k, { method: 'POST', url: this.conn.url, headers, body }, { timeoutMs: this.timeoutMs, signal: ctx.signal, peer: PEER })
    if (!sent.ok) return sent.failure
    const res = sent.res
    if (!is2xx(res)) return classifyResponse(res, PEER, this.k.clock.now())
    // Receivers may answer anything on 2xx; `{"id": …, "action": "updated"}` is optional.
    const answer = (res.json ?? {}) as { id?: unknown; action?: unknown }
    const id = typeof answer.id === 'string' && answer.id.trim() !== '' ? answer.id.trim() : typeof answer.id === 'number' ? String(answer.id) : lead.id
    return { ok: true, external_id: id, action: answer.action === 'updated' ? 'updated' : 'created' }
  }
}
