// Shared steps for the base and document route tests (not a test file itself): real requests, real app.
import assert from 'node:assert/strict'
import { randomBytes } from 'node:crypto'
import type { LightMyRequestResponse } from 'fastify'
import { createTestApp, json, type TestApp } from '../../../test/helpers.js'

/** A test app whose job runner works (documents get processed). */
export async function knowledgeApp(env: Record<string, string> = {}): Promise<TestApp> {
  const h = await createTestApp({ env })
  h.app.kernel.jobs.start()
  return h
}

export async function newBase(h: TestApp, payload: Record<string, unknown> = {}, key?: string): Promise<any> {
  const r = await h.request({ method: 'POST', url: '/v2/knowledge/bases', payload: { name: 'Help center', ...payload }, ...(key ? { key } : {}) })
  assert.equal(r.statusCode, 201, r.body)
  return json(r)
}

export const postDocument = (h: TestApp, kbId: string, payload: Record<string, unknown>, key?: string): Promise<LightMyRequestResponse> =>
  h.request({ method: 'POST', url: `/v2/knowledge/bases/${kbId}/documents`, payload, ...(key ? { key } : {}) })

/** A JSON document, waited for until processed (ready or failed). */
export async function addText(h: TestApp, kbId: string, payload: Record<string, unknown>, key?: string): Promise<any> {
  const r = await postDocument(h, kbId, payload, key)
  assert.equal(r.statusCode, 202, r.body)
  return processed(h, json(r).id, key)
}

/**
 * Polls the document until its job is done (the runner works in the background of the test app). Generous:
 * the first document of a test process waits for an ingest worker thread to start (under tsx it compiles
 * the parsers first), and the test machine is often busy.
 */
export async function processed(h: TestApp, id: string, key?: string, include = ''): Promise<any> {
  const until = Date.now() + 90_000
  for (;;) {
    const r = await h.request({ method: 'GET', url: `/v2/knowledge/documents/${id}${include ? `?include=${include}` : ''}`, ...(key ? { key } : {}) })
    assert.equal(r.statusCode, 200, r.body)
    const d = json(r)
    if (d.status === 'ready' || d.status === 'failed') return d
    if (Date.now() > until) assert.fail(`document ${id} still ${d.status}`)
    await new Promise((res) => setTimeout(res, 50))
  }
}

export type FormPart = { name: string; value: string } | { name: string; filename: string; contentType: string; data: Buffer | string }

/** A multipart/form-data body, byte for byte as a browser sends it. */
export function form(parts: FormPart[]): { payload: Buffer; headers: Record<string, string> } {
  const boundary = `----svc${randomBytes(8).toString('hex')}`
  const chunks: Buffer[] = []
  for (const p of parts) {
    const head =
      'value' in p
        ? `--${boundary}\r\nContent-Disposition: form-data; name="${p.name}"\r\n\r\n`
        : `--${boundary}\r\nContent-Disposition: form-data; name="${p.name}"; filename="${p.filename}"\r\nContent-Type: ${p.contentType}\r\n\r\n`
    chunks.push(Buffer.from(head), Buffer.from('value' in p ? p.value : p.data), Buffer.from('\r\n'))
  }
  chunks.push(Buffer.from(`--${boundary}--\r\n`))
  return { payload: Buffer.concat(chunks), headers: { 'content-type': `multipart/form-data; boundary=${boundary}` } }
}

export function uploadForm(h: TestApp, kbId: string, parts: FormPart[], opts: { key?: string; headers?: Record<string, string> } = {}): Promise<LightMyRequestResponse> {
  const f = form(parts)
  return h.request({ method: 'POST', url: `/v2/knowledge/bases/${kbId}/documents`, payload: f.payload, headers: { ...f.headers, ...opts.headers }, ...(opts.key ? { key: opts.key } : {}) })
}

export function assertProblem(r: LightMyRequestResponse, status: number, code?: string): any {
  assert.equal(r.statusCode, status, r.body)
  assert.match(String(r.headers['content-type']), /^application\/problem\+json/)
  const p = json(r)
  assert.ok(p.request_id, 'problem carries request_id')
  assert.equal(p.request_id, r.headers['x-request-id'])
  if (code) assert.equal(p.code, code, r.body)
  return p
}

/** Payloads of one event type about one resource, from the outbox table, in the order they were emitted. */
export async function events(h: TestApp, type: string, id: string): Promise<any[]> {
  const rows = await h.app.kernel.db.selectFrom('events').selectAll().where('type', '=', type).orderBy('id').execute()
  return rows.map((r) => JSON.parse(r.data).object).filter((o) => o.id === id)
}

/** `n` paragraphs of distinct, real-looking sentences (for chunking and deletion tests). */
export function paragraphs(n: number, topic = 'refund'): string {
  return Array.from({ length: n }, (_, i) => `Paragraph ${i + 1} explains how the ${topic} policy applies to order number ${1000 + i}, which customers may ask about by email or chat.`).join('\n\n')
}
