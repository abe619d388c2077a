// test-engines: sqlite (no database involved: one pass is enough; scripts/test.mjs leaves it out of PostgreSQL's)
import assert from 'node:assert/strict'
import type { LookupAddress } from 'node:dns'
import type { LookupFunction } from 'node:net'
import { describe, it } from 'node:test'
import { sharedLookup } from './shared-lookup.js'

// A resolver standing in for DNS that answers after a tick and counts the questions it was asked.
function resolver(answers: Record<string, LookupAddress[]>) {
  const asked: string[] = []
  const lookup = ((hostname: string, _o: unknown, cb: (e: NodeJS.ErrnoException | null, r: LookupAddress[]) => void) => {
    asked.push(hostname)
    setTimeout(() => {
      const list = answers[hostname]
      if (list) cb(null, list)
      else cb(Object.assign(new Error(`getaddrinfo ENOTFOUND ${hostname}`), { code: 'ENOTFOUND' }), [])
    }, 5)
  }) as unknown as LookupFunction
  return { asked, lookup }
}

const ask = (lookup: LookupFunction, host: string, all = true) =>
  new Promise<{ err: NodeJS.ErrnoException | null; result: unknown; family?: number }>((resolve) => lookup(host, { all }, (err, result, family) => resolve({ err, result, family })))

describe('sharedLookup: concurrent lookups of a name share one resolver call', () => {
  const addrs = {
    'hooks.example.com': [
      { address: '93.184.216.34', family: 4 },
      { address: '2606:2800:220:1::1', family: 6 },
    ],
  }

  it('asks the resolver once for a burst, every caller gets the answer', async () => {
    const r = resolver(addrs)
    const lookup = sharedLookup(r.lookup)
    const answers = await Promise.all(Array.from({ length: 30 }, () => ask(lookup, 'hooks.example.com')))
    assert.deepEqual(r.asked, ['hooks.example.com'])
    for (const a of answers) assert.deepEqual(a.result, addrs['hooks.example.com'])
    // Each caller holds its own copy: one caller changing its list cannot change another's.
    assert.notEqual(answers[0].result, answers[1].result)
  })

  it('asks again once the call in flight has answered (nothing is cached)', async () => {
    const r = resolver(addrs)
    const lookup = sharedLookup(r.lookup)
    await ask(lookup, 'hooks.example.com')
    await ask(lookup, 'hooks.example.com')
    assert.equal(r.asked.length, 2)
  })

  it('shares failures, keeps names apart, and answers one address when `all` is not set', async () => {
    const r = resolver(addrs)
    const lookup = sharedLookup(r.lookup)
    const [a, b, c] = await Promise.all([ask(lookup, 'gone.example.com'), ask(lookup, 'gone.example.com'), ask(lookup, 'hooks.example.com', false)])
    assert.deepEqual(r.asked.sort(), ['gone.example.com', 'hooks.example.com'])
    assert.equal(a.err?.code, 'ENOTFOUND')
    assert.equal(b.err?.code, 'ENOTFOUND')
    assert.deepEqual([c.result, c.family], ['93.184.216.34', 4])
  })
})
