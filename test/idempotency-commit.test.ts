import assert from 'node:assert/strict'
import { after, before, describe, it } from 'node:test'
import { MODULES } from '../src/modules/index.js'
import { FIXTURES } from './fixtures.js'
import { createTestApp, ENGINE, type TestApp } from './helpers.js'
import { memberSession } from '../src/modules/inbox/inbox.testkit.js'

// Crash-safe idempotency holds only if a write commits its Idempotency-Key in its effect's own
// transaction (the service passes its principal to kernel.transaction), with the response it will answer.
// Every write operation of the route table is driven with a key here, and its key must have been committed that way.
// Event streams take no Idempotency-Key (docs/api-conventions.md, "Event streams").
const writes = MODULES.flatMap((m) => m.routes).filter((r) => r.method !== 'GET' && !r.sse)

describe(`every write commits its Idempotency-Key with its effect (${ENGINE})`, () => {
  let h: TestApp
  let member: string | undefined
  before(async () => (h = await createTestApp()))
  after(() => h.close())

  for (const r of writes) {
    it(r.operationId, async () => {
      const fixture = FIXTURES[r.operationId]
      assert.ok(fixture || !r.url.includes('{'), `no fixture for ${r.operationId} (add it to the module's fixtures)`)
      const made = fixture ? await fixture(h) : { params: {} }
      const { params, body } =
        'params' in made && typeof made.params === 'object' ? (made as { params: Record<string, string>; body?: unknown }) : { params: made as Record<string, string>, body: undefined }
      const url = '/v2' + r.url.replace(/\{([a-z_]+)\}/g, (_, p: string) => params[p])
      const key = `commit-${r.operationId}-${Math.random().toString(36).slice(2)}`
      // A person's operation (markConversationRead: an API key acts for no member) is driven with a member's dashboard token.
      const person = (r.errors ?? []).includes('member_credential_required') ? (member ??= (await memberSession(h, 'idem-member@acme.example')).token) : null
      const res = await h.request({
        method: r.method,
        url,
        key: r.public ? null : (person ?? h.a.live),
        headers: { 'idempotency-key': key },
        payload: (body ?? (r.method === 'DELETE' ? undefined : {})) as object,
      })
      assert.ok(res.statusCode < 300, `${r.operationId}: ${res.statusCode} ${res.body}`)
      const row = await h.app.kernel.db
        .selectFrom('idempotency_keys')
        .select(['api_key_id', 'status', 'committed', 'response_status', 'response_body'])
        .where('idem_key', '=', key)
        .executeTakeFirstOrThrow()
      assert.equal(Number(row.committed), 1, `${r.operationId} did not commit its key in its transaction: pass the principal to kernel.transaction`)
      // `committed` means onSend had nothing to add: the response stored with the effect is the one answered,
      // status included, so a replay after a crash between commit and answer is the same answer.
      assert.equal(row.status, 'committed', `${r.operationId}: the answer differs from what its transaction stored (a status decided after the transaction? return withStatus(…) from it)`)
      assert.equal(Number(row.response_status), res.statusCode, r.operationId)
      // Stored sealed (responses may carry a secret shown once), bound to the API key and the Idempotency-Key.
      assert.ok(row.response_body!.startsWith('enc:v1:') && !row.response_body!.includes(res.body.slice(0, 20)), r.operationId)
      assert.equal(h.app.kernel.secrets.open(row.response_body!, `idempotency:${row.api_key_id}:${key}`), res.body, r.operationId)
    })
  }
})
