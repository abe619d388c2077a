import { readdirSync, readFileSync, statSync } from 'node:fs'
import { join } from 'node:path'
import { applyManifest, applyVersionConstants, findManifest } from './sdk-manifest.js'

// One client as a package archive: the hand-written runtime of its folder (sdk/<language>/), the files the
// generator writes now laid over it (their version constant set to the package version), the package
// manifest renamed and re-versioned, in a ZIP under one top folder `<name>-<version>/`.

/** Folders never packed: dependencies, build output, caches of test runs. */
const SKIPPED_DIRS = new Set([
  'node_modules',
  'dist',
  'build',
  'vendor',
  'coverage',
  'tmp',
  '.tmp',
  '.git',
  '.bundle',
  '__pycache__',
  '.pytest_cache',
  '.mypy_cache',
  '.ruff_cache',
  '.phpunit.cache',
  '.venv',
  'venv',
])
/**
 * Files never packed: bytecode and logs, built packages, and `*.test.ts` — the service repository's driver
 * of a client's suite (it starts this server in-process); the client's own tests are packed.
 */
const SKIPPED_FILES = [/\.py[co]$/, /\.log$/, /\.tgz$/, /\.gem$/, /^\.DS_Store$/, /^\.phpunit\.result\.cache$/, /\.test\.ts$/]
const SKIPPED_DIR_PATTERNS = [/\.egg-info$/]

export interface SourceFile {
  data: Buffer
  /** Unix permission bits (an executable script stays executable). */
  mode: number
}

/** The runtime files of a client folder, by path relative to it (POSIX separators), in name order. */
export function readRuntime(dir: string): Map<string, SourceFile> {
  const out = new Map<string, SourceFile>()
  const walk = (rel: string) => {
    for (const entry of readdirSync(join(dir, rel), { withFileTypes: true }).sort((a, b) => a.name.localeCompare(b.name))) {
      const path = rel ? `${rel}/${entry.name}` : entry.name
      if (entry.isDirectory()) {
        if (!SKIPPED_DIRS.has(entry.name) && !SKIPPED_DIR_PATTERNS.some((p) => p.test(entry.name))) walk(path)
      } else if (entry.isFile() && !SKIPPED_FILES.some((p) => p.test(entry.name))) {
        const full = join(dir, path)
        out.set(path, { data: readFileSync(full), mode: statSync(full).mode & 0o777 })
      }
      // Links and other special files are not packed: an archive must not point outside itself.
    }
  }
  walk('')
  return out
}

/**
 * The folders the generator owns: for each generated file, its path up to the first folder whose name says
 * "generated". Committed files in them that the generator no longer writes are stale and left out.
 */
export function generatedRoots(paths: Iterable<string>): Set<string> {
  const roots = new Set<string>()
  for (const p of paths) {
    const parts = p.split('/')
    const at = parts.slice(0, -1).findIndex((s) => /generated/i.test(s))
    if (at >= 0) roots.add(parts.slice(0, at + 1).join('/') + '/')
  }
  return roots
}

export interface ArchiveInput {
  runtime: Map<string, SourceFile>
  generated: Map<string, string>
  packageName: string
  version: string
  /** Written as GENERATION.json at the top: what the archive was made from. */
  provenance: Record<string, unknown>
  /** Every entry's date (the generation's creation): the same inputs give the same bytes. */
  date: Date
}

export interface BuiltArchive {
  archive: Buffer
  folder: string
  files: number
  /** The manifest that got the name and version, if the client has one. */
  manifest: string | null
}

export const archiveFolder = (packageName: string, version: string) => `${packageName.replace(/^@/, '').replace(/[^A-Za-z0-9._-]+/g, '-')}-${version}`

export async function buildArchive(input: ArchiveInput): Promise<BuiltArchive> {
  const roots = generatedRoots(input.generated.keys())
  const files = new Map<string, SourceFile>()
  for (const [path, file] of input.runtime) if (![...roots].some((r) => path.startsWith(r))) files.set(path, file)
  for (const [path, text] of applyVersionConstants(input.generated, input.version)) files.set(path, { data: Buffer.from(text, 'utf8'), mode: 0o644 })

  let manifest: string | null = null
  const found = findManifest(new Map([...files].map(([p, f]) => [p, f.data])))
  if (found) {
    const before = files.get(found.file)!
    const applied = applyManifest(found.file, before.data, input.packageName, input.version)
    files.delete(found.file)
    files.set(applied.file, { data: applied.content, mode: before.mode })
    manifest = applied.file
  }

  // Loaded when an archive is made, not in every process (scripts/build.mjs keeps it external).
  const { default: JSZip } = await import('jszip')
  const zip = new JSZip()
  const folder = archiveFolder(input.packageName, input.version)
  const paths = [...files.keys()].sort()
  // No implicit folder entries: JSZip dates them now, so two packings a second apart differed (unzip makes the folders).
  for (const path of paths) zip.file(`${folder}/${path}`, files.get(path)!.data, { date: input.date, unixPermissions: 0o100000 | files.get(path)!.mode, createFolders: false })
  zip.file(`${folder}/GENERATION.json`, JSON.stringify({ ...input.provenance, manifest, files: paths }, null, 2) + '\n', { date: input.date, unixPermissions: 0o100644, createFolders: false })
  const archive = await zip.generateAsync({ type: 'nodebuffer', compression: 'DEFLATE', platform: 'UNIX' })
  return { archive, folder, files: paths.length + 1, manifest }
}
