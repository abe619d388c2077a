import { createHash, randomBytes } from 'node:crypto'
import type { LightMyRequestResponse } from 'fastify'
import type { TestApp } from '../../../../test/helpers.js'

/** What the tests need of a browser (the sign-in's PageBrowser): cookies kept across calls. */
export interface FormBrowser {
  get(url: string): Promise<LightMyRequestResponse>
  post(url: string, form: Record<string, string>): Promise<LightMyRequestResponse>
}

export interface TestOAuthApp {
  id: string
  client_id: string
  client_secret: string | null
  redirect_uris: string[]
}

export const REDIRECT = 'https://partner.example.com/oauth/callback'

export async function registerApp(h: TestApp, body: Record<string, unknown> = {}, key?: string): Promise<TestOAuthApp> {
  const res = await h.request({
    method: 'POST',
    url: key?.startsWith('svc_test_') ? '/sandbox/v2/oauth/apps' : '/v2/oauth/apps',
    payload: { name: 'Partner CRM', redirect_uris: [REDIRECT], allowed_scopes: ['read', 'write', 'admin', 'leads:read'], ...body },
    ...(key ? { key } : {}),
  })
  if (res.statusCode !== 201) throw new Error(res.body)
  return JSON.parse(res.body)
}

export function pkce(): { verifier: string; challenge: string } {
  const verifier = randomBytes(32).toString('base64url')
  return { verifier, challenge: createHash('sha256').update(verifier).digest('base64url') }
}

export function authorizeUrl(app: { client_id: string }, params: Record<string, string | null> = {}): string {
  const q = new URLSearchParams()
  const all: Record<string, string | null> = { response_type: 'code', client_id: app.client_id, redirect_uri: REDIRECT, scope: 'read', state: 'st-123', ...params }
  for (const [k, v] of Object.entries(all)) if (v !== null) q.append(k, v)
  return `/oauth/authorize?${q}`
}

/** Opens the consent page and answers it; returns the redirect the browser gets. */
export async function consent(b: FormBrowser, url: string, opts: { decision?: 'allow' | 'deny'; tenant?: string } = {}): Promise<LightMyRequestResponse> {
  const page = await b.get(url)
  if (page.statusCode !== 200) throw new Error(`consent page: ${page.statusCode} ${page.headers.location ?? page.body.slice(0, 300)}`)
  const fields: Record<string, string> = {}
  for (const m of page.body.matchAll(/<input type="hidden" name="([^"]+)" value="([^"]*)">/g)) fields[m[1]] = unescape(m[2])
  const tenant = opts.tenant ?? /<option value="([^"]+)"/.exec(page.body)![1]
  return b.post('/oauth/authorize', { ...fields, tenant, decision: opts.decision ?? 'allow' })
}

const unescape = (s: string) =>
  s
    .replace(/&quot;/g, '"')
    .replace(/&#39;/g, "'")
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&amp;/g, '&')

/** The authorization response's query parameters (code, state, iss, error). */
export function responseParams(res: LightMyRequestResponse): URLSearchParams {
  const location = String(res.headers.location ?? '')
  if (!location.startsWith('https://') && !location.startsWith('http://')) throw new Error(`no redirect to the client: ${res.statusCode} ${location} ${res.body.slice(0, 300)}`)
  return new URL(location).searchParams
}

export function tokenRequest(h: TestApp, form: Record<string, string>, opts: { basic?: [string, string]; path?: string; contentType?: string } = {}): Promise<LightMyRequestResponse> {
  const headers: Record<string, string> = { 'content-type': opts.contentType ?? 'application/x-www-form-urlencoded' }
  if (opts.basic) headers.authorization = `Basic ${Buffer.from(`${encodeURIComponent(opts.basic[0])}:${encodeURIComponent(opts.basic[1])}`).toString('base64')}`
  return h.http().inject({ method: 'POST', url: opts.path ?? '/oauth/token', headers, payload: new URLSearchParams(form).toString() })
}

/** authorization_code for a confidential app (client_secret_post). */
export function exchange(h: TestApp, app: TestOAuthApp, code: string, extra: Record<string, string> = {}) {
  return tokenRequest(h, { grant_type: 'authorization_code', code, redirect_uri: REDIRECT, client_id: app.client_id, ...(app.client_secret ? { client_secret: app.client_secret } : {}), ...extra })
}

export const api = (h: TestApp, token: string, method: 'GET' | 'POST' | 'PATCH', url: string, payload?: object) =>
  h.http().inject({ method, url, headers: { authorization: `Bearer ${token}` }, ...(payload ? { payload } : {}) })

/** A cookie-keeping browser over inject, for fixtures (tests of this part use the sign-in's PageBrowser). */
class CookieBrowser implements FormBrowser {
  private readonly jar = new Map<string, string>()
  constructor(private readonly h: TestApp) {}
  private keep(res: LightMyRequestResponse): LightMyRequestResponse {
    const set = res.headers['set-cookie']
    for (const c of set === undefined ? [] : Array.isArray(set) ? set : [set]) {
      const [pair] = c.split(';')
      const eq = pair.indexOf('=')
      this.jar.set(pair.slice(0, eq).trim(), decodeURIComponent(pair.slice(eq + 1).trim()))
    }
    return res
  }
  private cookie(): Record<string, string> {
    return this.jar.size ? { cookie: [...this.jar].map(([k, v]) => `${k}=${encodeURIComponent(v)}`).join('; ') } : {}
  }
  async get(url: string) {
    return this.keep(await this.h.http().inject({ method: 'GET', url, headers: this.cookie() }))
  }
  async post(url: string, form: Record<string, string>) {
    const headers = { ...this.cookie(), 'content-type': 'application/x-www-form-urlencoded' }
    return this.keep(await this.h.http().inject({ method: 'POST', url, headers, payload: new URLSearchParams(form).toString() }))
  }
}

/**
 * A real authorization given in workspace A (live) through the whole flow — a new admin member signs in,
 * consents, the app redeems the code — for the shared route-table fixtures. Returns the grant id.
 */
export async function authorizationInA(h: TestApp): Promise<{ id: string; app: TestOAuthApp; access_token: string; refresh_token: string }> {
  const app = await registerApp(h, {}, h.b.live)
  const email = `grantor-${randomBytes(6).toString('hex')}@example.com`
  const password = 'fixture password 123'
  const members = `/v2/workspaces/${h.a.workspaceId}/members`
  const member = JSON.parse((await h.request({ method: 'POST', url: members, payload: { email, role: 'admin' } })).body)
  await h.request({ method: 'PATCH', url: `${members}/${member.id}`, payload: { status: 'active' } })
  await h.app.services.signIn.setPassword(email, password)
  const b = new CookieBrowser(h)
  const login = await b.get('/login')
  await b.post('/login', { email, password, csrf_token: /name="csrf_token" value="([^"]+)"/.exec(login.body)![1] })
  const code = responseParams(await consent(b, authorizeUrl(app, { scope: 'read' }), { tenant: `${h.a.workspaceId}:live` })).get('code')!
  const tokens = JSON.parse((await exchange(h, app, code)).body)
  const grant = await h.app.kernel.db.selectFrom('oauth_grants').select('id').where('client_id', '=', app.client_id).executeTakeFirstOrThrow()
  return { id: grant.id, app, access_token: tokens.access_token, refresh_token: tokens.refresh_token }
}
