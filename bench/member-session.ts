// A member's dashboard session for the bench, as the web app gets one: sign in on /login, then ask
// /dashboard/session/tokens for a short-lived svc_dash_ token (a member credential: read state, `me`).
import { spawnSync } from 'node:child_process'

const PASSWORD = 'bench member password 1'

/** Sets the member's password through the CLI (read from standard input, as an operator would). */
export function setPassword(email: string, env: Record<string, string>): void {
  const r = spawnSync(process.execPath, ['--import', 'tsx', 'src/cli.ts', 'members', 'set-password', '--email', email], {
    env: { ...process.env, LOG_LEVEL: 'silent', ...env },
    input: `${PASSWORD}\n`,
    encoding: 'utf8',
  })
  if (r.status !== 0) throw new Error(`set-password failed: ${r.stderr}`)
}

/** Signs in over HTTP and returns a function that mints a fresh token (they last 10 minutes). */
export async function memberTokens(url: string, email: string, workspaceId: string): Promise<() => Promise<string>> {
  const jar = new Map<string, string>()
  const keep = (res: Response) => {
    for (const c of res.headers.getSetCookie()) {
      const [pair] = c.split(';')
      const eq = pair.indexOf('=')
      jar.set(pair.slice(0, eq).trim(), pair.slice(eq + 1).trim())
    }
    return res
  }
  const cookie = () => [...jar].map(([k, v]) => `${k}=${v}`).join('; ')
  const page = await keep(await fetch(`${url}/login`, { headers: { cookie: cookie() } })).text()
  const csrf = /name="csrf_token" value="([^"]+)"/.exec(page)?.[1]
  if (!csrf) throw new Error('no CSRF token on /login')
  const signIn = keep(
    await fetch(`${url}/login`, {
      method: 'POST',
      redirect: 'manual',
      headers: { cookie: cookie(), 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ email, password: PASSWORD, csrf_token: csrf, next: '/dashboard' }).toString(),
    }),
  )
  if (signIn.status !== 303) throw new Error(`sign-in answered ${signIn.status}: ${await signIn.text()}`)
  const session = (await keep(await fetch(`${url}/dashboard/session`, { headers: { cookie: cookie() } })).json()) as { csrf_token: string }
  return async () => {
    const res = await fetch(`${url}/dashboard/session/tokens`, {
      method: 'POST',
      headers: { cookie: cookie(), 'x-csrf-token': session.csrf_token, 'content-type': 'application/json' },
      body: JSON.stringify({ workspace_id: workspaceId, mode: 'live' }),
    })
    if (res.status !== 201) throw new Error(`token answered ${res.status}: ${await res.text()}`)
    return ((await res.json()) as { token: string }).token
  }
}
