import assert from 'node:assert/strict'
import { randomBytes } from 'node:crypto'
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { Writable } from 'node:stream'
import { after, before, describe, it } from 'node:test'
import { buildApp, type App } from '../../app.js'
import { loadConfig } from '../../config.js'
import { createLogger } from '../../logger.js'
import { createApiKey } from '../auth/api-keys.js'
import { ALL_SCOPES } from '../auth/scopes.js'
import { createTestDatabase, TEST_SERVER_SECRET, type TestDatabase } from '../../../test/helpers.js'

// The log stream at its most verbose, as an operator would ship it: no capability token from a path, no
// query string (personal data, credentials) may reach it — only route templates.
describe('request logging at trace level carries route templates, not URLs', () => {
  let db: TestDatabase
  let app: App
  let blobDir: string
  let key: string
  const lines: string[] = []
  before(async () => {
    db = await createTestDatabase()
    blobDir = mkdtempSync(join(tmpdir(), 'svc-log-'))
    const config = loadConfig({ LOG_LEVEL: 'trace', BLOB_DIR: blobDir, SERVER_SECRET: TEST_SERVER_SECRET, RATE_LIMIT_PER_MINUTE: '100000', ...db.env })
    const sink = new Writable({
      write(chunk, _enc, done) {
        lines.push(...String(chunk).split('\n').filter(Boolean))
        done()
      },
    })
    app = await buildApp({ config, logger: createLogger(config, sink) })
    const ws = await app.services.workspaces.create({ name: 'Logs', ownerEmail: 'owner@logs.example' })
    key = (await createApiKey(app.kernel.db, app.kernel.clock, { workspaceId: ws.id, mode: 'live', scopes: [...ALL_SCOPES] })).key
  })
  after(async () => {
    await app.close()
    await db.drop()
    rmSync(blobDir, { recursive: true, force: true })
  })

  it('DSAR download tokens, Playground tokens, an access_token query and ?email= never reach the log', async () => {
    const dsarToken = randomBytes(32).toString('base64url')
    const playgroundToken = `pg_${randomBytes(16).toString('hex')}`
    const accessToken = `oat_${randomBytes(16).toString('hex')}`
    const email = `someone.private.${randomBytes(4).toString('hex')}@example.com`
    const auth = { authorization: `Bearer ${key}` }
    const sent = [
      await app.http.inject({ method: 'GET', url: `/downloads/dsar/${dsarToken}` }),
      await app.http.inject({ method: 'POST', url: `/v2/webhooks/playground/${playgroundToken}`, payload: { hello: 'world' } }),
      await app.http.inject({ method: 'GET', url: `/v2/leads?access_token=${accessToken}` }),
      await app.http.inject({ method: 'GET', url: `/v2/leads?email=${encodeURIComponent(email)}`, headers: auth }),
      await app.http.inject({ method: 'GET', url: `/v2/no-such-route/${dsarToken}?email=${encodeURIComponent(email)}`, headers: auth }),
    ]
    assert.equal(sent[3].statusCode, 200, sent[3].body)
    const log = lines.join('\n')
    assert.ok(
      lines.some((l) => /"msg":"request completed"/.test(l)),
      'requests are logged at this level',
    )
    assert.ok(
      lines.some((l) => l.includes('"route":"/v2/leads"')),
      'by their route template',
    )
    assert.ok(lines.some((l) => l.includes('"route":"/downloads/dsar/:token"')))
    for (const secret of [dsarToken, playgroundToken, accessToken, email, encodeURIComponent(email), key]) {
      assert.ok(!log.includes(secret), `${secret} is in the log:\n${lines.filter((l) => l.includes(secret)).join('\n')}`)
    }
  })
})
