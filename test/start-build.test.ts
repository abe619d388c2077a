// test-engines: sqlite (no database involved: one pass is enough; scripts/test.mjs leaves it out of PostgreSQL's)
import assert from 'node:assert/strict'
import { execFile } from 'node:child_process'
import { mkdirSync, mkdtempSync, readFileSync, rmSync, statSync, utimesSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { after, describe, it } from 'node:test'
import { promisify } from 'node:util'
import { runInThisContext } from 'node:vm'
import { escapeNonAscii, SERVICE_SOURCES, serviceBuildIsFresh } from '../scripts/build.mjs'

const run = promisify(execFile)
const ROOT = new URL('..', import.meta.url).pathname

// `npm start` (prestart: scripts/build.mjs --if-stale) builds only when a source is newer than dist/: a
// production host may have a read-only checkout with a built dist/, and no start should pay for a rebuild.
describe('npm start builds only when the sources are newer than the bundle', () => {
  const dir = mkdtempSync(join(tmpdir(), 'svc-start-build-'))
  after(() => rmSync(dir, { recursive: true, force: true }))
  const at = (path: string, seconds: number) => utimesSync(path, seconds, seconds)

  it('compares the newest source with when the bundle was built', () => {
    const src = join(dir, 'src')
    const out = join(dir, 'dist')
    mkdirSync(join(src, 'deep'), { recursive: true })
    mkdirSync(out)
    writeFileSync(join(src, 'deep', 'a.ts'), '')
    at(join(src, 'deep', 'a.ts'), 1_000)
    assert.equal(serviceBuildIsFresh(out, [src]), false, 'no bundle: build')
    writeFileSync(join(out, 'main.js'), '')
    assert.equal(serviceBuildIsFresh(out, [src]), false, 'a bundle without its stamp (an older build): build')
    writeFileSync(join(out, 'build.json'), JSON.stringify({ startedAt: 2_000_000 }))
    assert.equal(serviceBuildIsFresh(out, [src]), true)
    at(join(src, 'deep', 'a.ts'), 2_001)
    assert.equal(serviceBuildIsFresh(out, [src]), false, 'a source changed after the build began')
    assert.equal(serviceBuildIsFresh(out, [join(dir, 'no-sources-shipped')]), true, 'a host with dist/ only uses it')
  })

  it('scripts/build.mjs --if-stale builds once, then leaves the bundle alone', async (t) => {
    // A folder of our own inside the repository (the bundle's externals resolve from node_modules), not dist/.
    const outdir = join('.tmp', `start-build-${process.pid}`)
    after(() => rmSync(join(ROOT, outdir), { recursive: true, force: true }))
    const build = () => run(process.execPath, ['scripts/build.mjs', '--if-stale'], { cwd: ROOT, env: { ...process.env, SVC_BUILD_DIR: outdir } })
    await build()
    const main = join(ROOT, outdir, 'main.js')
    const built = statSync(main).mtimeMs
    // One non-ASCII character makes V8 hold the whole source two bytes per character (scripts/build.mjs, asciiOnly).
    assert.equal(/[^\x00-\x7f]/.exec(readFileSync(main, 'utf8'))?.[0], undefined, 'the bundle is ASCII')
    assert.ok(JSON.parse(readFileSync(join(ROOT, outdir, 'build.json'), 'utf8')).startedAt <= built)
    // In a working tree someone is editing, a source saved during the build rightly makes it stale again.
    if (
      !serviceBuildIsFresh(
        join(ROOT, outdir),
        SERVICE_SOURCES.map((p: string) => join(ROOT, p)),
      )
    )
      return t.skip('a source changed while it built')
    const again = await build()
    assert.match(again.stderr, /is up to date with the sources: not rebuilt/)
    assert.equal(statSync(main).mtimeMs, built, 'not rewritten')
  })

  it('package.json: npm start runs the build with --if-stale, npm run build always builds', () => {
    const scripts = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')).scripts
    assert.equal(scripts.prestart, 'node scripts/build.mjs --if-stale')
    assert.equal(scripts.build, 'node scripts/build.mjs')
  })
})

// The build's loader escapes non-ASCII characters in the input (esbuild leaves them in regular expression literals):
// each program below must mean the same before and after.
describe('escapeNonAscii keeps what the code means', () => {
  const cases: [string, unknown][] = [
    ["/^[–—•]+$/.test('–—•')", true],
    ["/^[–—•]+$/u.test('–—•')", true],
    ["/^[\\–]$/.test('–')", true],
    ["/^😀$/u.test('😀') && /^😀$/.test('😀')", true],
    ["/^[😀]$/u.test('😀')", true],
    ["'€ \\é ’'", '€ é ’'],
    ['`£${1}–`', '£1–'],
    ["'\\\\–'", '\\–'],
    ['/[à-ÿ]/.test("é") && !/[à-ÿ]/.test("a")', true],
  ]
  for (const [program, want] of cases) {
    it(program, () => {
      const escaped = escapeNonAscii(program)
      assert.equal(/[^\x00-\x7f]/.test(escaped), false, escaped)
      assert.deepEqual(runInThisContext(`(${escaped})`), want)
      assert.deepEqual(runInThisContext(`(${program})`), want)
    })
  }
})
