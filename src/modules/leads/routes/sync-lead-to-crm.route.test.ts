import assert from 'node:assert/strict'
import { randomBytes } from 'node:crypto'
import { buildApp } from '../../../app.js'
import { createServer } from 'node:http'
import type { AddressInfo } from 'node:net'
import { after, before, describe, it } from 'node:test'
import { verifySignature } from '../../../kernel/crypto/signature.js'
import type { TestApp } from '../../../../test/helpers.js'
import { startHubSpotServer } from '../crm/hubspot.testkit.js'
import { assertProblem, events, get, leadsApp, newLead, ok, patch, post } from '../leads.testkit.js'

describe('syncLeadToCrm', () => {
  let h: TestApp
  let hs: Awaited<ReturnType<typeof startHubSpotServer>>
  before(async () => {
    h = await leadsApp()
    hs = await startHubSpotServer()
  })
  after(async () => {
    await h.close()
    await hs.close()
  })

  const useHubSpot = () => ok(patch(h, `/workspaces/${h.a.workspaceId}`, { crm: { provider: 'hubspot', base_url: hs.url, access_token: hs.token } }))
  const synced = async (id: string, until = (l: any) => l.crm.sync_status !== 'pending', ms = 20_000) => {
    const deadline = Date.now() + ms
    for (;;) {
      const lead = await ok(get(h, `/leads/${id}`))
      if (until(lead)) return lead
      if (Date.now() > deadline) assert.fail(`still ${JSON.stringify(lead.crm)}`)
      await new Promise((r) => setTimeout(r, 50))
    }
  }

  it('is 422 without a CRM; the settings keep their secrets hidden', async () => {
    const lead = await newLead(h)
    assertProblem(await post(h, `/leads/${lead.id}/sync`), 422, 'crm_not_configured')
    const ws = await useHubSpot()
    assert.deepEqual({ ...ws.crm, updated_at: undefined }, { provider: 'hubspot', base_url: hs.url, url: null, access_token_set: true, signing_secret_set: false, updated_at: undefined })
    assert.ok(!JSON.stringify(ws).includes(hs.token))
    assertProblem(await patch(h, `/workspaces/${h.a.workspaceId}`, { crm: { provider: 'webhook' } }), 422)
  })

  it('creates, then updates the same contact (no duplicate), and upserts one that already existed', async () => {
    await useHubSpot()
    const lead = await newLead(h, { name: 'Ada Lovelace', company: 'Engines', title: 'CTO', phone: '+442079460958' })
    const queued = await ok(post(h, `/leads/${lead.id}/sync`), 202)
    assert.equal(queued.crm.sync_status, 'pending')
    const first = await synced(lead.id)
    assert.equal(first.crm.sync_status, 'synced', JSON.stringify(first.crm))
    const contact = hs.findByEmail(lead.email)!
    assert.equal(first.crm.external_id, contact.id)
    assert.equal(contact.properties.firstname, 'Ada')
    assert.equal(contact.properties.company, 'Engines')
    await ok(patch(h, `/leads/${lead.id}`, { company: 'Analytical Engines' }))
    await ok(post(h, `/leads/${lead.id}/sync`), 202)
    const second = await synced(lead.id, (l) => l.crm.sync_status === 'synced' && l.crm.last_synced_at !== first.crm.last_synced_at)
    assert.equal(second.crm.external_id, contact.id)
    assert.equal(hs.findByEmail(lead.email)!.properties.company, 'Analytical Engines')
    assert.equal([...hs.contacts.values()].filter((c) => c.properties.email === lead.email).length, 1)

    const existingId = hs.seed({ email: 'known@example.com', firstname: 'Known' })
    const known = await newLead(h, { email: 'known@example.com', name: 'Known Person' })
    await ok(post(h, `/leads/${known.id}/sync`), 202)
    assert.equal((await synced(known.id)).crm.external_id, existingId)
    assert.equal([...hs.contacts.values()].filter((c) => c.properties.email === 'known@example.com').length, 1)
    const acts = await ok(get(h, `/leads/${known.id}/activities`))
    assert.equal(acts.data[0].type, 'sync')
    assert.equal(acts.data[0].data.action, 'updated')
    assert.ok((await events(h, 'lead.synced')).some((e) => e.id === known.id))
  })

  it('honours Retry-After on 429, retries a 5xx, and fails a permanent 4xx with the CRM message', async () => {
    await useHubSpot()
    const a = await newLead(h)
    hs.failNext(1, { status: 429, retryAfter: '1' })
    const t0 = Date.now()
    await ok(post(h, `/leads/${a.id}/sync`), 202)
    assert.equal((await synced(a.id)).crm.sync_status, 'synced')
    const mine = hs.requests.filter((r) => r.body.includes(a.email) || r.path.includes('/search'))
    assert.ok(Date.now() - t0 >= 1000, 'waited for Retry-After')
    assert.ok(mine.length >= 2)

    const b = await newLead(h)
    hs.failNext(1, { status: 503 })
    await ok(post(h, `/leads/${b.id}/sync`), 202)
    assert.equal((await synced(b.id)).crm.sync_status, 'synced')

    const c = await newLead(h)
    hs.failNext(1, { status: 400, body: { status: 'error', message: 'Property values were not valid', category: 'VALIDATION_ERROR' } })
    await ok(post(h, `/leads/${c.id}/sync`), 202)
    const failed = await synced(c.id)
    assert.equal(failed.crm.sync_status, 'failed')
    assert.match(failed.crm.last_error, /Property values were not valid/)
    assert.ok((await events(h, 'lead.sync_failed')).some((e) => e.id === c.id))
  })

  it('posts the lead to a webhook CRM, signed', async () => {
    const seen: { headers: Record<string, string | string[] | undefined>; body: string }[] = []
    const receiver = createServer((req, res) => {
      let body = ''
      req.on('data', (d) => (body += d))
      req.on('end', () => {
        seen.push({ headers: req.headers, body })
        res.writeHead(200, { 'content-type': 'application/json' }).end('{"id":"crm-7"}')
      })
    })
    await new Promise<void>((r) => receiver.listen(0, '127.0.0.1', r))
    try {
      const secret = 'whsec_leads_test_secret_0123456789'
      await ok(patch(h, `/workspaces/${h.a.workspaceId}`, { crm: { provider: 'webhook', url: `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/leads`, signing_secret: secret } }))
      const lead = await newLead(h)
      await ok(post(h, `/leads/${lead.id}/sync`), 202)
      const done = await synced(lead.id)
      assert.equal(done.crm.external_id, 'crm-7')
      assert.equal(seen.length, 1)
      assert.ok(verifySignature(seen[0].headers['svc-status-signature'] as string, seen[0].body, [secret]))
      assert.equal(JSON.parse(seen[0].body).lead.id, lead.id)
    } finally {
      receiver.closeAllConnections()
      await new Promise((r) => receiver.close(r))
    }
  })

  it('keeps the CRM token sealed under the current server secret after a rotation (reseal)', async () => {
    await useHubSpot()
    const read = async () =>
      (await h.app.kernel.db.selectFrom('workspace_settings').select('crm').where('workspace_id', '=', h.a.workspaceId).where('mode', '=', 'live').executeTakeFirstOrThrow()).crm!
    const before = await read()
    const next = randomBytes(32).toString('base64url')
    const rotated = await buildApp({ config: { ...h.config, serverSecret: next, serverSecretPrevious: [h.config.serverSecret!] }, database: h.app.kernel.database })
    try {
      assert.ok((await rotated.services.workspaces.reseal()) >= 1)
      assert.equal(await rotated.services.workspaces.reseal(), 0)
    } finally {
      await rotated.http.close()
      await rotated.redis?.quit()
    }
    assert.notEqual(await read(), before)
    const only = await buildApp({ config: { ...h.config, serverSecret: next, serverSecretPrevious: [] }, database: h.app.kernel.database })
    try {
      assert.equal((await only.services.leads.crm.connection({ workspaceId: h.a.workspaceId, mode: 'live' }))!.access_token, hs.token)
    } finally {
      await only.http.close()
      await only.redis?.quit()
    }
  })
})
