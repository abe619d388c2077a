import assert from 'node:assert/strict'
import { createHash } from 'node:crypto'
import { after, before, describe, it } from 'node:test'
import { MODULES } from '../src/modules/index.js'
import { FIXTURES } from './fixtures.js'
import { createTestApp, ENGINE, json, type TestApp } from './helpers.js'

// Every list (any route whose query takes a cursor) refuses forged and garbage cursors with 422 — never
// a 5xx, on both engines — and accepts only the cursors it issued itself.
const lists = MODULES.flatMap((m) => m.routes).filter((r) => {
  const props = (r.schema.querystring as { properties?: Record<string, unknown> } | undefined)?.properties
  return r.method === 'GET' && !!props && 'cursor' in props
})

const b64 = (v: unknown) => Buffer.from(typeof v === 'string' ? v : JSON.stringify(v)).toString('base64url')
// The cursor the attack used: an unkeyed checksum over an id holding U+0000.
const NUL_CURSOR = 'eyJrIjoiXHUwMDAwIiwiYyI6ImhkSWhtRm40OHpjLVdReFMifQ'

function forgeries(tenant: { workspaceId: string }, list: string): string[] {
  // What a client could compute without the server secret (the old unkeyed SHA-256 binding).
  const unkeyed = (k: string) => createHash('sha256').update(`${list}\n${tenant.workspaceId}\nlive\n${k}`).digest('base64url').slice(0, 16)
  return [
    NUL_CURSOR,
    'garbage',
    '%%%',
    b64('null'),
    b64('[]'),
    b64({ k: 'x_0', c: 'AAAAAAAAAAAAAAAAAAAAAA' }),
    b64({ k: 'x\u0000y', c: unkeyed('x\u0000y') }),
    b64({ k: "conv_' or 1=1 --", c: unkeyed("conv_' or 1=1 --") }),
    b64({ k: 1, c: 2 }),
  ]
}

describe(`cursors (${ENGINE})`, () => {
  let h: TestApp
  before(async () => (h = await createTestApp()))
  after(() => h.close())

  it('covers every list', () => assert.ok(lists.length >= 9, `found ${lists.length} lists`))

  for (const r of lists) {
    it(`${r.operationId}: a forged or garbage cursor is 422 invalid_cursor`, async () => {
      let url = r.url
      if (url.includes('{')) {
        const made = await FIXTURES[r.operationId]!(h)
        const params = 'params' in made && typeof made.params === 'object' ? (made.params as Record<string, string>) : (made as Record<string, string>)
        url = url.replace(/\{([a-z_]+)\}/g, (_, p: string) => params[p])
      }
      // A list with a required parameter (searchInbox's `q`) gets its example, so only the cursor is wrong.
      const query = r.schema.querystring as { required?: string[]; properties?: Record<string, { examples?: unknown[] }> }
      const needed = (query.required ?? [])
        .filter((p) => p !== 'cursor')
        .map((p) => `&${p}=${encodeURIComponent(String(query.properties?.[p]?.examples?.[0] ?? 'plan'))}`)
        .join('')
      for (const cursor of forgeries(h.a, r.operationId)) {
        const res = await h.request({ method: 'GET', url: `/v2${url}?cursor=${encodeURIComponent(cursor)}${needed}`, key: r.public ? null : h.a.live })
        assert.equal(res.statusCode, 422, `${cursor}: ${res.body}`)
        assert.equal(json(res).code, 'invalid_cursor')
      }
    })
  }

  it('a cursor is bound to its list, its filters, the workspace and the mode', async () => {
    for (let i = 0; i < 3; i++) await h.request({ method: 'POST', url: '/v2/inbox/conversations', payload: { status: i === 0 ? 'pending' : 'open' } })
    const page = json(await h.request({ method: 'GET', url: '/v2/inbox/conversations?limit=1' }))
    assert.ok(page.next_cursor)
    assert.equal((await h.request({ method: 'GET', url: `/v2/inbox/conversations?limit=1&cursor=${page.next_cursor}` })).statusCode, 200)
    for (const [url, key] of [
      [`/v2/inbox/conversations?status=open&cursor=${page.next_cursor}`, h.a.live],
      [`/v2/inbox/tags?cursor=${page.next_cursor}`, h.a.live],
      [`/v2/inbox/conversations?cursor=${page.next_cursor}`, h.b.live],
      [`/sandbox/v2/inbox/conversations?cursor=${page.next_cursor}`, h.a.test],
    ] as const) {
      const res = await h.request({ method: 'GET', url, key })
      assert.equal(res.statusCode, 422, url)
    }
  })
})
