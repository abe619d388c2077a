// The audit sealer's cost per entry (docs/performance.md, "The audit sealer's turns"):
// `node --import tsx bench/audit-seal.ts [sqlite|postgres] [entries]` writes `entries` messages through inject
// (each leaves an audit entry), then times one seal of the backlog: wall clock and this process's CPU. Three rounds.
import { statementApp, writeCases } from './statements.js'

const engine = (process.argv[2] ?? 'sqlite') as 'sqlite' | 'postgres'
const n = Number(process.argv[3] ?? 3200)
const s = await statementApp(engine)
try {
  const [send] = await writeCases(s.inject)
  const audit = s.app.kernel.audit
  for (let round = 0; round < 3; round++) {
    for (let i = 0; i < n; i++) {
      const r = await s.inject(send.request(round * n + i))
      if (r.statusCode !== 201) throw new Error(`expected 201, got ${r.statusCode}: ${r.body}`)
    }
    const started = performance.now()
    const cpu = process.cpuUsage()
    let sealed = 0
    for (const ws of await audit.workspacesToSeal()) sealed += await audit.seal(ws)
    const used = process.cpuUsage(cpu)
    const micros = used.user + used.system
    console.log(
      `${engine} round ${round + 1}: ${sealed} entries sealed in ${(performance.now() - started).toFixed(1)} ms, CPU ${(micros / 1000).toFixed(1)} ms (${(micros / sealed).toFixed(1)} µs an entry)`,
    )
  }
} finally {
  await s.close()
}
