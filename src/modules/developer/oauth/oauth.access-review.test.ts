import assert from 'node:assert/strict'
import { after, before, describe, it } from 'node:test'
import { createTestApp, json, ok, post, type TestApp } from '../../../../test/helpers.js'
import { memberWithPassword, PageBrowser } from '../../workspaces/sign-in/sign-in.testkit.js'
import { authorizeUrl, consent, exchange, registerApp, responseParams, tokenRequest } from './oauth.testkit.js'

const PASSWORD = 'member password 123'

/** The access-review evidence report (compliance) names who holds OAuth access, from this part's tables. */
describe('OAuth in the access review', () => {
  let h: TestApp
  before(async () => (h = await createTestApp()))
  after(() => h.close())

  const review = async (key?: string) => {
    const made = await ok(post(h, '/compliance/evidence', { kind: 'access_review' }, { key }), 201)
    const res = await h.request({ method: 'GET', url: `/v2/compliance/evidence/${made.id}/download?format=json`, ...(key ? { key } : {}) })
    const report = json(res)
    const section = (heading: string) => report.sections.find((s: any) => s.heading === heading)
    return { made, report, apps: section('OAuth apps owned').table.rows as string[][], grants: section('OAuth authorizations').table.rows as string[][] }
  }

  it('lists the apps a workspace owns and the authorizations its members gave, active until revoked', async () => {
    // Globex publishes the app; Acme's admin authorizes it for Acme.
    const app = await registerApp(h, { name: 'Partner CRM' }, h.b.live)
    await memberWithPassword(h, 'ada@example.com', PASSWORD, { role: 'admin' })
    const b = new PageBrowser(h)
    await b.signIn('ada@example.com', PASSWORD)
    const code = responseParams(await consent(b, authorizeUrl(app, { scope: 'read leads:read' }), { tenant: `${h.a.workspaceId}:live` })).get('code')!
    const tokens = json(await exchange(h, app, code))

    const acme = await review()
    assert.deepEqual(acme.apps, [], 'Acme owns no app')
    assert.equal(acme.grants.length, 1)
    const [grant] = acme.grants
    assert.match(grant[0], /^[a-z]+_/)
    assert.equal(grant[1], `Partner CRM (${app.client_id})`)
    assert.equal(grant[2], 'ada@example.com')
    assert.equal(grant[3], 'read leads:read')
    assert.match(grant[5], /^active until \d{4}-\d{2}-\d{2} \d{2}:\d{2}$/)
    assert.equal(acme.made.summary['OAuth authorizations active'], '1')

    const globex = await review(h.b.live)
    assert.deepEqual(
      globex.apps.map((r) => [r[0], r[1]]),
      [['Partner CRM', app.client_id]],
    )
    assert.deepEqual(globex.grants, [], 'the authorization was given in Acme, not Globex')
    assert.equal(globex.made.summary['OAuth apps owned'], '1')

    const revoked = await tokenRequest(h, { token: tokens.refresh_token }, { basic: [app.client_id, app.client_secret!], path: '/oauth/revoke' })
    assert.equal(revoked.statusCode, 200)
    const after = await review()
    assert.match(after.grants[0][5], /^revoked \d{4}-\d{2}-\d{2}$/)
    assert.equal(after.made.summary['OAuth authorizations active'], '0')
  })
})
