import type { LightMyRequestResponse } from 'fastify'
import type { TestApp } from '../../../../test/helpers.js'

/**
 * A browser for the sign-in pages over inject: keeps cookies (Set-Cookie in, Cookie out) and reads the
 * forms' CSRF tokens. Tests of other modules' pages (OAuth consent) use it too.
 */
export class PageBrowser {
  readonly cookies = new Map<string, string>()
  constructor(
    private readonly h: TestApp,
    readonly ip = '127.0.0.1',
  ) {}

  private keep(res: LightMyRequestResponse): LightMyRequestResponse {
    const set = res.headers['set-cookie']
    for (const c of set === undefined ? [] : Array.isArray(set) ? set : [set]) {
      const [pair, ...attrs] = c.split(';')
      const eq = pair.indexOf('=')
      const name = pair.slice(0, eq).trim()
      const value = decodeURIComponent(pair.slice(eq + 1).trim())
      if (attrs.some((a) => /^\s*max-age=0\s*$/i.test(a)) || value === '') this.cookies.delete(name)
      else this.cookies.set(name, value)
    }
    return res
  }

  private headers(extra: Record<string, string> = {}): Record<string, string> {
    const cookie = [...this.cookies].map(([k, v]) => `${k}=${encodeURIComponent(v)}`).join('; ')
    return { ...(cookie ? { cookie } : {}), ...extra }
  }

  async get(url: string): Promise<LightMyRequestResponse> {
    return this.keep(await this.h.http().inject({ method: 'GET', url, headers: this.headers(), remoteAddress: this.ip }))
  }

  async post(url: string, form: Record<string, string>): Promise<LightMyRequestResponse> {
    return this.keep(
      await this.h.http().inject({
        method: 'POST',
        url,
        headers: this.headers({ 'content-type': 'application/x-www-form-urlencoded' }),
        payload: new URLSearchParams(form).toString(),
        remoteAddress: this.ip,
      }),
    )
  }

  /** GETs a page and POSTs its form with `fields` and the page's CSRF token. */
  async submit(pageUrl: string, action: string, fields: Record<string, string>): Promise<LightMyRequestResponse> {
    const page = await this.get(pageUrl)
    return this.post(action, { ...fields, csrf_token: csrfOf(page.body) })
  }

  async signIn(email: string, password: string, next?: string): Promise<LightMyRequestResponse> {
    return this.submit('/login', '/login', { email, password, ...(next ? { next } : {}) })
  }
}

export function csrfOf(body: string): string {
  const m = /name="csrf_token" value="([^"]+)"/.exec(body)
  if (!m) throw new Error(`no CSRF token in the page: ${body.slice(0, 300)}`)
  return m[1]
}

/** An active member (of workspace A, live, unless told) with a password, ready to sign in. */
export async function memberWithPassword(h: TestApp, email: string, password: string, opts: { workspaceId?: string; key?: string; role?: string } = {}): Promise<void> {
  const ws = opts.workspaceId ?? h.a.workspaceId
  const base = opts.key?.startsWith('svc_test_') ? '/sandbox/v2' : '/v2'
  const res = await h.request({ method: 'POST', url: `${base}/workspaces/${ws}/members`, payload: { email, role: opts.role ?? 'member' }, ...(opts.key ? { key: opts.key } : {}) })
  if (res.statusCode !== 201) throw new Error(res.body)
  const id = JSON.parse(res.body).id
  await h.request({ method: 'PATCH', url: `${base}/workspaces/${ws}/members/${id}`, payload: { status: 'active' }, ...(opts.key ? { key: opts.key } : {}) })
  await h.app.services.signIn.setPassword(email, password)
}
