import assert from 'node:assert/strict'
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs'
import { createServer } from 'node:net'
import { join } from 'node:path'
import { after, before, describe, it } from 'node:test'
import { sql } from 'kysely'
import JSZip from 'jszip'
import { ENGINE } from '../../../test/helpers.js'
import { assertProblem, complianceApp, get, ok, post, type ComplianceApp } from './compliance.testkit.js'

// Issue 30, finding 2: an erasure reaches everything the person left — earlier export archives, outbox events
// and deliveries, Playground captures, mentions by name in other conversations, knowledge documents — and on
// SQLite the bytes are gone from the database file, its WAL and the blob directory.

const ADA = { email: 'ada.erased@example.com', phone: '+14155550177', name: 'Augusta Lovelace' }
// Her own words, which name nothing of her: found through her conversation, not by an identifier.
const HER_WORDS = 'plum-velvet-harbour'
const NEEDLES = [ADA.email, ADA.phone, ADA.name, HER_WORDS]

async function freePort(): Promise<number> {
  const s = createServer()
  await new Promise<void>((resolve) => s.listen(0, '127.0.0.1', resolve))
  const port = (s.address() as { port: number }).port
  await new Promise<void>((resolve) => s.close(() => resolve()))
  return port
}

function filesUnder(dir: string, out: string[] = []): string[] {
  if (!existsSync(dir)) return out
  for (const name of readdirSync(dir)) {
    const p = join(dir, name)
    if (statSync(p).isDirectory()) filesUnder(p, out)
    else out.push(p)
  }
  return out
}

/** Occurrences of each needle in the raw bytes (UTF-8, any case for the email and name). */
function occurrences(bytes: Buffer): Record<string, number> {
  const text = bytes.toString('latin1').toLowerCase()
  return Object.fromEntries(NEEDLES.map((n) => [n, text.split(n.toLowerCase()).length - 1]))
}

describe('erasure leaves nothing of the person behind (issue 30, finding 2)', () => {
  let h: ComplianceApp
  let port: number
  const token = 'erasureResiduePlaygroundToken01'
  const ids: Record<string, string> = {}
  let exportUrl = ''

  before(async () => {
    port = await freePort()
    h = await complianceApp({ PUBLIC_URL: `http://127.0.0.1:${port}` })
    // Listening: deliveries to the workspace's own Playground inbox really arrive there.
    await h.app.http.listen({ port, host: '127.0.0.1' })
  })
  after(() => h.close())

  /** The SQLite database file, its WAL and every blob. */
  function rawFiles(): string[] {
    const file = h.config.databaseUrl.slice('sqlite:'.length)
    return [file, `${file}-wal`, ...filesUnder(h.config.blobs.dir)].filter((f) => existsSync(f))
  }

  /**
   * Where a needle is still stored, as `place: needle`. SQLite: the raw bytes of the database file, its WAL
   * and every blob. PostgreSQL: every text-like column of every table of the schema, through SQL, and the blobs.
   */
  async function leftovers(): Promise<string[]> {
    const found: string[] = []
    const scan = (f: string) => {
      for (const [n, count] of Object.entries(occurrences(readFileSync(f)))) if (count > 0) found.push(`${f}: ${n}`)
    }
    if (ENGINE === 'sqlite') {
      rawFiles().forEach(scan)
      return found
    }
    filesUnder(h.config.blobs.dir).forEach(scan)
    const columns = await sql<{ table_name: string; column_name: string }>`
      select table_name, column_name from information_schema.columns
      where table_schema = current_schema() and data_type in ('text', 'character varying', 'jsonb', 'json', 'tsvector')`.execute(h.app.kernel.db)
    // One scan per table: its text-like columns joined, each needle counted.
    const byTable = new Map<string, string[]>()
    for (const c of columns.rows) byTable.set(c.table_name, [...(byTable.get(c.table_name) ?? []), c.column_name])
    for (const [table, cols] of byTable) {
      const all = sql`lower(concat_ws(' ', ${sql.join(cols.map((c) => sql`${sql.id(c)}::text`))}))`
      const counts = sql.join(NEEDLES.map((n, i) => sql`count(*) filter (where position(${n.toLowerCase()} in ${all}) > 0) as ${sql.id(`n${i}`)}`))
      const row = (await sql<Record<string, number>>`select ${counts} from ${sql.id(table)}`.execute(h.app.kernel.db)).rows[0]
      NEEDLES.forEach((n, i) => Number(row[`n${i}`]) > 0 && found.push(`${table}: ${n}`))
    }
    return found
  }

  async function settle() {
    for (let s = 0; s < 60; s++) {
      await h.drainJobs()
      h.clock.advance(1000)
      await new Promise((resolve) => setTimeout(resolve, 5))
    }
    await h.drainJobs()
  }

  it('seeds the person in every module, erases them, and no byte of their email, phone, name or words is left', async () => {
    await ok(post(h, '/webhooks/endpoints', { url: `http://127.0.0.1:${port}/v2/webhooks/playground/${token}` }), 201)
    const num = await ok(post(h, '/voice/numbers', { country: 'US', greeting: 'Hello from Acme.' }), 201)
    const conversation = await ok(
      post(h, '/inbox/conversations', { contact: { name: ADA.name, email: ADA.email, phone: ADA.phone }, message: { content: `Hello, this is ${ADA.name}. Call me on ${ADA.phone}.` } }),
      201,
    )
    await ok(post(h, `/inbox/conversations/${conversation.id}/messages`, { content: `The password hint is ${HER_WORDS}.`, direction: 'inbound' }), 201)
    const bob = await ok(post(h, '/inbox/conversations', { contact: { name: 'Bob Babbage', email: 'bob@example.com' }, message: { content: 'Hi' } }), 201)
    await ok(post(h, `/inbox/conversations/${bob.id}/messages`, { content: `${ADA.name} asked me to forward this.` }), 201)
    // With an Idempotency-Key: the response kept for replay is sealed at rest, so it holds no plaintext either.
    const lead = await ok(post(h, '/leads', { name: ADA.name, email: ADA.email, phone: ADA.phone }, { headers: { 'idempotency-key': 'lead-of-augusta' } }), 201)
    const call = await ok(post(h, '/voice/calls', { from_number_id: num.id, to: ADA.phone, record: true, script: [`This is ${ADA.name} speaking.`] }), 201)
    const kb = await ok(post(h, '/knowledge/bases', { name: 'Team' }), 201)
    const doc = await ok(post(h, `/knowledge/bases/${kb.id}/documents`, { title: 'Escalations', text: `Escalations go to ${ADA.name} (${ADA.email}). Deliveries take two days.` }), 202)
    const other = await ok(post(h, `/knowledge/bases/${kb.id}/documents`, { title: 'Hours', text: 'We are open from nine to five.' }), 202)
    Object.assign(ids, { conversation: conversation.id, bob: bob.id, lead: lead.id, call: call.id, doc: doc.id, other: other.id })
    await settle()
    assert.ok((await h.app.kernel.db.selectFrom('webhook_playground_captures').select('id').execute()).length > 0, 'the Playground got deliveries')

    // An earlier access request with its export: it finds the mention, the document and the capture.
    const access = await ok(post(h, '/compliance/dsar', { type: 'access', subject: { email: ADA.email } }), 201)
    await h.drainJobs()
    await ok(post(h, `/compliance/dsar/${access.id}/export`), 202)
    await h.drainJobs()
    const ready = await ok(get(h, `/compliance/dsar/${access.id}`))
    assert.equal(ready.export.status, 'ready')
    exportUrl = ready.export.url
    const res = await h.http().inject({ method: 'GET', url: new URL(exportUrl).pathname })
    assert.equal(res.statusCode, 200)
    const zip = await JSZip.loadAsync(res.rawPayload)
    const inbox = JSON.parse(await zip.file('inbox.json')!.async('string'))
    assert.ok(
      inbox.mentions.some((m: any) => m.content.includes(ADA.name)),
      'the mention by name is exported',
    )
    const knowledge = JSON.parse(await zip.file('knowledge.json')!.async('string'))
    assert.deepEqual(
      knowledge.knowledge_documents.map((d: any) => d.id),
      [doc.id],
    )
    const webhooks = JSON.parse(await zip.file('webhooks.json')!.async('string'))
    assert.ok(webhooks.playground_captures.length > 0, 'Playground captures are exported')
    assert.ok(
      webhooks.events.some((e: any) => JSON.stringify(e).includes(HER_WORDS)),
      'her message event, found by her conversation',
    )

    // Before: every needle is somewhere (so the check after the erasure can fail).
    const seeded = await leftovers()
    for (const n of NEEDLES)
      assert.ok(
        seeded.some((l) => l.endsWith(`: ${n}`)),
        `${n} is stored before the erasure: ${JSON.stringify(seeded)}`,
      )

    // Erasure.
    const erasure = await ok(post(h, '/compliance/dsar', { type: 'erasure', subject: { email: ADA.email, phone: ADA.phone } }), 201)
    await h.drainJobs()
    assert.equal((await ok(get(h, `/compliance/dsar/${erasure.id}`))).status, 'completed')

    // The earlier export's link: 410 Gone, the archive deleted.
    assertProblem(await h.http().inject({ method: 'GET', url: new URL(exportUrl).pathname }), 410, 'export_deleted')
    const earlier = await ok(get(h, `/compliance/dsar/${access.id}`))
    assert.equal(earlier.export.status, 'none')
    assert.notEqual(earlier.subject.email, ADA.email)
    // The mention in Bob's conversation is redacted, the other document and Bob's conversation stay.
    const bobMessages = (await ok(get(h, `/inbox/conversations/${bob.id}/messages?order=asc`))).data
    assert.ok(
      bobMessages.some((m: any) => m.content === '[erased] asked me to forward this.'),
      JSON.stringify(bobMessages),
    )
    assertProblem(await get(h, `/knowledge/documents/${doc.id}`), 404)
    assert.equal((await ok(get(h, `/knowledge/documents/${other.id}`))).id, other.id)

    assert.deepEqual(await leftovers(), [], 'something still holds the person')
  })
})
