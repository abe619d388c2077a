// Preloaded into a server process a test measures (NODE_OPTIONS=--import=…/gc-probe.mjs): on SIGUSR2 it runs
// a full garbage collection and prints the memory then, one line on stdout, so a test reads what is live
// rather than garbage awaiting a collection. Measures only: the server's own code is not touched.
import { setFlagsFromString } from 'node:v8'
import { runInNewContext } from 'node:vm'

setFlagsFromString('--expose-gc')
const gc = runInNewContext('gc')
process.on('SIGUSR2', () => {
  gc()
  gc() // a second pass frees what the first one's finalisers released
  const m = process.memoryUsage()
  process.stdout.write(`gc-probe ${JSON.stringify({ rss: m.rss, heapUsed: m.heapUsed, external: m.external })}\n`)
})
