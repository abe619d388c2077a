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

const unescape = (s: string) => s.replace(/&quot;/g, '"').replace(/&#39;/g, "'").replace(/&lt;/g, '<').replace(/&gt;/g, '>').replace(/&amp;/g, '&')

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
