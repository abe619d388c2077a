// A node:test reporter (scripts/test.mjs gives it beside the spec reporter): one JSON line per test file with its
// wall time in milliseconds, written as each file ends (the run is ended with --test-force-exit, which does not
// wait for a reporter's last words). The runner reports a file as a test of its own, named by its path (nesting 0),
// with the time its process took; a runner that does not gets lines with the time from the file's first event to
// the end of each of its top-level tests (`span`), and the reader takes the longest.
export default async function* timings(source) {
  const first = new Map()
  for await (const event of source) {
    const file = event.data?.file
    if (!file) continue
    const now = performance.now()
    // Queued is not running yet: a file's time starts with its first event from the file itself.
    if (!first.has(file) && event.type !== 'test:enqueue') first.set(file, now)
    if (event.type !== 'test:complete' || event.data.nesting !== 0) continue
    if (event.data.name === file) yield JSON.stringify({ file, ms: Math.round(event.data.details?.duration_ms ?? 0) }) + '\n'
    else yield JSON.stringify({ file, span: Math.round(now - (first.get(file) ?? now)) }) + '\n'
  }
}
