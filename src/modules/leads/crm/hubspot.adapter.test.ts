import assert from 'node:assert/strict'
import { after, before, beforeEach, describe, it } from 'node:test'
import { retryAfterMs } from './crm.http.js'
import { crmKernelStub as kernelStub } from './crm.testkit.js'
import { crmAdapterFor, type CrmConnection, type CrmLead, type CrmResult } from './crm.types.js'
import { hubspotProperties, splitName } from './hubspot.properties.js'
import { startHubSpotServer, type HubSpotServer } from './hubspot.testkit.js'

const lead = (over: Partial<CrmLead> = {}): CrmLead => ({
  id: 'lead_01JTEST0000000000000000001',
  email: 'Ada.Lovelace@Example.com',
  name: 'Ada King Lovelace',
  phone: '+447700900123',
  company: 'Analytical Engines Ltd',
  title: 'Head of Engineering',
  status: 'qualified',
  score: 72,
  properties: {},
  external_id: null,
  ...over,
})
const ctx = { idempotencyKey: 'sync_01JTESTKEY' }

function failed(r: CrmResult) {
  assert.equal(r.ok, false, JSON.stringify(r))
  return r as Extract<CrmResult, { ok: false }>
}

describe('leads crm: HubSpot adapter against a HubSpot-compatible server', () => {
  let hs: HubSpotServer
  let conn: CrmConnection
  const k = kernelStub()
  const upsert = (l: CrmLead, c: Partial<CrmConnection> = {}, timeoutMs?: number, signal?: AbortSignal) => crmAdapterFor(k, { ...conn, ...c }, { timeoutMs }).upsert(l, { ...ctx, signal })
  const paths = () => hs.requests.map((r) => `${r.method} ${r.path}`)

  before(async () => {
    hs = await startHubSpotServer({ customProperties: ['svc_score'] })
    conn = { provider: 'hubspot', base_url: hs.url, access_token: hs.token, url: null, signing_secret: null }
  })
  beforeEach(() => hs.reset())
  after(() => hs.close())

  it('creates a contact when none has the email: search, then create, with the mapped properties', async () => {
    const r = await upsert(lead({ properties: { svc_score: 72, nickname: null } }))
    assert.deepEqual(r, { ok: true, external_id: '1001', action: 'created' })
    assert.deepEqual(paths(), ['POST /crm/v3/objects/contacts/search', 'POST /crm/v3/objects/contacts'])
    const search = hs.requests[0].json as { filterGroups: Array<{ filters: unknown[] }> }
    assert.deepEqual(search.filterGroups[0].filters, [{ propertyName: 'email', operator: 'EQ', value: 'ada.lovelace@example.com' }])
    for (const req of hs.requests) {
      assert.equal(req.headers.authorization, `Bearer ${hs.token}`)
      assert.equal(req.headers['idempotency-key'], ctx.idempotencyKey)
      assert.match(String(req.headers['content-type']), /^application\/json/)
    }
    const c = hs.contacts.get('1001')!
    assert.equal(c.properties.email, 'ada.lovelace@example.com')
    assert.equal(c.properties.firstname, 'Ada')
    assert.equal(c.properties.lastname, 'King Lovelace')
    assert.equal(c.properties.phone, '+447700900123')
    assert.equal(c.properties.company, 'Analytical Engines Ltd')
    assert.equal(c.properties.jobtitle, 'Head of Engineering')
    assert.equal(c.properties.hs_lead_status, 'IN_PROGRESS')
    assert.equal(c.properties.svc_score, '72')
    assert.ok(!('nickname' in c.properties), 'a null custom property is not sent')
  })

  it('updates by external id with one PATCH, without searching', async () => {
    const id = hs.seed({ email: 'ada.lovelace@example.com', firstname: 'Ada', phone: '+4400' })
    const r = await upsert(lead({ external_id: id, status: 'converted', phone: null }))
    assert.deepEqual(r, { ok: true, external_id: id, action: 'updated' })
    assert.deepEqual(paths(), [`PATCH /crm/v3/objects/contacts/${id}`])
    assert.equal(hs.contacts.get(id)!.properties.hs_lead_status, 'OPEN_DEAL')
    assert.equal(hs.contacts.get(id)!.properties.phone, '+4400', 'a null field never clears what HubSpot holds')
  })

  it('upserts an existing contact found by email (any case): PATCH, no duplicate', async () => {
    const id = hs.seed({ email: 'ada.lovelace@example.com', lastname: 'Byron' })
    const r = await upsert(lead())
    assert.deepEqual(r, { ok: true, external_id: id, action: 'updated' })
    assert.deepEqual(paths(), ['POST /crm/v3/objects/contacts/search', `PATCH /crm/v3/objects/contacts/${id}`])
    assert.equal(hs.contacts.size, 1)
    assert.equal(hs.contacts.get(id)!.properties.lastname, 'King Lovelace')
  })

  it('falls back to search when the external id is gone (404: deleted or merged in HubSpot)', async () => {
    const id = hs.seed({ email: 'ada.lovelace@example.com' })
    const r = await upsert(lead({ external_id: '999999' }))
    assert.deepEqual(r, { ok: true, external_id: id, action: 'updated' })
    assert.deepEqual(paths(), ['PATCH /crm/v3/objects/contacts/999999', 'POST /crm/v3/objects/contacts/search', `PATCH /crm/v3/objects/contacts/${id}`])
    hs.reset()
    const created = await upsert(lead({ external_id: '999999' }))
    assert.deepEqual(created, { ok: true, external_id: '1001', action: 'created' })
  })

  it('recovers from 409 on create (the search index lags): takes the existing id and PATCHes, never a duplicate', async () => {
    const lagging = await startHubSpotServer({ searchDelayMs: 60_000 })
    try {
      const c = { base_url: lagging.url, access_token: lagging.token }
      // A first sync created the contact, then its worker died before recording the id: the retry knows no id.
      assert.deepEqual(await upsert(lead(), c), { ok: true, external_id: '1001', action: 'created' })
      lagging.requests.length = 0
      const retry = await upsert(lead({ title: 'CTO' }), c)
      assert.deepEqual(retry, { ok: true, external_id: '1001', action: 'updated' })
      assert.deepEqual(
        lagging.requests.map((r) => `${r.method} ${r.path} `.trim()),
        ['POST /crm/v3/objects/contacts/search', 'POST /crm/v3/objects/contacts', 'PATCH /crm/v3/objects/contacts/1001'],
      )
      assert.equal(lagging.contacts.size, 1)
      assert.equal(lagging.contacts.get('1001')!.properties.jobtitle, 'CTO')
    } finally {
      await lagging.close()
    }
  })

  it('a 409 whose message names no id: searches again, else a retryable conflict', async () => {
    hs.failNext(1, { status: 409, method: 'POST', path: '/crm/v3/objects/contacts', body: { status: 'error', message: 'Contact already exists', category: 'CONFLICT' } })
    const r = failed(await upsert(lead()))
    assert.equal(r.code, 'conflict')
    assert.equal(r.retryable, true)
    assert.equal(hs.contacts.size, 0)
  })

  it('429 is retryable with retry_after_ms from Retry-After (seconds or HTTP-date); the retry then succeeds', async () => {
    hs.failNext(1, { status: 429, retryAfter: '7' })
    const r = failed(await upsert(lead()))
    assert.deepEqual({ ...r, message: undefined }, { ok: false, retryable: true, retry_after_ms: 7000, status: 429, code: 'rate_limited', message: undefined })
    assert.match(r.message, /ten_secondly_rolling limit/)
    assert.equal(hs.contacts.size, 0)

    hs.failNext(1, { status: 429, retryAfter: new Date(Date.now() + 30_000).toUTCString() })
    const dated = failed(await upsert(lead()))
    assert.ok(dated.retry_after_ms! > 25_000 && dated.retry_after_ms! <= 30_000, String(dated.retry_after_ms))

    hs.failNext(1, { status: 429 })
    assert.equal(failed(await upsert(lead())).retry_after_ms, null, 'no Retry-After: the job backs off on its own')

    assert.deepEqual(await upsert(lead()), { ok: true, external_id: '1001', action: 'created' })
  })

  it('5xx, timeouts and connection errors are retryable without a retry time', async () => {
    hs.failNext(1, { status: 502, method: 'POST', path: '/crm/v3/objects/contacts' })
    const r = failed(await upsert(lead()))
    assert.equal(r.code, 'server_error')
    assert.equal(r.status, 502)
    assert.equal(r.retryable, true)
    assert.equal(r.retry_after_ms, null)

    hs.failNext(1, { status: 200, hang: true })
    const slow = failed(await upsert(lead(), {}, 300))
    assert.deepEqual([slow.code, slow.retryable, slow.status], ['timeout', true, null])

    const closed = await startHubSpotServer()
    await closed.close()
    const down = failed(await upsert(lead(), { base_url: closed.url }))
    assert.deepEqual([down.code, down.retryable], ['connection_failed', true])
    assert.match(down.message, /ECONNREFUSED/)
  })

  it('a cancelled sync (worker shutdown) is retryable', async () => {
    hs.failNext(1, { status: 200, hang: true })
    const ac = new AbortController()
    setTimeout(() => ac.abort(), 100)
    const r = failed(await upsert(lead(), {}, 5000, ac.signal))
    assert.deepEqual([r.code, r.retryable], ['cancelled', true])
  })

  it("400 is permanent with HubSpot's own message; 401 (bad token) is permanent", async () => {
    const r = failed(await upsert(lead({ properties: { favourite_colour: 'teal' } })))
    assert.deepEqual([r.code, r.status, r.retryable, r.retry_after_ms], ['bad_request', 400, false, null])
    assert.match(r.message, /^Property values were not valid: .*Property \\"favourite_colour\\" does not exist/)

    const unauthorized = failed(await upsert(lead(), { access_token: 'wrong' }))
    assert.deepEqual([unauthorized.code, unauthorized.status, unauthorized.retryable], ['unauthorized', 401, false])
    assert.equal(unauthorized.message, 'Authentication credentials not found.')
    assert.equal(hs.contacts.size, 0)
  })

  it('no token, or no email and no external id: permanent, nothing sent', async () => {
    assert.equal(failed(await upsert(lead(), { access_token: null })).code, 'not_configured')
    const r = failed(await upsert(lead({ email: null })))
    assert.deepEqual([r.code, r.retryable], ['email_required', false])
    assert.equal(hs.requests.length, 0)
  })

  it('refuses URLs the outbound policy refuses: permanent url_refused, nothing sent', async () => {
    const metadata = failed(await upsert(lead(), { base_url: 'http://169.254.169.254' }))
    assert.deepEqual([metadata.code, metadata.retryable], ['url_refused', false])
    assert.match(metadata.message, /cloud metadata/)
    const strict = kernelStub(false)
    const loopback = failed(await crmAdapterFor(strict, { ...conn, base_url: 'https://127.0.0.1:9' }).upsert(lead(), ctx))
    assert.deepEqual([loopback.code, loopback.retryable], ['url_refused', false])
    assert.match(loopback.message, /loopback/)
    const plain = failed(await crmAdapterFor(strict, { ...conn, base_url: 'http://api.hubapi.com' }).upsert(lead(), ctx))
    assert.match(plain.message, /must use https/)
    assert.equal(failed(await upsert(lead(), { base_url: 'http://user:pw@127.0.0.1:9' })).code, 'url_refused')
    assert.equal(hs.requests.length, 0)
  })
})

describe('leads crm: HubSpot property mapping and Retry-After', () => {
  it('maps fields, splits names, maps statuses, keeps our fields over custom ones, lets a custom hs_lead_status win', () => {
    assert.deepEqual(splitName('  Ada  '), { firstname: 'Ada' })
    assert.deepEqual(splitName(null), {})
    const statuses = ['new', 'contacted', 'qualified', 'converted', 'unqualified', 'lost', 'someday'].map((status) => hubspotProperties(lead({ status })).hs_lead_status)
    assert.deepEqual(statuses, ['NEW', 'CONNECTED', 'IN_PROGRESS', 'OPEN_DEAL', 'UNQUALIFIED', 'BAD_TIMING', undefined])
    const p = hubspotProperties(lead({ name: null, phone: null, properties: { email: 'evil@example.com', budget: 5000, vip: true, hs_lead_status: 'OPEN' } }))
    assert.deepEqual(p, { email: 'ada.lovelace@example.com', company: 'Analytical Engines Ltd', jobtitle: 'Head of Engineering', budget: '5000', vip: 'true', hs_lead_status: 'OPEN' })
  })

  it('reads Retry-After as seconds or an HTTP-date, else null', () => {
    const now = new Date('2026-03-01T12:00:00.000Z')
    assert.equal(retryAfterMs('120', now), 120_000)
    assert.equal(retryAfterMs('Sun, 01 Mar 2026 12:00:30 GMT', now), 30_000)
    assert.equal(retryAfterMs('Sun, 01 Mar 2026 11:00:00 GMT', now), 0)
    assert.equal(retryAfterMs(['5', '9'], now), 5000)
    for (const bad of [undefined, '', 'soon', '1.5', '-3', '12 34']) assert.equal(retryAfterMs(bad, now), null, String(bad))
  })
})
