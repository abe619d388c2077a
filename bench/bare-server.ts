// The baselines: bare Fastify, same Node and machine, each its own process like the service.
//   BARE_MODE=hello   GET /hello → {"hello":"world"}
//   BARE_MODE=static  GET /static → the bytes of BARE_FILE (a captured response of ours): the floor for that response
//   BARE_MODE=sqlite  GET /conversations/:id → one row by primary key from a table shaped like
//                     inbox_conversations, through a prepared statement: the floor of the engine
import Database from 'better-sqlite3'
import Fastify from 'fastify'
import { mkdtempSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'

const app = Fastify({ logger: false })
const mode = process.env.BARE_MODE ?? 'hello'
let cleanup = () => {}

if (mode === 'hello') app.get('/hello', async () => ({ hello: 'world' }))

if (mode === 'static') {
  const body = readFileSync(process.env.BARE_FILE!)
  app.get('/static', (_req, reply) => {
    reply.header('content-type', 'application/json; charset=utf-8').send(body)
  })
}

if (mode === 'sqlite') {
  const dir = mkdtempSync(join(tmpdir(), 'bare-sqlite-'))
  cleanup = () => rmSync(dir, { recursive: true, force: true })
  const db = new Database(join(dir, 'bare.sqlite'))
  db.pragma('journal_mode = WAL')
  db.pragma('synchronous = NORMAL')
  const text = [
    'workspace_id',
    'mode',
    'status',
    'channel',
    'subject',
    'contact_name',
    'contact_email',
    'contact_phone',
    'contact_external_id',
    'assignee_id',
    'tags',
    'lead_factors',
    'lead_signals',
    'metadata',
    'last_message_at',
    'snoozed_until',
    'resolved_at',
    'created_at',
    'updated_at',
  ]
  db.exec(`create table conversations (id text primary key, ${text.map((c) => `${c} text`).join(', ')}, lead_score double precision, lead_score_manual integer, inbound_count integer)`)
  const insert = db.prepare(
    `insert into conversations values (${Array(text.length + 4)
      .fill('?')
      .join(', ')})`,
  )
  const now = new Date().toISOString()
  const JSON_ARRAYS = new Set(['tags', 'lead_factors', 'lead_signals'])
  db.transaction(() => {
    for (let i = 0; i < 5000; i++) {
      const values = text.map((c) => (c.endsWith('_at') ? now : c === 'metadata' ? '{}' : JSON_ARRAYS.has(c) ? '[]' : `${c} ${i}`))
      insert.run(`conv_${String(i).padStart(26, '0')}`, ...values, i % 100, 0, i % 7)
    }
  })()
  const byId = db.prepare('select * from conversations where id = ?')
  app.get<{ Params: { id: string } }>('/conversations/:id', async (req, reply) => byId.get(req.params.id) ?? reply.code(404).send())
}

await app.listen({ host: '127.0.0.1', port: Number(process.env.PORT) })
process.stdout.write('ready\n')
process.on('SIGTERM', () => void app.close().then(() => (cleanup(), process.exit(0))))
