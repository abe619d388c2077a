// The service's entry point with an on-demand CPU profiler, for bench/bots/profile.ts: the first SIGUSR2
// starts V8's sampling profiler in this process, the second stops it and writes the profile to
// BOTS_PROFILE_OUT — so the profile holds the measured load only, not start-up, seeding or indexing.
// (Node 20 refuses --cpu-prof in NODE_OPTIONS, and --cpu-prof would profile the whole life anyway.)
import { writeFileSync } from 'node:fs'
import { Session } from 'node:inspector'

const session = new Session()
session.connect()
let running = false
process.on('SIGUSR2', () => {
  if (!running) {
    running = true
    session.post('Profiler.enable', () => session.post('Profiler.start'))
    return
  }
  running = false
  session.post('Profiler.stop', (err, r) => {
    if (err) process.stderr.write(`profiler: ${err.message}\n`)
    else writeFileSync(process.env.BOTS_PROFILE_OUT ?? 'bots.cpuprofile', JSON.stringify(r.profile))
  })
})

await import('../../src/main.js')
