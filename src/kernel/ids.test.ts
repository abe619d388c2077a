// test-engines: sqlite (no database involved: one pass is enough; scripts/test.mjs leaves it out of PostgreSQL's)
import assert from 'node:assert/strict'
import { describe, it } from 'node:test'
import { idTime, newId, ulid, ulidTime } from './ids.js'

describe('ids', () => {
  it('are prefixed, 26 Crockford base32 characters, and sort by creation time', () => {
    const ids = Array.from({ length: 5000 }, () => newId('conv'))
    for (const id of ids) assert.match(id, /^conv_[0-9A-HJKMNP-TV-Z]{26}$/)
    assert.deepEqual([...ids].sort(), ids, 'monotonic within and across milliseconds')
    assert.equal(new Set(ids).size, ids.length)
  })
  it('encode the timestamp in the first 10 characters', () => {
    const a = ulid(Date.UTC(2100, 0, 1))
    const b = ulid(Date.UTC(2100, 0, 2))
    assert.ok(a.slice(0, 10) < b.slice(0, 10))
  })
  it('read back their time (idTime), and ulidTime gives the time part of a moment', () => {
    const at = Date.UTC(2026, 10, 25, 1, 2, 3, 456)
    // (newId never goes back in time within a process, and the test above made ids in 2100.)
    const id = `whc_${ulidTime(at)}${'7'.repeat(16)}`
    assert.equal(idTime(id), at)
    const fresh = newId('conv')
    assert.equal(ulidTime(idTime(fresh)), fresh.slice(5, 15))
    assert.ok(`whc_${ulidTime(at - 1)}` < id && id < `whc_${ulidTime(at + 1)}`)
  })
})
