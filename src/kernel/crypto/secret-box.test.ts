// test-engines: sqlite (no database involved: one pass is enough; scripts/test.mjs leaves it out of PostgreSQL's)
import assert from 'node:assert/strict'
import { randomBytes } from 'node:crypto'
import { describe, it } from 'node:test'
import { SecretBox } from './secret-box.js'

describe('SecretBox (secrets at rest)', () => {
  const secret = randomBytes(32)
  const box = new SecretBox(secret)

  it('seals with AES-256-GCM: the stored value reveals nothing and opens back', () => {
    const sealed = box.seal('whsec_abc', 'we_1')
    assert.match(sealed, /^enc:v1:[0-9a-f]{8}:/)
    assert.ok(!sealed.includes('whsec_abc'))
    assert.notEqual(box.seal('whsec_abc', 'we_1'), sealed, 'a fresh IV each time')
    assert.equal(box.open(sealed, 'we_1'), 'whsec_abc')
  })

  it('refuses a tampered value, another context, or another server secret', () => {
    const sealed = box.seal('whsec_abc', 'we_1')
    const parts = sealed.split(':')
    parts[5] = Buffer.from('whsec_xyz').toString('base64url')
    assert.throws(() => box.open(parts.join(':'), 'we_1'))
    assert.throws(() => box.open(sealed, 'we_2'), 'bound to its row')
    assert.throws(() => new SecretBox(randomBytes(32)).open(sealed, 'we_1'), /unknown server secret/)
  })

  it('rotation: values of a previous secret open while it is listed, and are stale', () => {
    const old = box.seal('whsec_old', 'we_1')
    const rotated = new SecretBox(randomBytes(32), [secret])
    assert.equal(rotated.open(old, 'we_1'), 'whsec_old')
    assert.equal(rotated.isStale(old), true)
    assert.equal(rotated.isStale(rotated.seal('x')), false)
    assert.equal(rotated.isStale('whsec_plain'), true)
  })
})
