/**
 * Coalesces concurrent calls into one call of `run` for many items (a database transaction for many jobs,
 * say), without a fixed delay: the first item schedules a flush for the end of the current turn of the
 * event loop (setImmediate), so everything that arrived in the same turn — a claim's jobs, the answers
 * that came in with the same poll — goes together. While a flush runs, new items wait and go in the next
 * one: the busier the database, the bigger the batches, and an idle system pays no added latency.
 *
 * `run` answers per item (a value or an Error); if it throws, the batch's items are run again one by one,
 * so one bad item (or a deadlock victim) fails alone.
 */
export class Batcher<I, O> {
  private queue: { item: I; resolve: (o: O) => void; reject: (e: unknown) => void }[] = []
  private scheduled = false
  private flushing = 0

  constructor(
    private readonly run: (items: I[]) => Promise<(O | Error)[]>,
    private readonly opts: { maxBatch: number; maxConcurrent?: number } = { maxBatch: 256 },
  ) {}

  add(item: I): Promise<O> {
    return new Promise<O>((resolve, reject) => {
      this.queue.push({ item, resolve, reject })
      this.schedule()
    })
  }

  private schedule(): void {
    if (this.scheduled || this.queue.length === 0 || this.flushing >= (this.opts.maxConcurrent ?? 1)) return
    this.scheduled = true
    setImmediate(() => {
      this.scheduled = false
      // `void`: flush() settles every queued item's promise itself (a failed run rejects the items, not flush).
      void this.flush()
    })
  }

  private async flush(): Promise<void> {
    if (this.queue.length === 0 || this.flushing >= (this.opts.maxConcurrent ?? 1)) return
    const batch = this.queue.splice(0, this.opts.maxBatch)
    this.flushing++
    try {
      let results: (O | Error)[]
      try {
        results = await this.run(batch.map((b) => b.item))
      } catch (err) {
        if (batch.length === 1) {
          batch[0].reject(err)
          return
        }
        results = []
        for (const b of batch) {
          try {
            results.push((await this.run([b.item]))[0])
          } catch (e) {
            results.push(e instanceof Error ? e : new Error(String(e)))
          }
        }
      }
      batch.forEach((b, i) => {
        const r = results[i]
        if (r instanceof Error) b.reject(r)
        else b.resolve(r)
      })
    } finally {
      this.flushing--
      this.schedule()
    }
  }
}
