// test-engines: sqlite (no database involved: one pass is enough; scripts/test.mjs leaves it out of PostgreSQL's)
import assert from 'node:assert/strict'
import { spawnSync } from 'node:child_process'
import { describe, it } from 'node:test'

// The mutation run (scripts/mutation.mjs) runs on a whole suite only; its list is checked on every run of this file,
// so a refactor that moves a mutation's text is noticed where it happens.
const ROOT = new URL('..', import.meta.url).pathname

describe('the mutation list (scripts/mutation.mjs --check)', () => {
  it("finds each mutation's search text exactly once in its file, and each test file", () => {
    const r = spawnSync(process.execPath, ['scripts/mutation.mjs', '--check'], { cwd: ROOT, encoding: 'utf8' })
    assert.equal(r.status, 0, `${r.stdout}${r.stderr}`)
    assert.match(r.stdout, /^mutation list: \d+ mutations, each search text found once$/m)
  })
})
