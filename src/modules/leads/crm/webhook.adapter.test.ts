import assert from 'node:assert/strict'
import { after, before, describe, it } from 'node:test'
import { newSecret, verifySignature, verifyStandardSignature } from '../../../kernel/crypto/signature.js'
import { startToolServer, type ToolAnswer } from '../../../kernel/tools/tools.testkit.js'
import { crmKernelStub } from './crm.testkit.js'
import { crmAdapterFor, type CrmConnection, type CrmLead, type CrmResult } from './crm.types.js'

const LEAD: CrmLead = {
  id: 'lead_01JTEST0000000000000000002',
  email: 'grace@example.com',
  name: 'Grace Hopper',
  phone: null,
  company: 'Navy',
  title: 'Rear Admiral',
  status: 'new',
  score: 55,
  properties: { budget: 5000, vip: true, note: null },
  external_id: null,
}
const KEY = 'sync_01JTESTWEBHOOK'

function failed(r: CrmResult) {
  assert.equal(r.ok, false, JSON.stringify(r))
  return r as Extract<CrmResult, { ok: false }>
}

describe('leads crm: webhook adapter', () => {
  const secret = newSecret()
  const k = crmKernelStub()
  let answer: ToolAnswer = { status: 200, body: '' }
  let server: Awaited<ReturnType<typeof startToolServer>>
  let conn: CrmConnection
  const upsert = (c: Partial<CrmConnection> = {}, timeoutMs?: number) => crmAdapterFor(k, { ...conn, ...c }, { timeoutMs }).upsert(LEAD, { idempotencyKey: KEY })

  before(async () => {
    server = await startToolServer(() => answer)
    conn = { provider: 'webhook', base_url: null, access_token: null, url: `${server.url}/crm/leads`, signing_secret: secret }
  })
  after(() => server.close())

  it('POSTs {type, lead} signed like our webhooks (both schemes verify), with the Idempotency-Key', async () => {
    answer = { status: 204 }
    const r = await upsert()
    assert.deepEqual(r, { ok: true, external_id: LEAD.id, action: 'created' })
    const seen = server.requests.at(-1)!
    assert.equal(seen.method, 'POST')
    assert.equal(seen.url, '/crm/leads')
    assert.deepEqual(JSON.parse(seen.body), { type: 'lead.sync', lead: LEAD })
    assert.equal(seen.headers['idempotency-key'], KEY)
    assert.equal(seen.headers['content-type'], 'application/json')
    assert.ok(verifySignature(seen.headers['svc-status-signature'] as string, seen.body, [secret]), 'Svc-Status-Signature verifies')
    assert.ok(!verifySignature(seen.headers['svc-status-signature'] as string, seen.body, [newSecret()]), 'not under another secret')
    const standard = { id: seen.headers['webhook-id'] as string, timestamp: seen.headers['webhook-timestamp'] as string, signature: seen.headers['webhook-signature'] as string }
    assert.equal(standard.id, KEY, 'webhook-id is the Idempotency-Key: the same on every retry')
    assert.ok(verifyStandardSignature(standard, seen.body, [secret]), 'Standard Webhooks signature verifies')
    assert.ok(!verifyStandardSignature(standard, seen.body.replace('Grace', 'Gr4ce'), [secret]), 'a changed body does not')
  })

  it("takes the receiver's id and action when it gives them", async () => {
    answer = { status: 200, body: JSON.stringify({ id: 'crm-42', action: 'updated' }) }
    assert.deepEqual(await upsert(), { ok: true, external_id: 'crm-42', action: 'updated' })
    answer = { status: 201, body: JSON.stringify({ id: 7 }) }
    assert.deepEqual(await upsert(), { ok: true, external_id: '7', action: 'created' })
    answer = { status: 200, body: 'thanks', headers: { 'content-type': 'text/plain' } }
    assert.deepEqual(await upsert(), { ok: true, external_id: LEAD.id, action: 'created' })
  })

  it("classifies failures: 429 with Retry-After and 5xx retryable, 4xx permanent with the receiver's message, 3xx not followed", async () => {
    answer = { status: 429, headers: { 'retry-after': '12' }, body: JSON.stringify({ message: 'slow down' }) }
    const limited = failed(await upsert())
    assert.deepEqual(limited, { ok: false, retryable: true, retry_after_ms: 12_000, status: 429, code: 'rate_limited', message: 'slow down' })

    answer = { status: 503, body: '' }
    const down = failed(await upsert())
    assert.deepEqual([down.code, down.retryable, down.retry_after_ms, down.message], ['server_error', true, null, 'The receiver answered HTTP 503.'])

    answer = { status: 422, headers: { 'content-type': 'application/problem+json' }, body: JSON.stringify({ title: 'Unprocessable', detail: 'email is on our block list' }) }
    const refused = failed(await upsert())
    assert.deepEqual([refused.code, refused.retryable, refused.status, refused.message], ['unprocessable', false, 422, 'email is on our block list'])

    answer = { status: 400, headers: { 'content-type': 'text/plain' }, body: 'bad lead' }
    assert.equal(failed(await upsert()).message, 'The receiver answered HTTP 400: bad lead')

    answer = { status: 301, headers: { location: 'https://elsewhere.example/' } }
    const moved = failed(await upsert())
    assert.deepEqual([moved.code, moved.retryable], ['redirect_not_followed', false])

    answer = { hang: true }
    const slow = failed(await upsert({}, 300))
    assert.deepEqual([slow.code, slow.retryable], ['timeout', true])
  })

  it('refused URLs and missing settings are permanent, and nothing is sent', async () => {
    const before = server.requests.length
    const metadata = failed(await upsert({ url: 'http://[::ffff:169.254.169.254]/latest' }))
    assert.deepEqual([metadata.code, metadata.retryable], ['url_refused', false])
    const strict = failed(await crmAdapterFor(crmKernelStub(false), conn).upsert(LEAD, { idempotencyKey: KEY }))
    assert.deepEqual([strict.code, strict.retryable], ['url_refused', false])
    assert.match(strict.message, /private networks are not allowed/)
    assert.equal(failed(await upsert({ url: 'ftp://127.0.0.1/x' })).code, 'url_refused')
    // A name that does not resolve may resolve later (DNS outage, receiver not deployed yet): retryable.
    const unresolved = failed(await upsert({ url: 'http://crm-receiver.invalid/leads' }))
    assert.deepEqual([unresolved.code, unresolved.retryable], ['connection_failed', true])
    assert.equal(failed(await upsert({ url: null })).code, 'not_configured')
    assert.equal(failed(await upsert({ signing_secret: null })).code, 'not_configured')
    assert.equal(server.requests.length, before)
  })
})
