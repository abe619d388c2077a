import { readFileSync, existsSync } from 'node:fs'
import { join, dirname } from 'node:path'
const root = process.argv[2]
const seen = new Map()
function resolveDir(name, from) {
  let d = from
  for (;;) {
    const p = join(d, 'node_modules', name)
    if (existsSync(join(p, 'package.json'))) return p
    const up = dirname(d)
    if (up === d) return null
    d = up
  }
}
function visit(name, from, optional) {
  const dir = resolveDir(name, from)
  if (!dir) {
    if (!optional) console.error('missing', name, 'from', from)
    return
  }
  if (seen.has(dir)) return
  const pkg = JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8'))
  seen.set(dir, pkg.version)
  for (const d of Object.keys(pkg.dependencies ?? {})) visit(d, dir, false)
  for (const d of Object.keys(pkg.optionalDependencies ?? {})) visit(d, dir, true)
}
for (const n of process.argv.slice(3)) visit(n, root, false)
for (const d of [...seen.keys()].sort()) console.log(d.slice(root.length + 1))
