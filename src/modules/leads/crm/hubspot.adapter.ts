import type { Kernel } from '../../../kernel/kernel.js'
import { classifyResponse, failure, is2xx, sendCrmRequest, type CrmRequest, type CrmResponse } from './crm.http.js'
import type { CrmAdapter, CrmConnection, CrmContext, CrmFailure, CrmLead, CrmResult } from './crm.types.js'
import { hubspotProperties, normaliseEmail } from './hubspot.properties.js'

// HubSpot CRM v3 objects API, contacts. The upsert never creates a duplicate: HubSpot keeps contacts
// unique by email, so a known email is always found (search) or reported (409 on create) and updated.
//
//   external_id known  → PATCH /crm/v3/objects/contacts/{id}; 404 (deleted, merged away) → as if unknown
//   otherwise          → POST /crm/v3/objects/contacts/search (email EQ) → found: PATCH it
//                        not found: POST /crm/v3/objects/contacts → 409 "Existing ID: 123": PATCH 123
//
// The search index lags writes by seconds, so a contact created by a sync that died before recording its
// id is usually not found on the retry: the 409 on create is what catches it.

export const HUBSPOT_DEFAULT_BASE_URL = 'https://api.hubapi.com'
const CONTACTS = '/crm/v3/objects/contacts'
const PEER = 'HubSpot'

type Step<T> = { ok: true; value: T } | { ok: false; failure: CrmFailure }

export class HubSpotAdapter implements CrmAdapter {
  private readonly baseUrl: string

  constructor(
    private readonly k: Kernel,
    private readonly conn: CrmConnection,
    private readonly timeoutMs: number,
  ) {
    this.baseUrl = (conn.base_url?.trim() || HUBSPOT_DEFAULT_BASE_URL).replace(/\/+$/, '')
  }

  async upsert(lead: CrmLead, ctx: CrmContext): Promise<CrmResult> {
    if (!this.conn.access_token) return failure('not_configured', 'The HubSpot connection has no access token.', false)
    const properties = hubspotProperties(lead)
    if (lead.external_id) {
      const patched = await this.update(lead.external_id, properties, ctx)
      if (patched.ok || patched.status !== 404) return patched
    }
    const email = normaliseEmail(lead.email)
    // Without an email HubSpot has nothing to deduplicate on: a create retried after a lost answer would
    // make a second contact. Refused rather than risk it.
    if (!email) return failure('email_required', 'HubSpot identifies contacts by email; a lead without an email (and not synced before) cannot be synced without risking a duplicate contact.', false)
    const found = await this.findByEmail(email, ctx)
    if (!found.ok) return found.failure
    if (found.value) return this.update(found.value, properties, ctx)
    return this.create(email, properties, ctx)
  }

  private async create(email: string, properties: Record<string, string>, ctx: CrmContext): Promise<CrmResult> {
    const sent = await this.send({ method: 'POST', path: CONTACTS, body: { properties } }, ctx)
    if (!sent.ok) return sent.failure
    const res = sent.value
    if (is2xx(res)) return this.idOf(res, 'created')
    if (res.status !== 409) return this.classify(res)
    // "Contact already exists. Existing ID: 123": created meanwhile (another sync, a form, a lost answer).
    const existing = existingIdOf(res)
    if (existing) return this.update(existing, properties, ctx)
    const again = await this.findByEmail(email, ctx)
    if (!again.ok) return again.failure
    if (again.value) return this.update(again.value, properties, ctx)
    // It exists, yet neither the answer nor the index names it: the index will catch up.
    return failure('conflict', this.classify(res).message, true, 409)
  }

  private async update(id: string, properties: Record<string, string>, ctx: CrmContext): Promise<CrmResult> {
    const sent = await this.send({ method: 'PATCH', path: `${CONTACTS}/${encodeURIComponent(id)}`, body: { properties } }, ctx)
    if (!sent.ok) return sent.failure
    return is2xx(sent.value) ? this.idOf(sent.value, 'updated', id) : this.classify(sent.value)
  }

  /** The oldest live contact whose primary email is `email`, or null. */
  private async findByEmail(email: string, ctx: CrmContext): Promise<Step<string | null>> {
    const body = {
      filterGroups: [{ filters: [{ propertyName: 'email', operator: 'EQ', value: email }] }],
      sorts: [{ propertyName: 'createdate', direction: 'ASCENDING' }],
      properties: ['email'],
      limit: 1,
    }
    const sent = await this.send({ method: 'POST', path: `${CONTACTS}/search`, body }, ctx)
    if (!sent.ok) return sent
    const res = sent.value
    if (!is2xx(res)) return { ok: false, failure: this.classify(res) }
    const results = (res.json as { results?: Array<{ id?: unknown }> } | null)?.results
    if (!Array.isArray(results)) return { ok: false, failure: failure('invalid_response', 'HubSpot answered the contact search without a results list.', false, res.status) }
    const id = results[0]?.id
    return { ok: true, value: typeof id === 'string' || typeof id === 'number' ? String(id) : null }
  }

  private async send(req: { method: CrmRequest['method']; path: string; body?: unknown }, ctx: CrmContext): Promise<Step<CrmResponse>> {
    const sent = await sendCrmRequest(
      this.k,
      {
        method: req.method,
        url: `${this.baseUrl}${req.path}`,
        // HubSpot ignores Idempotency-Key; sent so a proxy or a recording shows which sync a request belongs to.
        headers: { authorization: `Bearer ${this.conn.access_token}`, 'idempotency-key': ctx.idempotencyKey },
        body: req.body === undefined ? undefined : JSON.stringify(req.body),
      },
      { timeoutMs: this.timeoutMs, signal: ctx.signal, requireHttps: true, peer: PEER },
    )
    return sent.ok ? { ok: true, value: sent.res } : sent
  }

  private classify(res: CrmResponse): CrmFailure {
    return classifyResponse(res, PEER, this.k.clock.now())
  }

  /** HubSpot answers a contact with its `id` (a numeric string); a PATCH may name the merged-into contact. */
  private idOf(res: CrmResponse, action: 'created' | 'updated', fallback?: string): CrmResult {
    const id = (res.json as { id?: unknown } | null)?.id
    if (typeof id === 'string' || typeof id === 'number') return { ok: true, external_id: String(id), action }
    if (fallback) return { ok: true, external_id: fallback, action }
    return failure('invalid_response', `HubSpot answered HTTP ${res.status} without a contact id.`, false, res.status)
  }
}

/** The id in HubSpot's 409 for a duplicate email ("Contact already exists. Existing ID: 123"). */
export function existingIdOf(res: CrmResponse): string | null {
  const j = res.json as { message?: unknown; errors?: Array<{ message?: unknown }> } | null
  const texts = [j?.message, ...(Array.isArray(j?.errors) ? j.errors.map((e) => e?.message) : []), res.text]
  for (const t of texts) {
    const m = typeof t === 'string' ? /Existing ID:\s*(\d+)/i.exec(t) : null
    if (m) return m[1]
  }
  return null
}
