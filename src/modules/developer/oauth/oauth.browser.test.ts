import assert from 'node:assert/strict'
import { createHash, randomBytes } from 'node:crypto'
import { existsSync } from 'node:fs'
import { createServer, type Server } from 'node:http'
import { after, before, describe, it } from 'node:test'
import { createTestApp, type TestApp } from '../../../../test/helpers.js'
import { freePort } from '../../../../test/spawn.js'
import { memberWithPassword } from '../../workspaces/sign-in/sign-in.testkit.js'
import { registerApp, type TestOAuthApp } from './oauth.testkit.js'

// Debian's Chromium (apt-get install -y chromium), driven by playwright-core: no browser download.
const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium'
const skip = existsSync(CHROMIUM) ? false : `${CHROMIUM} is missing: install Debian's chromium (apt-get install -y chromium) to run the OAuth browser test`
const PASSWORD = 'member password 123'

/**
 * A partner's web app on 127.0.0.1, as a real client would be: /start sends the browser to authorize
 * (state + PKCE S256), /cb checks the state, exchanges the code (client_secret_basic) and calls the API
 * with the access token, then shows what it got.
 */
function partnerApp(service: string, port: number, app: TestOAuthApp): Server {
  const pending = new Map<string, string>()
  const redirectUri = `http://127.0.0.1:${port}/cb`
  return createServer((req, res) => {
    // A failure here answers 500, which the test sees, not an unhandled rejection that ends the test process.
    void (async () => {
      const url = new URL(req.url!, redirectUri)
      const page = (status: number, text: string) => res.writeHead(status, { 'content-type': 'text/html' }).end(`<!doctype html><title>Partner</title><p id="result">${text}</p>`)
      if (url.pathname === '/start') {
        const state = randomBytes(16).toString('base64url')
        const verifier = randomBytes(32).toString('base64url')
        pending.set(state, verifier)
        const q = new URLSearchParams({
          response_type: 'code',
          client_id: app.client_id,
          redirect_uri: redirectUri,
          scope: 'read',
          state,
          code_challenge: createHash('sha256').update(verifier).digest('base64url'),
          code_challenge_method: 'S256',
        })
        return res.writeHead(302, { location: `${service}/oauth/authorize?${q}` }).end()
      }
      if (url.pathname !== '/cb') return page(404, 'not found')
      const verifier = pending.get(url.searchParams.get('state') ?? '')
      if (!verifier) return page(400, 'state mismatch')
      if (url.searchParams.get('iss') !== service) return page(400, 'wrong issuer')
      const tokenRes = await fetch(`${service}/oauth/token`, {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded', authorization: `Basic ${Buffer.from(`${app.client_id}:${app.client_secret}`).toString('base64')}` },
        body: new URLSearchParams({ grant_type: 'authorization_code', code: url.searchParams.get('code') ?? '', redirect_uri: redirectUri, code_verifier: verifier }),
      })
      const token = (await tokenRes.json()) as { access_token?: string; error?: string }
      if (!token.access_token) return page(502, `token error ${token.error}`)
      const ws = (await (await fetch(`${service}/v2/workspaces/current`, { headers: { authorization: `Bearer ${token.access_token}` } })).json()) as { name?: string; livemode?: boolean }
      return page(200, `connected to ${ws.name} (${ws.livemode ? 'live' : 'sandbox'})`)
    })().catch((err: unknown) => {
      if (!res.headersSent) res.writeHead(500, { 'content-type': 'text/plain' })
      res.end(String(err))
    })
  })
}

describe('OAuth in a real browser', { skip }, () => {
  let h: TestApp
  let partner: Server
  let partnerPort: number
  let service: string
  before(async () => {
    const port = await freePort()
    partnerPort = await freePort()
    service = `http://127.0.0.1:${port}`
    h = await createTestApp({ env: { PUBLIC_URL: service } })
    await h.app.http.listen({ port, host: '127.0.0.1' })
    const app = await registerApp(h, { redirect_uris: [`http://127.0.0.1:${partnerPort}/cb`] }, h.b.live)
    await memberWithPassword(h, 'ada@example.com', PASSWORD)
    partner = partnerApp(service, partnerPort, app)
    await new Promise<void>((resolve) => partner.listen(partnerPort, '127.0.0.1', resolve))
  })
  after(async () => {
    partner?.close()
    await h?.close()
  })

  it('signs in, consents, returns to the client with a code, which gets a token that calls the API', async () => {
    const { chromium } = await import('playwright-core')
    const browser = await chromium.launch({ executablePath: CHROMIUM, args: ['--no-sandbox'] })
    try {
      const page = await browser.newPage()
      const blocked: string[] = []
      page.on('console', (m) => {
        if (/Content Security Policy|Refused/i.test(m.text())) blocked.push(m.text())
      })
      await page.goto(`http://127.0.0.1:${partnerPort}/start`)
      assert.match(new URL(page.url()).pathname, /^\/login$/, 'signed out: the sign-in page first')
      await page.fill('#email', 'ada@example.com')
      await page.fill('#password', PASSWORD)
      await page.click('button[type=submit]')
      await page.waitForURL(/\/oauth\/authorize\?/)
      assert.match((await page.textContent('h1')) ?? '', /Authorize Partner CRM/)
      await page.selectOption('#tenant', `${h.a.workspaceId}:live`)
      await page.click('button[value=allow]')
      await page.waitForURL(new RegExp(`^http://127\\.0\\.0\\.1:${partnerPort}/cb\\?`))
      assert.equal(await page.textContent('#result'), 'connected to Acme (live)')
      assert.deepEqual(blocked, [], 'no CSP violation on the way')
    } finally {
      await browser.close()
    }
  })
})
