// A node:test reporter (scripts/test.mjs gives it beside the spec reporter): one JSON line per test file with its
// wall time in milliseconds, written as each file ends. The runner reports a file as a test of its own, named by its
// path (nesting 0), with the time its process took; a runner that does not gets lines with the time from the file's
// first event to the end of each of its top-level tests (`span`), and the reader takes the longest. Each top-level
// test's own time (`suite`, its hooks included) comes too: a file run in a group's process (scripts/test.mjs) is
// their sum. A failed test is a line too (`fail`: its name and the first lines of its error), so the run's last words
// name what failed: CI keeps only the tail of a long log.
// The run is ended with --test-force-exit, which does not wait for a reporter's destination stream: the last file's
// lines (a browser test group's failure among them) were lost now and then. Given a file in its URL
// (`?out=<path>`, scripts/test-process.mjs), the reporter appends each line to it at once, synchronously, and sends
// nothing to its destination; without one it yields them as a reporter does.
import { appendFileSync } from 'node:fs'

const OUT = new URL(import.meta.url).searchParams.get('out')

export default async function* timings(source) {
  for await (const line of lines(source)) {
    if (OUT) appendFileSync(OUT, line)
    else yield line
  }
}

async function* lines(source) {
  const first = new Map()
  for await (const event of source) {
    const file = event.data?.file
    if (!file) continue
    const now = performance.now()
    // Queued is not running yet: a file's time starts with its first event from the file itself.
    if (!first.has(file) && event.type !== 'test:enqueue') first.set(file, now)
    // A suite that failed because a test inside it did is not news; the test is.
    if (event.type === 'test:fail' && event.data.details?.error?.failureType !== 'subtestsFailed') {
      const error = event.data.details?.error
      const message = String(error?.cause?.message ?? error?.message ?? error ?? '')
        .split('\n')
        .slice(0, 6)
        .join('\n')
        .slice(0, 600)
      yield JSON.stringify({ file, fail: event.data.name, line: event.data.line ?? null, error: message }) + '\n'
    }
    if (event.type !== 'test:complete' || event.data.nesting !== 0) continue
    if (event.data.name === file) yield JSON.stringify({ file, ms: Math.round(event.data.details?.duration_ms ?? 0) }) + '\n'
    else yield JSON.stringify({ file, span: Math.round(now - (first.get(file) ?? now)), suite: Math.round(event.data.details?.duration_ms ?? 0) }) + '\n'
  }
}
