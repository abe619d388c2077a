// test-engines: sqlite (no database involved: one pass is enough; scripts/test.mjs leaves it out of PostgreSQL's)
import assert from 'node:assert/strict'
import { describe, it } from 'node:test'
import { MODULES } from '../src/modules/index.js'

/**
 * docs/api-conventions.md "Ids in a body": an id the body names that names nothing here is 422
 * `invalid_reference` (or a more precise 422 code) with a pointer, never a 404. Every operation with such a
 * field declares the code, so OpenAPI lists what it can answer.
 */
const routes = MODULES.flatMap((m) => m.routes)

// Body fields that end in _id but refer to nothing of ours, or name the operation's own target.
const NOT_REFERENCES: Record<string, string> = {
  external_id: "the client's own id of a contact or data subject",
  'updateOAuthApp /client_id': 'the app the operation changes (the path has no id): a 404 like a path id',
}
// Precise 422 codes some operations answer for a reference instead of invalid_reference.
const PRECISE: Record<string, string[]> = {
  assignee_id: ['assignee_not_member'],
  knowledge_base_ids: ['unknown_knowledge_base', 'invalid_reference'],
}

function idFields(schema: unknown, pointer = ''): { pointer: string; name: string }[] {
  if (!schema || typeof schema !== 'object') return []
  const s = schema as Record<string, unknown>
  const out: { pointer: string; name: string }[] = []
  for (const [name, sub] of Object.entries((s.properties ?? {}) as Record<string, unknown>)) {
    if (/_ids?$/.test(name)) out.push({ pointer: `${pointer}/${name}`, name })
    out.push(...idFields(sub, `${pointer}/${name}`))
  }
  for (const k of ['anyOf', 'oneOf', 'allOf']) for (const b of (s[k] as unknown[]) ?? []) out.push(...idFields(b, pointer))
  if (s.items) out.push(...idFields(s.items, `${pointer}/*`))
  return out
}

describe('ids in a request body (one rule)', () => {
  it('every operation whose body names another resource declares the 422 it answers when that resource is not there', () => {
    const missing: string[] = []
    for (const r of routes.filter((x) => x.schema.body && !x.aliasOf && x.module !== 'v1')) {
      for (const f of idFields(r.schema.body)) {
        if (NOT_REFERENCES[f.name] || NOT_REFERENCES[`${r.operationId} ${f.pointer}`]) continue
        const codes = PRECISE[f.name] ?? ['invalid_reference']
        if (!codes.some((c) => (r.errors ?? []).includes(c as never))) missing.push(`${r.operationId} ${f.pointer} (declares ${(r.errors ?? []).join(', ') || 'nothing'})`)
      }
    }
    assert.deepEqual(missing, [])
  })
})
