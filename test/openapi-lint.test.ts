import assert from 'node:assert/strict'
import { spawnSync } from 'node:child_process'
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { after, before, describe, it } from 'node:test'
import { createTestApp, json, type TestApp } from './helpers.js'

const ROOT = fileURLToPath(new URL('..', import.meta.url))
const CLI = join(ROOT, 'node_modules/@redocly/cli/bin/cli.js')

interface LintReport {
  totals: { errors: number; warnings: number; ignored: number }
  problems: { ruleId: string; severity: string; message: string; location: { pointer: string }[] }[]
}

// The served document, linted by the installed Redocly CLI with its strictest built-in ruleset (every
// rule an error), offline. The document's servers follow PUBLIC_URL, so the app is given a public one:
// a `localhost` server is rightly reported (no-server-example.com) and is what an unset PUBLIC_URL gives.
describe('OpenAPI document: Redocly lint (recommended-strict)', () => {
  let h: TestApp
  let dir: string
  before(async () => {
    h = await createTestApp({ env: { PUBLIC_URL: 'https://api.svc.test' } })
    dir = mkdtempSync(join(tmpdir(), 'svc-openapi-lint-'))
  })
  after(async () => {
    rmSync(dir, { recursive: true, force: true })
    await h.close()
  })

  it('has 0 errors and 0 warnings', async () => {
    const res = await h.request({ method: 'GET', url: '/v2/openapi.json', key: null })
    assert.equal(res.statusCode, 200)
    const doc = json(res)
    assert.deepEqual(
      doc.servers.map((s: { url: string }) => s.url),
      ['https://api.svc.test/v2', 'https://api.svc.test/sandbox/v2'],
      'the servers follow PUBLIC_URL',
    )
    const file = join(dir, 'openapi.json')
    writeFileSync(file, res.body)
    const run = spawnSync(process.execPath, [CLI, 'lint', '--extends=recommended-strict', '--format=json', file], {
      cwd: dir, // no redocly.yaml of anyone's applies
      encoding: 'utf8',
      timeout: 60_000,
      env: { ...process.env, REDOCLY_TELEMETRY: 'off', REDOCLY_SUPPRESS_UPDATE_NOTICE: 'true', NO_COLOR: '1' },
    })
    assert.ok(run.stdout.trim().startsWith('{'), `redocly printed no JSON report (exit ${run.status}): ${run.stderr}`)
    const report = JSON.parse(run.stdout) as LintReport
    const listed = report.problems.map((p) => `${p.severity} ${p.ruleId} at ${p.location[0]?.pointer}: ${p.message}`).join('\n')
    assert.equal(report.totals.errors, 0, listed)
    assert.equal(report.totals.warnings, 0, listed)
    assert.equal(report.totals.ignored, 0, listed)
    assert.equal(run.status, 0, run.stderr)
  })
})
