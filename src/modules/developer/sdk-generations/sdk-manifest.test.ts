// test-engines: sqlite (no database involved: one pass is enough; scripts/test.mjs leaves it out of PostgreSQL's)
import assert from 'node:assert/strict'
import { describe, it } from 'node:test'
import { buildArchive } from './sdk-archive.js'
import { applyManifest, applyVersionConstants, findManifest, PACKAGE_RULES } from './sdk-manifest.js'

const text = (r: { content: Buffer }) => r.content.toString('utf8')

describe('package manifests and archives', () => {
  it('package.json and composer.json: name and version first, the rest as written, the author’s indent kept', () => {
    const pkg = applyManifest('package.json', Buffer.from('{\n    "description": "x",\n    "name": "@svc/client",\n    "version": "2.4.0",\n    "type": "module"\n}\n'), '@acme/api', '3.0.0')
    assert.equal(text(pkg), '{\n    "name": "@acme/api",\n    "version": "3.0.0",\n    "description": "x",\n    "type": "module"\n}\n')
    const composer = JSON.parse(text(applyManifest('composer.json', Buffer.from('{"name":"svc/client","require":{"php":">=8.1"}}'), 'acme/api', '3.0.0')))
    assert.deepEqual(composer, { name: 'acme/api', version: '3.0.0', require: { php: '>=8.1' } })
  })

  it('pyproject.toml: edits only [project] lines, and writes a dynamic version in', () => {
    const src = '[build-system]\nrequires = ["setuptools>=61"]\n\n[project]\nname = "svc-client"  # the distribution\nversion = "2.4.0"\ndescription = "x"\n\n[tool.x]\nname = "keep"\n'
    const out = text(applyManifest('pyproject.toml', Buffer.from(src), 'acme-api', '3.0.0rc1'))
    assert.equal(out, src.replace('name = "svc-client"  # the distribution', 'name = "acme-api"').replace('version = "2.4.0"', 'version = "3.0.0rc1"'))
    const dynamic = text(applyManifest('pyproject.toml', Buffer.from('[project]\nname = "a"\ndynamic = ["version", "readme"]\n'), 'b', '1.0.0'))
    assert.equal(dynamic, '[project]\nname = "b"\nversion = "1.0.0"\ndynamic = ["readme"]\n')
    assert.deepEqual(findManifest(new Map([['pyproject.toml', Buffer.from(out)]])), { file: 'pyproject.toml', name: 'acme-api', version: '3.0.0rc1' })
  })

  it('a gemspec: the name, and the version as a literal (a constant would keep the old one)', () => {
    const src = "Gem::Specification.new do |spec|\n  spec.name = 'svc-client'\n  spec.version = Svc::VERSION\n  spec.files = Dir['lib/**/*.rb', 'svc-client.gemspec']\nend\n"
    const out = applyManifest('svc-client.gemspec', Buffer.from(src), 'acme-api', '3.0.0.beta1')
    assert.equal(out.file, 'svc-client.gemspec', 'its files list may name it')
    assert.equal(text(out), src.replace("'svc-client'\n", '"acme-api"\n').replace('Svc::VERSION', '"3.0.0.beta1"'))
    assert.deepEqual(
      findManifest(
        new Map([
          ['svc-client.gemspec', Buffer.from(src)],
          ['README.md', Buffer.from('')],
        ]),
      ),
      { file: 'svc-client.gemspec', name: 'svc-client', version: null },
    )
  })

  it('the client’s own version constant follows the package version; the API version stays', () => {
    const files = new Map([
      ['src/generated/version.ts', "export const VERSION = '2.4.0'\nexport const API_VERSION = '2.4.0'\n"],
      ['svc/_version.py', 'VERSION = "2.4.0"\n__version__ = VERSION\nAPI_VERSION = "2.4.0"\n'],
      ['src/Version.php', "public const SDK_VERSION = '2.4.0';\npublic const API_VERSION = '2.4.0';\n"],
      ['src/generated/client.ts', "const VERSION = '2.4.0'\n"],
    ])
    const out = applyVersionConstants(files, '3.0.0')
    assert.equal(out.get('src/generated/version.ts'), "export const VERSION = '3.0.0'\nexport const API_VERSION = '2.4.0'\n")
    assert.equal(out.get('svc/_version.py'), 'VERSION = "3.0.0"\n__version__ = VERSION\nAPI_VERSION = "2.4.0"\n')
    assert.equal(out.get('src/Version.php'), "public const SDK_VERSION = '3.0.0';\npublic const API_VERSION = '2.4.0';\n")
    assert.equal(out.get('src/generated/client.ts'), "const VERSION = '2.4.0'\n", 'only files named like version')
  })

  it('names and versions follow each registry’s rules', () => {
    const ok = (lang: keyof typeof PACKAGE_RULES, name: string) => PACKAGE_RULES[lang].name.test(name)
    assert.ok(ok('node', '@acme/api') && ok('node', 'acme-api') && !ok('node', 'Acme') && !ok('node', '@acme/'))
    assert.ok(ok('python', 'Acme.API_client') && !ok('python', '-acme') && !ok('python', 'acme api'))
    assert.ok(ok('php', 'acme/api-client') && !ok('php', 'acme') && !ok('php', 'Acme/Api'))
    assert.ok(ok('ruby', 'acme_api') && !ok('ruby', '_acme'))
    assert.ok(PACKAGE_RULES.node.version.test('1.2.3-beta.1+build.5') && !PACKAGE_RULES.node.version.test('1.2'))
    assert.ok(PACKAGE_RULES.python.version.test('1.2.3.post1') && !PACKAGE_RULES.python.version.test('1.2.3-beta'))
  })

  it('the same generation packs to the same bytes (a re-run after a lost lease rewrites the same file)', async () => {
    const input = () => ({
      runtime: new Map([
        ['package.json', { data: Buffer.from('{"name":"x","version":"1.0.0"}'), mode: 0o644 }],
        ['bin/run.sh', { data: Buffer.from('#!/bin/sh\n'), mode: 0o755 }],
        ['src/generated/old.ts', { data: Buffer.from('stale'), mode: 0o644 }],
      ]),
      generated: new Map([['src/generated/client.ts', 'export {}\n']]),
      packageName: '@acme/api',
      version: '2.0.0',
      provenance: { generation_id: 'sdkgen_1' },
      date: new Date('2026-12-01T09:00:00Z'),
    })
    const a = await buildArchive(input())
    const b = await buildArchive(input())
    assert.ok(a.archive.equals(b.archive))
    assert.equal(a.folder, 'acme-api-2.0.0')
    const JSZip = (await import('jszip')).default
    const zip = await JSZip.loadAsync(a.archive)
    assert.deepEqual(
      Object.keys(zip.files)
        .filter((n) => !zip.files[n].dir)
        .sort(),
      ['acme-api-2.0.0/GENERATION.json', 'acme-api-2.0.0/bin/run.sh', 'acme-api-2.0.0/package.json', 'acme-api-2.0.0/src/generated/client.ts'],
    )
    assert.equal(Number(zip.files['acme-api-2.0.0/bin/run.sh'].unixPermissions) & 0o777, 0o755)
    assert.deepEqual(JSON.parse(await zip.file('acme-api-2.0.0/package.json')!.async('string')), { name: '@acme/api', version: '2.0.0' })
  })
})
