// The service the browser tests drive, as a process of its own (scripts/e2e-server.ts), reached over HTTP only:
// dashboard/ never imports the service or its test helpers (docs/architecture.md, "Layering"). `Server` has the
// shape the tests were written against (request, a, b, get/post/ok), its answers read like the app's injected
// ones (statusCode, headers, body), and the few steps the public API has no operation for go to the process's
// control listener.
import { fileURLToPath } from 'node:url'
import { startAnnounced } from '../../lib/testing/announced-process.js'

export interface Keyring {
  workspaceId: string
  live: string
  test: string
}

export interface Answer {
  statusCode: number
  headers: Record<string, string>
  body: string
}

export interface RequestOptions {
  method: 'GET' | 'POST' | 'PATCH' | 'PUT' | 'DELETE'
  /** A path from the origin: /v2/… */
  url: string
  payload?: unknown
  /** The bearer key: workspace A's live key unless given; null sends none. */
  key?: string | null
  headers?: Record<string, string>
}

export interface Server {
  /** http://127.0.0.1:<port> */
  url: string
  /** Workspace A: full-scope live and test keys. */
  a: Keyring
  /** Workspace B: for cross-tenant checks. */
  b: Keyring
  request(opts: RequestOptions): Promise<Answer>
  /** A test step on the server's control listener (scripts/e2e-server.ts lists them). */
  step<T = unknown>(name: string, body?: unknown): Promise<T>
  /** Runs every due job now. */
  drainJobs(): Promise<void>
  close(): Promise<void>
}

const ROOT = fileURLToPath(new URL('../..', import.meta.url))
const READY = 'SVC_E2E_SERVER '

export async function startServer(opts: { env?: Record<string, string>; password?: string; chat?: { text: string; chunkDelayMs?: number } } = {}): Promise<Server> {
  const server = await startAnnounced<{ url: string; control: string; a: Keyring; b: Keyring }>({
    root: ROOT,
    script: 'scripts/e2e-server.ts',
    args: [JSON.stringify(opts)],
    prefix: READY,
    label: 'e2e server',
  })
  const ready = server.announced

  async function step<T>(name: string, body: unknown = {}): Promise<T> {
    const res = await fetch(`${ready.control}/${name}`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) })
    const out = await res.json()
    if (!res.ok) throw new Error(`e2e server step ${name}: ${out.error}`)
    return out as T
  }
  return {
    url: ready.url,
    a: ready.a,
    b: ready.b,
    async request({ method, url, payload, key, headers }) {
      const k = key === undefined ? ready.a.live : key
      const sent: Record<string, string> = { ...headers, ...(k ? { authorization: `Bearer ${k}` } : {}) }
      let body: string | undefined
      if (payload !== undefined) {
        body = typeof payload === 'string' ? payload : JSON.stringify(payload)
        if (typeof payload !== 'string' && !Object.keys(sent).some((h) => h.toLowerCase() === 'content-type')) sent['content-type'] = 'application/json'
      }
      const res = await fetch(`${ready.url}${url}`, { method, headers: sent, body, redirect: 'manual' })
      return { statusCode: res.status, headers: Object.fromEntries(res.headers), body: await res.text() }
    },
    step,
    drainJobs: () => step('drain-jobs'),
    close: () => server.close(),
  }
}

// ---- the request steps the tests share (as test/helpers.ts has them for the service's own tests) ----

export const json = <T = any>(res: Answer): T => JSON.parse(res.body) as T

/** The JSON body of an answer that must have `status`. */
export async function ok(r: Answer | Promise<Answer>, status = 200): Promise<any> {
  const res = await r
  if (res.statusCode !== status) throw new Error(`expected ${status}, got ${res.statusCode}: ${res.body}`)
  return res.body ? JSON.parse(res.body) : null
}

export const post = (s: Server, url: string, payload: unknown = {}, opts: { key?: string; headers?: Record<string, string> } = {}) => s.request({ method: 'POST', url: `/v2${url}`, payload, ...opts })
export const patch = (s: Server, url: string, payload: unknown, key?: string) => s.request({ method: 'PATCH', url: `/v2${url}`, payload, ...(key ? { key } : {}) })
export const get = (s: Server, url: string, key?: string) => s.request({ method: 'GET', url: `/v2${url}`, ...(key ? { key } : {}) })

/** A member of workspace A (unless `workspace_id`) who signs in with `password`. */
export const memberWithPassword = (s: Server, email: string, password: string, opts: { role?: string; workspaceId?: string; key?: string } = {}) =>
  s.step('member', { email, password, role: opts.role, workspace_id: opts.workspaceId, key: opts.key })
