// test-engines: sqlite (no database involved: one pass is enough; scripts/test.mjs leaves it out of PostgreSQL's)
import assert from 'node:assert/strict'
import { describe, it } from 'node:test'
import { Batcher } from './batch.js'

describe('Batcher', () => {
  it('runs what arrives in the same turn as one batch, and what arrives during a flush as the next one', async () => {
    const batches: number[][] = []
    let release!: () => void
    const gate = new Promise<void>((r) => (release = r))
    const b = new Batcher<number, number>(
      async (items) => {
        batches.push(items)
        if (batches.length === 1) await gate
        return items.map((i) => i * 10)
      },
      { maxBatch: 100 },
    )
    const first = [1, 2, 3].map((i) => b.add(i))
    await new Promise((r) => setImmediate(r))
    const second = [4, 5].map((i) => b.add(i))
    await new Promise((r) => setTimeout(r, 10))
    assert.deepEqual(batches, [[1, 2, 3]], 'the second batch waits for the first')
    release()
    assert.deepEqual(await Promise.all([...first, ...second]), [10, 20, 30, 40, 50])
    assert.deepEqual(batches, [
      [1, 2, 3],
      [4, 5],
    ])
  })

  it('splits at maxBatch', async () => {
    const sizes: number[] = []
    const b = new Batcher<number, number>(async (items) => (sizes.push(items.length), items), { maxBatch: 2 })
    await Promise.all([1, 2, 3, 4, 5].map((i) => b.add(i)))
    assert.deepEqual(sizes, [2, 2, 1])
  })

  it('answers per item, and runs a failed batch again item by item so that one bad item fails alone', async () => {
    const calls: number[][] = []
    const b = new Batcher<number, string>(
      async (items) => {
        calls.push(items)
        if (items.includes(2)) throw new Error(`bad ${items.join(',')}`)
        return items.map((i) => (i === 3 ? new Error('three') : `ok ${i}`))
      },
      { maxBatch: 10 },
    )
    const results = await Promise.allSettled([1, 2, 3].map((i) => b.add(i)))
    assert.deepEqual(calls, [[1, 2, 3], [1], [2], [3]])
    assert.deepEqual(
      results.map((r) => (r.status === 'fulfilled' ? r.value : (r.reason as Error).message)),
      ['ok 1', 'bad 2', 'three'],
    )
  })
})
