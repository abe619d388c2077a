import assert from 'node:assert/strict'
import { existsSync, mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { after, before, describe, it } from 'node:test'
import { createDatabase } from '../src/kernel/db/database.js'
import { createTestDatabase, type TestDatabase } from './helpers.js'
import { startServer, svc } from './spawn.js'

describe('CLI and first start', () => {
  let db: TestDatabase
  before(async () => (db = await createTestDatabase()))
  after(() => db.drop())

  it('first start on an empty database creates a workspace and prints one live and one test key, once', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'svc-data-'))
    // A database of its own: the secret generated in this DATA_DIR seals it, and the CLI tests below use another.
    const own = await createTestDatabase()
    after(() => own.drop())
    const s = await startServer({ ...own.env, DATA_DIR: dataDir })
    // Not in the log stream (stdout, JSON lines): the log says where the keys are.
    assert.doesNotMatch(s.output(), /svc_(live|test)_/)
    const path = join(dataDir, 'first-start-keys.txt')
    assert.match(s.output(), /first-start-keys\.txt/)
    assert.equal(statSync(path).mode & 0o777, 0o600, 'only the owner may read the keys')
    const out = readFileSync(path, 'utf8')
    const live = /svc_live_[A-Za-z0-9_-]+/.exec(out)?.[0]
    const test = /svc_test_[A-Za-z0-9_-]+/.exec(out)?.[0]
    assert.ok(live && test, out)
    assert.match(out, /keys create/, 'says how to make new keys')
    const ws = await fetch(`${s.url}/v2/workspaces/current`, { headers: { authorization: `Bearer ${live}` } })
    assert.equal(ws.status, 200)
    const sb = await fetch(`${s.url}/sandbox/v2/health`, { headers: { authorization: `Bearer ${test}` } })
    assert.equal(sb.status, 200)
    assert.equal(await s.stop(), 0, 'SIGTERM exits 0')
    rmSync(path)
    const again = await startServer({ ...own.env, DATA_DIR: dataDir })
    assert.ok(!existsSync(path), 'keys are written only on the first start')
    assert.doesNotMatch(again.output(), /svc_live_/)
    await again.stop()
  })

  it('members add makes an active owner of the workspace in both modes, once however often it runs', async () => {
    const ws = JSON.parse(await svc(['workspaces', 'create', '--name', 'Team', '--json'], db.env))
    const first = JSON.parse(await svc(['members', 'add', '--email', 'Lead@Example.com', '--workspace', ws.id, '--json'], db.env))
    assert.deepEqual(
      first.map((m: any) => [m.mode, m.email, m.role, m.status]),
      [
        ['live', 'lead@example.com', 'owner', 'active'],
        ['test', 'lead@example.com', 'owner', 'active'],
      ],
    )
    const again = JSON.parse(await svc(['members', 'add', '--email', 'lead@example.com', '--workspace', ws.id, '--json'], db.env))
    assert.deepEqual(
      again.map((m: any) => m.id),
      first.map((m: any) => m.id),
    )
  })

  it('creates workspaces and keys, lists and revokes them', async () => {
    const ws = JSON.parse(await svc(['workspaces', 'create', '--name', 'CLI Co', '--json'], db.env))
    assert.match(ws.id, /^ws_/)
    assert.equal(ws.name, 'CLI Co')
    const key = JSON.parse(await svc(['keys', 'create', '--scopes', 'read webhooks:write', '--workspace', ws.id, '--json'], db.env))
    assert.deepEqual(Object.keys(key).sort(), ['id', 'key', 'mode', 'scopes', 'workspace_id'])
    assert.equal(key.mode, 'live')
    assert.match(key.key, /^svc_live_/)
    assert.deepEqual(key.scopes, ['read', 'webhooks:write'])
    const sandbox = JSON.parse(await svc(['keys', 'create', '--scopes', 'admin', '--sandbox', '--json'], db.env))
    assert.equal(sandbox.mode, 'test')
    assert.match(sandbox.key, /^svc_test_/)
    const list = JSON.parse(await svc(['keys', 'list', '--json'], db.env))
    assert.ok(list.some((k: { id: string }) => k.id === key.id))
    assert.ok(!JSON.stringify(list).includes(key.key), 'keys list never shows a key')
    await svc(['keys', 'revoke', key.id], db.env)
    const after = JSON.parse(await svc(['keys', 'list', '--json'], db.env))
    assert.ok(after.find((k: { id: string }) => k.id === key.id).revoked_at)
    assert.match(await svc(['migrate'], db.env), /up to date/)
    await assert.rejects(svc(['keys', 'create', '--scopes', 'root'], db.env), /unknown scope/)
    // Key changes are audited as the CLI's (the operator's login, the command), and evidence is made on demand.
    const made = JSON.parse(await svc(['compliance', 'evidence', '--workspace', ws.id, '--kind', 'access_review', '--json'], db.env))
    assert.equal(made.length, 1)
    assert.match(made[0].id, /^evd_/)
    const d = createDatabase(db.env.DATABASE_URL, { schema: db.env.DATABASE_SCHEMA })
    try {
      const audit = await d.db.selectFrom('audit_log').select(['actor_type', 'action', 'target_id']).where('workspace_id', '=', ws.id).orderBy('id').execute()
      assert.deepEqual(
        audit.map((e) => [e.actor_type, e.action, e.target_id]),
        [
          ['cli', 'cli keys create', key.id],
          ['cli', 'cli keys revoke', key.id],
        ],
      )
    } finally {
      await d.close()
    }
    await assert.rejects(svc(['compliance', 'evidence', '--workspace', ws.id, '--kind', 'everything'], db.env), /unknown kind/)
  })
})
