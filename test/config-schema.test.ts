import assert from 'node:assert/strict'
import { execFile } from 'node:child_process'
import { readFileSync } from 'node:fs'
import { after, describe, it } from 'node:test'
import { promisify } from 'node:util'
import { configTable, ConfigError, envWarnings, readEnv } from '../src/config-env.js'
import { ENV_SCHEMA } from '../src/config-schema.js'
import { loadConfig } from '../src/config.js'
import { withTable } from '../scripts/write-config-table.js'
import { createTestDatabase, ENGINE, TEST_SERVER_SECRET, type TestDatabase } from './helpers.js'
import { entryArgs, startServer, type ServerProcess } from './spawn.js'

const run = promisify(execFile)
const ROOT = new URL('..', import.meta.url).pathname
const NAMES = Object.keys(ENV_SCHEMA.properties)

/** The problems a ConfigError lists for this environment. */
function problems(env: Record<string, string>): string[] {
  try {
    loadConfig(env)
  } catch (err) {
    assert.ok(err instanceof ConfigError, String(err))
    return err.problems
  }
  assert.fail('expected a ConfigError')
}

describe('configuration as a schema (src/config-schema.ts)', () => {
  it("the README's configuration table is the one generated from the declaration (npm run config:table)", () => {
    const readme = readFileSync(new URL('../README.md', import.meta.url), 'utf8')
    assert.equal(readme, withTable(readme), 'README.md differs from the declaration: run `npm run config:table`')
    assert.ok(readme.includes(configTable()))
    for (const name of NAMES) assert.ok(configTable().includes(`\`${name}\``), `${name} is in the table`)
  })

  it('declares every variable src/config.ts reads, and config.ts reads every one declared', () => {
    // config-services.ts holds the outside services' settings that config.ts calls for (tracing, S3).
    const source = ['../src/config.ts', '../src/config-services.ts'].map((f) => readFileSync(new URL(f, import.meta.url), 'utf8')).join('\n')
    const read = new Set([...source.matchAll(/\bv\.([A-Z][A-Z0-9_]+)/g)].map((m) => m[1]))
    assert.deepEqual(
      [...read].filter((n) => !NAMES.includes(n)),
      [],
    )
    assert.deepEqual(
      NAMES.filter((n) => !read.has(n)),
      [],
    )
    assert.doesNotMatch(source, /env\.[A-Z]|env\[/, 'config.ts reads variables only through readEnv')
  })

  it("keeps today's names and defaults: an empty environment gives the documented defaults", () => {
    const config = loadConfig({})
    assert.equal(config.port, 8080)
    assert.equal(config.host, '0.0.0.0')
    assert.equal(config.publicUrl, 'http://localhost:8080')
    assert.equal(config.databaseUrl, 'sqlite:./data/svc.sqlite')
    assert.equal(config.dataDir, './data')
    assert.equal(config.role, 'all')
    assert.equal(config.apiLogs, true)
    assert.equal(config.metricsPublic, false)
    assert.deepEqual(config.webhooks.retryScheduleSeconds, [5, 300, 1800, 7200, 18000, 36000, 36000])
    assert.equal(config.ai.model, 'builtin-bm25')
    assert.equal(config.embeddings, null)
    assert.equal(config.email.listenPort, null)
    assert.equal(config.v1Sunset.toISOString(), '2027-06-30T00:00:00.000Z')
    // Empty counts as unset (as before the schema); values are converted from their text as before.
    const set = loadConfig({
      PORT: '9090',
      HOST: '',
      SVC_ROLE: 'worker',
      API_LOGS: 'OFF',
      METRICS_PUBLIC: 'yes',
      OUTBOUND_ALLOW_PRIVATE_NETWORKS: '1',
      EVENT_FEED_BUS: 'Redis',
      VOICE_SIM_SETUP_SCALE: '0.5',
      WEB_CONCURRENCY: 'auto',
      SMTP_LISTEN_PORT: '0',
    })
    assert.equal(set.port, 9090)
    assert.equal(set.host, '0.0.0.0')
    assert.equal(set.publicUrl, 'http://localhost:9090')
    assert.equal(set.role, 'worker')
    assert.equal(set.apiLogs, false)
    assert.equal(set.metricsPublic, true)
    assert.equal(set.webhooks.allowPrivateNetworks, true)
    assert.equal(set.eventFeed.bus, 'redis')
    assert.equal(set.voice.simSetupScale, 0.5)
    assert.ok(set.webConcurrency >= 1)
    assert.equal(set.email.listenPort, 0)
  })

  it('names every faulty variable at once, with what was expected and what was got', () => {
    assert.deepEqual(problems({ PORT: '80a', JOB_CONCURRENCY: '-1', METRICS_PUBLIC: 'maybe', LOG_LEVEL: 'loud', EVENT_FEED_POLL_MS: '5', PUBLIC_URL: 'example.com' }), [
      'PORT must be a whole number from 0 to 65535, got "80a"',
      'PUBLIC_URL must be an http:// or https:// URL, got "example.com"',
      'JOB_CONCURRENCY must be a whole number (0 or more), got "-1"',
      'EVENT_FEED_POLL_MS must be a whole number of at least 10, got "5"',
      'LOG_LEVEL must be one of fatal, error, warn, info, debug, trace, silent, got "loud"',
      'METRICS_PUBLIC must be on or off (true/false, yes/no, 1/0), got "maybe"',
    ])
    assert.deepEqual(problems({ SVC_ROLE: 'web' }), ['SVC_ROLE must be one of api, worker, all, got "web"'])
    assert.deepEqual(problems({ PORT: '70000' }), ['PORT must be a whole number from 0 to 65535, got "70000"'])
    assert.deepEqual(problems({ V1_SUNSET: 'next june' }), ['V1_SUNSET must be an ISO 8601 date, got "next june"'])
    assert.deepEqual(problems({ WEBHOOK_RETRY_SCHEDULE: '5,soon' }), ['WEBHOOK_RETRY_SCHEDULE must be comma-separated seconds, got "5,soon"'])
    assert.throws(
      () => readEnv({ PORT: 'x', HOST: 'y' }),
      (err: Error) => err.message.startsWith('PORT must be') && !err.message.includes('HOST'),
    )
  })

  it('never shows a credential in an error, only its length', () => {
    const [problem] = problems({ DATABASE_URL: 'mysql://admin:hunter2@db/prod' })
    assert.equal(problem, 'DATABASE_URL must be sqlite:<path>, sqlite::memory: or postgres://…, got a value of 29 characters')
    assert.equal(problems({ REDIS_URL: 'http://:hunter2@cache' })[0], 'REDIS_URL must be a redis:// or rediss:// URL, got a value of 21 characters')
    assert.doesNotMatch(problems({ EMAIL_RELAY_URL: 'http://u:hunter2@mail' }).join(), /hunter2/)
  })

  it('keeps the checks that span variables (one variable cannot say them)', () => {
    assert.throws(() => loadConfig({ HTTP_REQUEST_TIMEOUT_MS: '0' }), /HTTP_REQUEST_TIMEOUT_MS must be a whole number of at least 1, got "0"/)
    assert.throws(() => loadConfig({ HTTP_HEADERS_TIMEOUT_MS: '5000', HTTP_REQUEST_TIMEOUT_MS: '1000' }), /must not exceed/)
    assert.throws(() => loadConfig({ WEB_CONCURRENCY: '1000' }), /WEB_CONCURRENCY must be a whole number from 1 to 256, or auto, got "1000"/)
    assert.throws(() => loadConfig({ TRUST_PROXY: '10.0.0.0/8,proxy.internal' }), /TRUST_PROXY must be/)
  })

  it('warns about unknown SVC_ names and near misses of known names, and nothing else in the environment', () => {
    assert.deepEqual(envWarnings({ PROT: '80', DATABSE_URL: 'x', WEBHOOK_TIMEOUT: '5', SVC_ROLES: 'api', SVC_COLOUR: 'red', log_level: 'debug' }), [
      'DATABSE_URL is not a setting of this service; did you mean DATABASE_URL?',
      'PROT is not a setting of this service; did you mean PORT?',
      "SVC_COLOUR is not a setting of this service (unknown SVC_ name; see the README's configuration table)",
      'SVC_ROLES is not a setting of this service; did you mean SVC_ROLE?',
      'WEBHOOK_TIMEOUT is not a setting of this service; did you mean WEBHOOK_TIMEOUT_MS?',
      'log_level is not a setting of this service; did you mean LOG_LEVEL?',
    ])
    // A host's usual environment, and the names the official clients and the build read, are not faults.
    const host = {
      PATH: '/usr/bin',
      HOME: '/root',
      HOSTNAME: 'box',
      USER: 'svc',
      TERM: 'xterm',
      LANG: 'C.UTF-8',
      PWD: '/srv',
      NODE_ENV: 'production',
      HTTP_PROXY: 'x',
      NO_PROXY: 'x',
      SHELL: '/bin/sh',
      TZ: 'UTC',
      SVC_API_KEY: 'k',
      SVC_BASE_URL: 'u',
      SVC_BUILD_DIR: 'd',
    }
    assert.deepEqual(envWarnings({ ...host, ...Object.fromEntries(NAMES.map((n) => [n, 'x'])) }), [])
  })
})

describe(`the service refuses a faulty configuration at start, and warns about unknown names (${ENGINE})`, () => {
  let db: TestDatabase | undefined
  let server: ServerProcess | undefined
  after(async () => {
    await server?.stop()
    await db?.drop()
  })

  it('exits 1 with the variable, what was expected and what was got, not a stack', async () => {
    const result = await run(process.execPath, entryArgs('main'), { cwd: ROOT, env: { ...process.env, PORT: '80a', LOG_LEVEL: 'loud' } }).then(
      () => assert.fail('the service started'),
      (err: { code: number; stderr: string }) => err,
    )
    assert.equal(result.code, 1)
    assert.equal(
      result.stderr.trim(),
      'svc: refusing to start: invalid configuration:\n  PORT must be a whole number from 0 to 65535, got "80a"\n  LOG_LEVEL must be one of fatal, error, warn, info, debug, trace, silent, got "loud"',
    )
  })

  it('starts with an unknown SVC_ name and a mistyped one, and logs a warning for each', async () => {
    db = await createTestDatabase()
    server = await startServer({ ...db.env, SERVER_SECRET: TEST_SERVER_SECRET, SVC_ROLE: 'api', SVC_COLOUR: 'red', WEBHOOK_TIMEOUT: '5' })
    const warnings = server
      .output()
      .split('\n')
      .filter((l) => l.includes('"config":true'))
      .map((l) => JSON.parse(l).msg)
    assert.deepEqual(warnings, [
      "SVC_COLOUR is not a setting of this service (unknown SVC_ name; see the README's configuration table)",
      'WEBHOOK_TIMEOUT is not a setting of this service; did you mean WEBHOOK_TIMEOUT_MS?',
    ])
  })
})
