import assert from 'node:assert/strict'
import { after, before, describe, it } from 'node:test'
import { ManualClock } from '../../../kernel/clock.js'
import { spawnSync } from 'node:child_process'
import { createTestApp, TEST_SERVER_SECRET, type TestApp } from '../../../../test/helpers.js'
import { entryArgs } from '../../../../test/spawn.js'
import { SIGN_IN_LIMITS } from './throttle.js'
import { SESSION_LIMITS } from './sessions.js'
import { csrfOf, memberWithPassword, PageBrowser } from './sign-in.testkit.js'

const PASSWORD = 'correct horse battery'

describe('member sign-in', () => {
  let h: TestApp
  const clock = new ManualClock()
  before(async () => {
    h = await createTestApp({ clock })
    await memberWithPassword(h, 'ada@example.com', PASSWORD)
  })
  after(() => h.close())

  it('serves the form with a strict CSP, no scripts, and a CSRF token bound to a visitor cookie', async () => {
    const b = new PageBrowser(h)
    const page = await b.get('/login')
    assert.equal(page.statusCode, 200)
    assert.match(String(page.headers['content-type']), /text\/html/)
    const csp = String(page.headers['content-security-policy'])
    assert.match(csp, /default-src 'none'/)
    assert.match(csp, /frame-ancestors 'none'/)
    assert.doesNotMatch(csp, /unsafe-inline|script-src/)
    assert.doesNotMatch(page.body, /<script/i)
    assert.equal(page.headers['x-frame-options'], 'DENY')
    assert.ok(csrfOf(page.body))
    const cookie = String(page.headers['set-cookie'])
    assert.match(cookie, /^svc_csrf=/)
    assert.match(cookie, /HttpOnly/)
    assert.match(cookie, /SameSite=Lax/)
    assert.doesNotMatch(cookie, /Secure/, 'PUBLIC_URL is http here')
  })

  it("speaks the reader's language: the dashboard's choice (svc_locale cookie), else Accept-Language, else English", async () => {
    const page = (headers: Record<string, string>) => h.http().inject({ method: 'GET', url: '/login', headers })
    const de = await page({ 'accept-language': 'de-DE,de;q=0.9,en;q=0.8' })
    assert.match(de.body, /<html lang="de">/)
    assert.match(de.body, /<h1>Anmelden<\/h1>/)
    assert.match(de.body, /Passwort/)
    const en = await page({ 'accept-language': 'fr-FR,en;q=0.5,de;q=0.4' })
    assert.match(en.body, /<html lang="en">/)
    assert.match(en.body, /<h1>Sign in<\/h1>/)
    assert.match((await page({})).body, /<h1>Sign in<\/h1>/)
    // Chosen in the dashboard's Settings: wins over the browser.
    assert.match((await page({ 'accept-language': 'de', cookie: 'svc_locale=en' })).body, /<h1>Sign in<\/h1>/)
    assert.match((await page({ 'accept-language': 'en', cookie: 'svc_locale=de' })).body, /<h1>Anmelden<\/h1>/)
    // An error in the same language.
    const b = new PageBrowser(h)
    const form = await b.get('/login')
    const wrong = await h.http().inject({
      method: 'POST',
      url: '/login',
      headers: { 'content-type': 'application/x-www-form-urlencoded', 'accept-language': 'de', cookie: String(form.headers['set-cookie']).split(';')[0] },
      payload: new URLSearchParams({ csrf_token: csrfOf(form.body)!, email: 'ada@example.com', password: 'wrong password here' }).toString(),
    })
    assert.equal(wrong.statusCode, 401)
    assert.match(wrong.body, /E-Mail oder Passwort ist falsch/)
  })

  it('refuses a wrong password (401), then signs in with the right one: HttpOnly SameSite=Lax session, hashed at rest', async () => {
    const b = new PageBrowser(h)
    const wrong = await b.signIn('ada@example.com', 'not the password!')
    assert.equal(wrong.statusCode, 401)
    assert.match(wrong.body, /email or the password is wrong/)
    assert.ok(!b.cookies.has('svc_session'))
    const unknown = await b.signIn('nobody@example.com', PASSWORD)
    assert.equal(unknown.statusCode, 401, 'an unknown account answers exactly like a wrong password')
    const ok = await b.signIn('ADA@example.com', PASSWORD)
    assert.equal(ok.statusCode, 303)
    assert.equal(ok.headers.location, '/login')
    const cookie = [ok.headers['set-cookie']].flat().find((c) => String(c).startsWith('svc_session='))!
    assert.match(cookie, /HttpOnly/)
    assert.match(cookie, /SameSite=Lax/)
    const token = b.cookies.get('svc_session')!
    const rows = await h.app.kernel.db.selectFrom('member_sessions').selectAll().execute()
    assert.ok(rows.length >= 1 && rows.every((r) => r.token_hash !== token && !JSON.stringify(r).includes(token)))
    const cred = await h.app.kernel.db.selectFrom('member_credentials').selectAll().where('email', '=', 'ada@example.com').executeTakeFirstOrThrow()
    assert.match(cred.password_hash, /^scrypt\$15\$8\$3\$/)
    assert.ok(!cred.password_hash.includes(PASSWORD))
    const home = await b.get('/login')
    assert.match(home.body, /signed in as <strong>ada@example.com<\/strong>/)
    assert.match(home.body, /Acme/)
    const session = await h.app.services.signIn.session({ headers: { cookie: `svc_session=${token}` } } as never)
    assert.equal(session?.email, 'ada@example.com')
    assert.deepEqual(
      session?.memberships.map((m) => [m.workspace_id, m.mode, m.role]),
      [[h.a.workspaceId, 'live', 'member']],
    )
  })

  it('follows ?next= only to paths on this server', async () => {
    const b = new PageBrowser(h)
    const ok = await b.signIn('ada@example.com', PASSWORD, '/oauth/authorize?client_id=x&scope=read')
    assert.equal(ok.headers.location, '/oauth/authorize?client_id=x&scope=read')
    for (const evil of ['https://evil.example/', '//evil.example/x', '/\\evil.example', 'javascript:alert(1)', '/%0d%0aSet-Cookie:x']) {
      const again = await b.signIn('ada@example.com', PASSWORD, evil)
      assert.ok(!/evil|javascript|\r|\n/.test(String(again.headers.location)), `${evil} → ${again.headers.location}`)
    }
    const signedIn = await b.get('/login?next=https://evil.example/')
    assert.equal(signedIn.statusCode, 200, 'an unsafe next is ignored, not followed')
  })

  it('answers 403 to a form without a valid CSRF token (sign-in and sign-out)', async () => {
    const b = new PageBrowser(h)
    await b.get('/login')
    const none = await b.post('/login', { email: 'ada@example.com', password: PASSWORD })
    assert.equal(none.statusCode, 403)
    const other = new PageBrowser(h)
    const foreign = csrfOf((await other.get('/login')).body)
    assert.equal((await b.post('/login', { email: 'ada@example.com', password: PASSWORD, csrf_token: foreign })).statusCode, 403, "another visitor's token")
    assert.equal((await new PageBrowser(h).post('/login', { email: 'ada@example.com', password: PASSWORD, csrf_token: foreign })).statusCode, 403, 'no cookie')
    assert.equal((await b.signIn('ada@example.com', PASSWORD)).statusCode, 303)
    const logout = await b.post('/logout', {})
    assert.equal(logout.statusCode, 403)
    assert.match((await b.get('/login')).body, /Signed in/, 'still signed in')
  })

  it('signs out: the session ends in the database, not just in the browser', async () => {
    const b = new PageBrowser(h)
    await b.signIn('ada@example.com', PASSWORD)
    const token = b.cookies.get('svc_session')!
    const out = await b.submit('/logout', '/logout', {})
    assert.equal(out.statusCode, 303)
    assert.ok(!b.cookies.has('svc_session'))
    const replay = new PageBrowser(h)
    replay.cookies.set('svc_session', token)
    assert.match((await replay.get('/login')).body, /<h1>Sign in<\/h1>/, 'the old cookie opens nothing')
  })

  it('ends a session after the idle limit and after the absolute limit', async () => {
    const b = new PageBrowser(h)
    await b.signIn('ada@example.com', PASSWORD)
    clock.advance(SESSION_LIMITS.idleMs + 1000)
    assert.match((await b.get('/login')).body, /<h1>Sign in<\/h1>/)
    await b.signIn('ada@example.com', PASSWORD)
    for (let t = 0; t < SESSION_LIMITS.absoluteMs; t += SESSION_LIMITS.idleMs / 2) {
      clock.advance(SESSION_LIMITS.idleMs / 2)
      await b.get('/login')
    }
    assert.match((await b.get('/login')).body, /<h1>Sign in<\/h1>/, 'kept busy, it still ends')
  })

  it('rate-limits failed sign-ins per account (even the right password is refused, 429) and per address', async () => {
    await memberWithPassword(h, 'grace@example.com', PASSWORD)
    const b = new PageBrowser(h, '10.0.0.7')
    for (let i = 0; i < SIGN_IN_LIMITS.perAccount; i++) assert.equal((await b.signIn('grace@example.com', `wrong password ${i}`)).statusCode, 401)
    const limited = await b.signIn('grace@example.com', PASSWORD)
    assert.equal(limited.statusCode, 429)
    assert.ok(Number(limited.headers['retry-after']) > 0)
    const elsewhere = new PageBrowser(h, '10.0.0.8')
    assert.equal((await elsewhere.signIn('grace@example.com', PASSWORD)).statusCode, 429, 'the account is limited from any address')
    assert.equal((await new PageBrowser(h, '10.0.0.7').signIn('ada@example.com', PASSWORD)).statusCode, 303, 'other accounts from that address still work')
    clock.advance(SIGN_IN_LIMITS.windowMs + 1000)
    assert.equal((await elsewhere.signIn('grace@example.com', PASSWORD)).statusCode, 303, 'after the window')
    // Per address: many accounts from one address.
    const rows = Array.from({ length: SIGN_IN_LIMITS.perAddress }, () => ({ bucket: 'ip:10.0.0.9', window_start: clock.now().toISOString(), failures: 1 }))
    await h.app.kernel.db
      .insertInto('sign_in_throttle')
      .values({ ...rows[0], failures: rows.length })
      .execute()
    assert.equal((await new PageBrowser(h, '10.0.0.9').signIn('ada@example.com', PASSWORD)).statusCode, 429)
  })
})

describe('invitation links and the CLI password', () => {
  let h: TestApp
  before(async () => (h = await createTestApp()))
  after(() => h.close())

  const invite = async (email: string, key?: string, ws?: string) => {
    const res = await h.request({ method: 'POST', url: `/v2/workspaces/${ws ?? h.a.workspaceId}/members`, payload: { email }, ...(key ? { key } : {}) })
    return new URL(JSON.parse(res.body).invitation_url).pathname
  }

  it('lets a new member choose a password through the link, joins them and signs them in; the link is then spent', async () => {
    const path = await invite('new@example.com')
    const b = new PageBrowser(h)
    const page = await b.get(path)
    assert.match(page.body, /Choose a password/)
    const short = await b.post(path, { password: 'short', confirm: 'short', csrf_token: csrfOf(page.body) })
    assert.equal(short.statusCode, 422)
    assert.equal((await b.post(path, { password: PASSWORD, confirm: PASSWORD })).statusCode, 403, 'CSRF')
    const ok = await b.submit(path, path, { password: PASSWORD, confirm: PASSWORD })
    assert.equal(ok.statusCode, 303)
    assert.match((await b.get('/login')).body, /new@example.com/)
    const members = JSON.parse((await h.request({ method: 'GET', url: `/v2/workspaces/${h.a.workspaceId}/members` })).body).data
    const m = members.find((x: { email: string }) => x.email === 'new@example.com')
    assert.equal(m.status, 'active')
    assert.equal(m.invitation_url, null)
    assert.equal((await new PageBrowser(h).get(path)).statusCode, 404)
    const audit = await h.app.kernel.db.selectFrom('audit_log').selectAll().where('action', '=', 'acceptInvitation').execute()
    assert.equal(audit[0]?.actor_type, 'member')
  })

  it('never lets a link set the password of an email that has one, or that is active elsewhere', async () => {
    const path = await invite('new@example.com', h.b.live, h.b.workspaceId)
    const stranger = new PageBrowser(h)
    const page = await stranger.get(path)
    assert.match(page.body, /sign in<\/a> to accept/)
    assert.doesNotMatch(page.body, /Choose a password/)
    const attempt = await stranger.post(path, { password: 'attacker password 1', confirm: 'attacker password 1', csrf_token: csrfOf((await stranger.get('/login')).body) })
    assert.equal(attempt.statusCode, 409)
    // The member signs in and accepts with one click.
    const owner = new PageBrowser(h)
    assert.equal((await owner.signIn('new@example.com', PASSWORD, path)).headers.location, path)
    assert.equal((await owner.submit(path, path, {})).statusCode, 303)
    assert.match((await owner.get('/login')).body, /Globex/)
    // The owner made by `workspaces create --owner-email` is active without a password: only an operator sets it.
    const other = await invite('owner@globex.example')
    assert.match((await new PageBrowser(h).get(other)).body, /Ask an operator/)
  })

  it('sets a password from the CLI for members only, ending their sessions', async () => {
    const signIn = h.app.services.signIn
    await assert.rejects(signIn.setPassword('stranger@example.com', PASSWORD), /not a member/)
    await assert.rejects(signIn.setPassword('owner@acme.example', 'short'), /at least 12/)
    await signIn.setPassword('owner@acme.example', PASSWORD)
    const b = new PageBrowser(h)
    assert.equal((await b.signIn('owner@acme.example', PASSWORD)).statusCode, 303)
    const r = await signIn.setPassword('owner@acme.example', 'another long password')
    assert.equal(r.sessions_ended, 1)
    assert.match((await b.get('/login')).body, /<h1>Sign in<\/h1>/)
  })

  it('`svc members set-password` reads the password from standard input', async () => {
    const env = {
      ...process.env,
      LOG_LEVEL: 'silent',
      SERVER_SECRET: TEST_SERVER_SECRET,
      DATABASE_URL: h.config.databaseUrl,
      ...(h.config.databaseSchema ? { DATABASE_SCHEMA: h.config.databaseSchema } : {}),
    }
    const run = (args: string[], input: string) =>
      spawnSync(process.execPath, [...entryArgs('cli'), 'members', 'set-password', ...args], { env, input, encoding: 'utf8', cwd: new URL('../../../../', import.meta.url).pathname })
    const ok = run(['--email', 'Owner@Globex.example', '--json'], 'a password from stdin\n')
    assert.equal(ok.status, 0, ok.stderr)
    assert.deepEqual(JSON.parse(ok.stdout), { email: 'owner@globex.example', sessions_ended: 0 })
    assert.equal((await new PageBrowser(h).signIn('owner@globex.example', 'a password from stdin')).statusCode, 303)
    const weak = run(['--email', 'owner@globex.example'], 'short\n')
    assert.equal(weak.status, 2)
    assert.match(weak.stderr, /at least 12/)
  })
})

describe('sign-in over https', () => {
  let h: TestApp
  before(async () => (h = await createTestApp({ env: { PUBLIC_URL: 'https://svc.example.com' } })))
  after(() => h.close())

  it('uses Secure __Host- cookies', async () => {
    await memberWithPassword(h, 'ada@example.com', PASSWORD)
    const b = new PageBrowser(h)
    const page = await b.get('/login')
    assert.match(String(page.headers['set-cookie']), /^__Host-svc_csrf=.*; Secure/)
    const ok = await b.signIn('ada@example.com', PASSWORD)
    const session = [ok.headers['set-cookie']].flat().find((c) => String(c).startsWith('__Host-svc_session='))!
    assert.match(session, /; Path=\/;/)
    assert.match(session, /Secure/)
    assert.doesNotMatch(session, /Domain=/)
  })
})
