import assert from 'node:assert/strict'
import { readdirSync, readFileSync, statSync } from 'node:fs'
import { join, posix } from 'node:path'
import { describe, it } from 'node:test'
import { MODULES } from '../src/modules/index.js'

// The kernel's patterns hold by construction: these checks fail the build when a module goes around them.
const ROOT = new URL('..', import.meta.url).pathname

function files(dir: string, out: string[] = []): string[] {
  for (const name of readdirSync(join(ROOT, dir))) {
    const p = join(dir, name)
    if (statSync(join(ROOT, p)).isDirectory()) files(p, out)
    else if (name.endsWith('.ts') && !name.endsWith('.test.ts')) out.push(p)
  }
  return out
}
const source = files('src').map((path) => ({ path, text: readFileSync(join(ROOT, path), 'utf8') }))
const modules = source.filter((f) => f.path.startsWith('src/modules/'))

function offenders(list: { path: string; text: string }[], pattern: RegExp): string[] {
  return list.filter((f) => pattern.test(f.text)).map((f) => f.path)
}

describe('structure', () => {
  it('no hand-written tenant filter: tenant tables are read through scoped(db, tenant)', () => {
    const hand = /\.where\(\s*['`](?:[a-z_${}]+\.)?workspace_id['`]\s*,/
    assert.deepEqual(offenders(source.filter((f) => f.path !== 'src/kernel/db/scoped.ts'), hand), [])
  })

  it('no list builds its cursor or page by hand: every list goes through kernel.paginate', () => {
    assert.deepEqual(offenders(modules, /\b(decodeCursor|encodeCursor|toPage)\b|next_cursor\s*:|\blimit\s*\?\?\s*\d/), [])
  })

  it('the kernel imports no module, and no module imports another module (only its published schemas)', () => {
    assert.deepEqual(offenders(source.filter((f) => f.path.startsWith('src/kernel/')), /from '(\.\.\/)+modules\//), [])
    // A relative import that lands in src/modules/ lands in the file's own module (its sub-folders included),
    // or in another module's `*.schemas.ts`: TypeBox schemas only, the contract its API already publishes
    // (a bot reply carries citations exactly as a knowledge search returns them). Behaviour goes through services.
    for (const f of modules.filter((m) => m.path !== 'src/modules/index.ts')) {
      const own = `src/modules/${f.path.split('/')[2]}/`
      for (const [, spec] of f.text.matchAll(/from '(\.{1,2}\/[^']+)'/g)) {
        const target = posix.normalize(posix.join(posix.dirname(f.path), spec))
        const contract = /\.schemas\.js$/.test(target)
        assert.ok(!target.startsWith('src/modules/') || target.startsWith(own) || contract, `${f.path} imports ${target}`)
      }
    }
  })

  it('kernel/errors.ts holds only generic codes; each module owns its catalogue', () => {
    const kernelErrors = readFileSync(join(ROOT, 'src/kernel/errors.ts'), 'utf8')
    for (const m of MODULES) {
      for (const code of Object.keys(m.errors ?? {})) assert.doesNotMatch(kernelErrors, new RegExp(`\\b${code}\\b`), `${code} of ${m.name} is in the kernel`)
    }
    assert.doesNotMatch(kernelErrors, /\b(webhook|inbox|conversation|member|template|playground)\w*\s*:/i)
  })

  it('every error code an operation declares is in a catalogue', async () => {
    const { errorSpec } = await import('../src/kernel/errors.js')
    for (const m of MODULES) for (const r of m.routes) for (const c of r.errors ?? []) assert.notEqual(errorSpec(c).title, 'Internal server error', `${r.operationId}: ${c}`)
  })
})
