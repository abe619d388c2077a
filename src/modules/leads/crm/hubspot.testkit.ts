// Test support (not a test file itself): a small HubSpot-compatible server on 127.0.0.1 speaking the CRM v3
// contacts API as the adapter uses it, for the adapter tests and the leads sync job tests.
//
//   const hs = await startHubSpotServer()               // token 'hs-test-token'
//   const conn = { provider: 'hubspot', base_url: hs.url, access_token: hs.token, url: null, signing_secret: null }
//   hs.seed({ email: 'ada@example.com' })                // → '1001': a contact that exists before the sync
//   hs.failNext(2, { status: 429, retryAfter: '1' })     // the next 2 requests: 429 with Retry-After: 1
//   hs.failNext(1, { status: 503, method: 'POST', path: '/crm/v3/objects/contacts' })  // only the next create
//   hs.contacts                                          // Map id → contact; hs.findByEmail('ada@example.com')
//   hs.requests                                          // every request: method, path, headers, body, json
//   await hs.close()
//
// What it implements, as HubSpot does:
//   POST  /crm/v3/objects/contacts/search  filterGroups (OR) of filters (AND), operators EQ / NEQ /
//         HAS_PROPERTY / NOT_HAS_PROPERTY; email compared case-insensitively; sorts by one property;
//         limit; `{ total, results }`. A contact becomes searchable `searchDelayMs` after its creation
//         (HubSpot's index lags writes by seconds), so a retry's search can miss a contact just created.
//   POST  /crm/v3/objects/contacts         201; email unique → 409 "Contact already exists. Existing ID: n"
//   GET   /crm/v3/objects/contacts/{id}    200 or 404
//   PATCH /crm/v3/objects/contacts/{id}    200 (properties merged), 404, 409 when the new email is taken
//   Authorization: Bearer <token>, else 401. Unknown properties and invalid `hs_lead_status` or email
//   values → 400 VALIDATION_ERROR with HubSpot's message shape. Ids are numeric strings from 1001.
import { randomUUID } from 'node:crypto'
import { createServer, type IncomingHttpHeaders, type ServerResponse } from 'node:http'
import type { AddressInfo } from 'node:net'

export interface HubSpotContact {
  id: string
  properties: Record<string, string>
  createdAt: string
  updatedAt: string
  archived: boolean
}

export interface HubSpotRequestSeen {
  method: string
  /** Path and query string as received. */
  path: string
  headers: IncomingHttpHeaders
  body: string
  /** The body parsed, or null. */
  json: unknown
}

/** A scripted answer for the next N requests (those matching `method`/`path` when given). */
export interface HubSpotFailure {
  status: number
  /** Sent as `Retry-After` (seconds or an HTTP-date). */
  retryAfter?: string
  /** The JSON body; by default HubSpot's error shape for the status. */
  body?: unknown
  headers?: Record<string, string>
  /** Never answer (timeouts); the connection is dropped at close(). */
  hang?: boolean
  method?: string
  path?: string | RegExp
}

export interface HubSpotServerOptions {
  /** The private-app token the server accepts; default 'hs-test-token'. */
  token?: string
  /** How long a new contact stays invisible to search; default 0. */
  searchDelayMs?: number
  /** Custom contact properties that exist in this portal (besides the standard ones). */
  customProperties?: string[]
}

export const HS_LEAD_STATUS_OPTIONS = ['NEW', 'OPEN', 'IN_PROGRESS', 'OPEN_DEAL', 'UNQUALIFIED', 'ATTEMPTED_TO_CONTACT', 'CONNECTED', 'BAD_TIMING']
const STANDARD_PROPERTIES = ['email', 'firstname', 'lastname', 'phone', 'mobilephone', 'company', 'jobtitle', 'website', 'city', 'country', 'hs_lead_status', 'lifecyclestage', 'hubspot_owner_id']
const CONTACTS = '/crm/v3/objects/contacts'

const errorBody = (status: number, message: string, category: string, extra: Record<string, unknown> = {}) => ({ status: 'error', message, correlationId: randomUUID(), category, ...extra })

function defaultFailureBody(status: number): unknown {
  if (status === 429) return { status: 'error', message: 'You have reached your ten_secondly_rolling limit.', errorType: 'RATE_LIMIT', correlationId: randomUUID(), policyName: 'TEN_SECONDLY_ROLLING' }
  if (status === 401) return errorBody(401, 'Authentication credentials not found.', 'INVALID_AUTHENTICATION')
  if (status === 403) return errorBody(403, "This app hasn't been granted all required scopes to make this call.", 'MISSING_SCOPES')
  if (status === 404) return errorBody(404, 'resource not found', 'OBJECT_NOT_FOUND')
  if (status >= 500) return errorBody(status, 'internal error', 'INTERNAL_ERROR')
  return errorBody(status, 'Invalid input JSON on line 1', 'VALIDATION_ERROR')
}

export async function startHubSpotServer(opts: HubSpotServerOptions = {}) {
  const token = opts.token ?? 'hs-test-token'
  const known = new Set([...STANDARD_PROPERTIES, ...(opts.customProperties ?? [])])
  const contacts = new Map<string, HubSpotContact>()
  const requests: HubSpotRequestSeen[] = []
  const scripted: Array<HubSpotFailure & { left: number }> = []
  let nextId = 1001

  const findByEmail = (email: string, now = Number.POSITIVE_INFINITY) =>
    [...contacts.values()].find((c) => !c.archived && c.properties.email?.toLowerCase() === email.trim().toLowerCase() && Date.parse(c.createdAt) <= now) ?? null

  function invalidProperties(props: Record<string, unknown>): string | null {
    const problems: string[] = []
    for (const [name, value] of Object.entries(props)) {
      if (!known.has(name)) problems.push(`Property "${name}" does not exist`)
      else if (name === 'hs_lead_status' && value !== '' && !HS_LEAD_STATUS_OPTIONS.includes(String(value)))
        problems.push(`${String(value)} was not one of the allowed options: [${HS_LEAD_STATUS_OPTIONS.join(', ')}]`)
      else if (name === 'email' && value !== '' && !/^[^@\s]+@[^@\s]+\.[^@\s]+$/.test(String(value))) problems.push(`Email address ${String(value)} is invalid`)
    }
    if (problems.length === 0) return null
    return `Property values were not valid: ${JSON.stringify(problems.map((message) => ({ isValid: false, message, error: 'INVALID_PROPERTY' })))}`
  }

  function put(props: Record<string, unknown>, createdAt = new Date()): HubSpotContact {
    const id = String(nextId++)
    const at = createdAt.toISOString()
    const properties: Record<string, string> = {}
    for (const [k, v] of Object.entries(props)) properties[k] = String(v)
    if (properties.email) properties.email = properties.email.toLowerCase()
    Object.assign(properties, { hs_object_id: id, createdate: at, lastmodifieddate: at })
    const c = { id, properties, createdAt: at, updatedAt: at, archived: false }
    contacts.set(id, c)
    return c
  }

  function matches(c: HubSpotContact, f: { propertyName?: string; operator?: string; value?: unknown }): boolean {
    const v = c.properties[f.propertyName ?? '']
    const want = String(f.value ?? '')
    const eq = f.propertyName === 'email' ? v?.toLowerCase() === want.toLowerCase() : v === want
    switch (f.operator) {
      case 'EQ':
        return eq
      case 'NEQ':
        return !eq
      case 'HAS_PROPERTY':
        return v !== undefined && v !== ''
      case 'NOT_HAS_PROPERTY':
        return v === undefined || v === ''
      default:
        return false
    }
  }

  function search(body: Record<string, unknown>): { status: number; body: unknown } {
    const groups = (body.filterGroups ?? []) as Array<{ filters?: Array<{ propertyName?: string; operator?: string; value?: unknown }> }>
    const now = Date.now() - (opts.searchDelayMs ?? 0)
    let found = [...contacts.values()].filter((c) => !c.archived && Date.parse(c.createdAt) <= now)
    if (groups.length > 0) found = found.filter((c) => groups.some((g) => (g.filters ?? []).every((f) => matches(c, f))))
    const sort = (body.sorts as Array<{ propertyName?: string; direction?: string }> | undefined)?.[0]
    if (sort?.propertyName) {
      const key = sort.propertyName
      const dir = sort.direction === 'DESCENDING' ? -1 : 1
      found.sort((a, b) => dir * ((a.properties[key] ?? '').localeCompare(b.properties[key] ?? '') || Number(a.id) - Number(b.id)))
    } else {
      found.sort((a, b) => Number(a.id) - Number(b.id))
    }
    // HubSpot's default page is 10, its largest 200.
    const limit = typeof body.limit === 'number' ? Math.min(Math.max(body.limit, 1), 200) : 10
    const wanted = new Set(['createdate', 'email', 'firstname', 'hs_object_id', 'lastmodifieddate', 'lastname', ...((body.properties as string[] | undefined) ?? [])])
    const results = found.slice(0, limit).map((c) => ({ ...c, properties: Object.fromEntries(Object.entries(c.properties).filter(([k]) => wanted.has(k))) }))
    return { status: 200, body: { total: found.length, results } }
  }

  function route(method: string, path: string, json: Record<string, unknown> | null): { status: number; body: unknown } {
    const props = (json?.properties ?? {}) as Record<string, unknown>
    if (method === 'POST' && path === `${CONTACTS}/search`) return search(json ?? {})
    if (method === 'POST' && path === CONTACTS) {
      const bad = invalidProperties(props)
      if (bad) return { status: 400, body: errorBody(400, bad, 'VALIDATION_ERROR') }
      const email = typeof props.email === 'string' ? props.email : null
      const existing = email ? findByEmail(email) : null
      if (existing) {
        return { status: 409, body: errorBody(409, `Contact already exists. Existing ID: ${existing.id}`, 'CONFLICT', { error: 'CONTACT_EXISTS' }) }
      }
      return { status: 201, body: put(props) }
    }
    const m = new RegExp(`^${CONTACTS}/([^/?]+)$`).exec(path)
    const contact = m ? contacts.get(decodeURIComponent(m[1])) : undefined
    if (m && (method === 'GET' || method === 'PATCH') && (!contact || contact.archived)) return { status: 404, body: defaultFailureBody(404) }
    if (contact && method === 'GET') return { status: 200, body: contact }
    if (contact && method === 'PATCH') {
      const bad = invalidProperties(props)
      if (bad) return { status: 400, body: errorBody(400, bad, 'VALIDATION_ERROR') }
      const email = typeof props.email === 'string' ? props.email : null
      const other = email ? findByEmail(email) : null
      if (other && other.id !== contact.id) {
        return { status: 409, body: errorBody(409, `Contact already exists. Existing ID: ${other.id}`, 'CONFLICT', { error: 'CONTACT_EXISTS' }) }
      }
      for (const [k, v] of Object.entries(props)) contact.properties[k] = k === 'email' ? String(v).toLowerCase() : String(v)
      contact.updatedAt = new Date().toISOString()
      contact.properties.lastmodifieddate = contact.updatedAt
      return { status: 200, body: contact }
    }
    return { status: 404, body: errorBody(404, `Unable to route ${method} ${path}`, 'OBJECT_NOT_FOUND') }
  }

  function send(res: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}) {
    res.writeHead(status, { 'content-type': 'application/json;charset=utf-8', ...headers })
    res.end(JSON.stringify(body))
  }

  const server = createServer((req, res) => {
    const chunks: Buffer[] = []
    req.on('data', (c: Buffer) => chunks.push(c))
    req.on('end', () => {
      const body = Buffer.concat(chunks).toString('utf8')
      let json: Record<string, unknown> | null = null
      try {
        json = body ? JSON.parse(body) : null
      } catch {
        json = null
      }
      const method = req.method ?? ''
      const path = req.url ?? ''
      requests.push({ method, path, headers: req.headers, body, json })
      const i = scripted.findIndex((s) => (!s.method || s.method === method) && (!s.path || (typeof s.path === 'string' ? s.path === path.split('?')[0] : s.path.test(path))))
      if (i >= 0) {
        const s = scripted[i]
        if (--s.left <= 0) scripted.splice(i, 1)
        if (s.hang) return
        return send(res, s.status, s.body ?? defaultFailureBody(s.status), { ...(s.retryAfter !== undefined ? { 'retry-after': s.retryAfter } : {}), ...s.headers })
      }
      if (req.headers.authorization !== `Bearer ${token}`) return send(res, 401, defaultFailureBody(401))
      if (body !== '' && json === null) return send(res, 400, defaultFailureBody(400))
      const out = route(method, path.split('?')[0], json)
      send(res, out.status, out.body)
    })
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const port = (server.address() as AddressInfo).port

  return {
    url: `http://127.0.0.1:${port}`,
    port,
    token,
    /** Every contact, by id (archived ones included). Mutate freely in tests. */
    contacts,
    requests,
    /** The live contact with this email (case-insensitive), searchable or not. */
    findByEmail: (email: string) => findByEmail(email),
    /** A contact that already exists (created a day ago, so searchable, unless `createdAt` says otherwise); returns its id. */
    seed: (properties: Record<string, string>, createdAt = new Date(Date.now() - 86_400_000)) => put(properties, createdAt).id,
    /** The next `times` matching requests get `answer` instead of being served (auth is not checked). */
    failNext: (times: number, answer: HubSpotFailure) => {
      scripted.push({ ...answer, left: times })
    },
    /** Forget contacts, requests and scripted failures; ids start again at 1001. */
    reset: () => {
      nextId = 1001
      contacts.clear()
      requests.length = 0
      scripted.length = 0
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections()
        server.close(() => resolve())
      }),
  }
}

export type HubSpotServer = Awaited<ReturnType<typeof startHubSpotServer>>
