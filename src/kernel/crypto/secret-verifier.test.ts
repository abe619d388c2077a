import assert from 'node:assert/strict'
import { randomBytes } from 'node:crypto'
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { after, before, describe, it } from 'node:test'
import { createKernel } from '../../app.js'
import { loadConfig } from '../../config.js'
import { createTestDatabase, type TestDatabase } from '../../../test/helpers.js'
import { startServer } from '../../../test/spawn.js'

// A node that starts under another server secret than the database was first started with must refuse
// to start (naming the setting), not serve 500s later when it opens a credential or verifies a cursor.
describe('start-up checks the server secret against the database', () => {
  let db: TestDatabase
  const dirs: string[] = []
  const dataDir = () => {
    const d = mkdtempSync(join(tmpdir(), 'svc-secret-'))
    dirs.push(d)
    return d
  }
  const secretA = randomBytes(32).toString('base64url')
  const secretB = randomBytes(32).toString('base64url')
  const start = async (env: Record<string, string>) => {
    const config = loadConfig({ LOG_LEVEL: 'silent', BLOB_DIR: join(dataDir(), 'blobs'), ...db.env, ...env })
    const { kernel } = await createKernel({ config })
    await kernel.database.close()
  }
  before(async () => (db = await createTestDatabase()))
  after(async () => {
    await db.drop()
    for (const d of dirs) rmSync(d, { recursive: true, force: true })
  })

  it('the first node records its secret; a joining node with the same one starts, one with another SERVER_SECRET is refused', async () => {
    await start({ SERVER_SECRET: secretA, DATA_DIR: dataDir() })
    await start({ SERVER_SECRET: secretA, DATA_DIR: dataDir() })
    await assert.rejects(start({ SERVER_SECRET: secretB, DATA_DIR: dataDir() }), (err: Error) => {
      assert.equal(err.name, 'ServerSecretMismatch')
      assert.match(err.message, /SERVER_SECRET is set to another secret/)
      return true
    })
  })

  it('a node without SERVER_SECRET whose DATA_DIR holds another generated secret is refused, naming DATA_DIR', async () => {
    const dir = dataDir()
    await assert.rejects(start({ DATA_DIR: dir }), (err: Error) => {
      assert.equal(err.name, 'ServerSecretMismatch')
      assert.match(err.message, new RegExp(`DATA_DIR=${dir}`))
      assert.match(err.message, /SERVER_SECRET is not set/)
      return true
    })
  })

  it('a rotation (the old secret in SERVER_SECRET_PREVIOUS) is accepted and recorded; the old secret alone is then refused', async () => {
    await start({ SERVER_SECRET: secretB, SERVER_SECRET_PREVIOUS: secretA, DATA_DIR: dataDir() })
    await start({ SERVER_SECRET: secretB, DATA_DIR: dataDir() })
    await assert.rejects(start({ SERVER_SECRET: secretA, DATA_DIR: dataDir() }), /another server secret/)
  })

  it('the real process exits with the message instead of listening', async () => {
    const err = await startServer({ ...db.env, SERVER_SECRET: secretA, DATA_DIR: dataDir() }).then(
      async (s) => {
        await s.stop()
        return null
      },
      (e: Error) => e,
    )
    assert.ok(err, 'the server must not start')
    assert.match(err.message, /refusing to start: This database was first started under another server secret: SERVER_SECRET is set to another secret/)
    assert.doesNotMatch(err.message, /at checkServerSecret/, 'a message, not a stack')
  })
})
