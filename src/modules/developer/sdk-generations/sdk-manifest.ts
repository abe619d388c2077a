import type { SdkLanguage } from './sdk-folder.js'

// Package names and versions per ecosystem, and how each package manifest of a client carries them. A
// manifest is edited line by line where it is not JSON (pyproject.toml, *.gemspec), so the rest of the
// author's file — comments, order, formatting — stays as written.

export interface PackageRules {
  /** What a package name must look like in this ecosystem. */
  name: RegExp
  nameHint: string
  version: RegExp
  versionHint: string
  /** The name when the client's own manifest has none. */
  defaultName: string
}

const SEMVER = /^(0|[1-9]\d*)\.(0|[1-9]\d*)\.(0|[1-9]\d*)(-[0-9A-Za-z-]+(\.[0-9A-Za-z-]+)*)?(\+[0-9A-Za-z-]+(\.[0-9A-Za-z-]+)*)?$/

export const PACKAGE_RULES: Record<SdkLanguage, PackageRules> = {
  node: {
    // npm: lower case, URL-safe, optionally scoped, at most 214 characters.
    name: /^(?=.{1,214}$)(@[a-z0-9-~][a-z0-9-._~]*\/)?[a-z0-9-~][a-z0-9-._~]*$/,
    nameHint: 'an npm package name: lower case, optionally scoped (@scope/name)',
    version: SEMVER,
    versionHint: 'a semantic version such as 2.4.0 or 2.4.0-beta.1',
    defaultName: '@svc/client',
  },
  python: {
    // PEP 508 distribution names.
    name: /^(?=.{1,100}$)([A-Za-z0-9]|[A-Za-z0-9][A-Za-z0-9._-]*[A-Za-z0-9])$/,
    nameHint: 'a PyPI distribution name (letters, digits, . _ -; starting and ending with a letter or digit)',
    // PEP 440 public versions (the usual forms: 2.4.0, 2.4.0rc1, 2.4.0.post1, 2.4.0.dev3).
    version: /^(\d+!)?\d+(\.\d+)*((a|b|rc)\d+)?(\.post\d+)?(\.dev\d+)?$/,
    versionHint: 'a PEP 440 version such as 2.4.0 or 2.4.0rc1',
    defaultName: 'svc-client',
  },
  php: {
    // Composer: vendor/package, lower case.
    name: /^(?=.{1,200}$)[a-z0-9]([_.-]?[a-z0-9]+)*\/[a-z0-9](([_.]|-{1,2})?[a-z0-9]+)*$/,
    nameHint: 'a Composer package name vendor/package in lower case',
    version: /^\d+\.\d+\.\d+(-(alpha|beta|RC)\d*)?$/,
    versionHint: 'a Composer version such as 2.4.0 or 2.4.0-beta1',
    defaultName: 'svc/client',
  },
  ruby: {
    name: /^(?=.{1,100}$)[A-Za-z0-9][A-Za-z0-9._-]*$/,
    nameHint: 'a gem name (letters, digits, . _ -)',
    // Gem::Version: dot-separated; a letter segment marks a prerelease (2.4.0.beta1).
    version: /^\d+(\.\d+)*(\.[A-Za-z][0-9A-Za-z]*)?$/,
    versionHint: 'a gem version such as 2.4.0 or 2.4.0.beta1',
    defaultName: 'svc-client',
  },
}

/** A client's package manifest: the file (relative to its folder), its name and version when it states them. */
export interface ManifestInfo {
  file: string
  name: string | null
  version: string | null
}

/** The `[project]` table of a pyproject.toml: its first and last line index (exclusive). */
function projectTable(lines: string[]): [number, number] | null {
  const start = lines.findIndex((l) => /^\s*\[project\]\s*(#.*)?$/.test(l))
  if (start < 0) return null
  let end = start + 1
  while (end < lines.length && !/^\s*\[/.test(lines[end])) end++
  return [start, end]
}
const tomlString = (line: string | undefined, key: string) => (line ? (new RegExp(`^\\s*${key}\\s*=\\s*["']([^"']*)["']`).exec(line)?.[1] ?? null) : null)
const rubyString = (text: string, attr: string) => new RegExp(`\\.${attr}\\s*=\\s*["']([^"']+)["']`).exec(text)?.[1] ?? null

/** Which manifest a file is, by name: the first one of a folder's files wins (see `findManifest`). */
export function manifestKind(path: string): 'package.json' | 'pyproject.toml' | 'composer.json' | 'gemspec' | null {
  if (path === 'package.json' || path === 'pyproject.toml' || path === 'composer.json') return path
  return !path.includes('/') && path.endsWith('.gemspec') ? 'gemspec' : null
}

/** The package manifest among a client's files (top-level only), read. */
export function findManifest(files: Map<string, Buffer>): ManifestInfo | null {
  const file = [...files.keys()].filter((p) => manifestKind(p)).sort()[0]
  if (!file) return null
  const text = files.get(file)!.toString('utf8')
  switch (manifestKind(file)) {
    case 'package.json':
    case 'composer.json': {
      const json = JSON.parse(text) as { name?: unknown; version?: unknown }
      return { file, name: typeof json.name === 'string' ? json.name : null, version: typeof json.version === 'string' ? json.version : null }
    }
    case 'pyproject.toml': {
      const lines = text.split('\n')
      const table = projectTable(lines)
      const body = table ? lines.slice(table[0] + 1, table[1]) : []
      return {
        file,
        name: tomlString(
          body.find((l) => /^\s*name\s*=/.test(l)),
          'name',
        ),
        version: tomlString(
          body.find((l) => /^\s*version\s*=/.test(l)),
          'version',
        ),
      }
    }
    default:
      return { file, name: rubyString(text, 'name'), version: rubyString(text, 'version') }
  }
}

/**
 * The manifest with `name` and `version` applied; returns its path and content. A gemspec keeps its file name
 * (its `files` list may name it); a version it read from a constant becomes the literal. A pyproject.toml
 * whose version was `dynamic` gets it written in.
 */
export function applyManifest(file: string, content: Buffer, name: string, version: string): { file: string; content: Buffer } {
  const text = content.toString('utf8')
  const kind = manifestKind(file)
  if (kind === 'package.json' || kind === 'composer.json') {
    const json = JSON.parse(text) as Record<string, unknown>
    const indent = /^\{\s*\n([ \t]+)"/.exec(text)?.[1] ?? '  '
    // name and version first, as npm and Composer write them; the rest in the author's order.
    const { name: _n, version: _v, ...rest } = json
    return { file, content: Buffer.from(JSON.stringify({ name, version, ...rest }, null, indent) + '\n') }
  }
  if (kind === 'pyproject.toml') {
    const lines = text.split('\n')
    let table = projectTable(lines)
    if (!table) {
      lines.push('', '[project]')
      table = [lines.length - 1, lines.length]
    }
    const start = table[0]
    let end = table[1]
    const at = (key: string) => lines.slice(start + 1, end).findIndex((l) => new RegExp(`^\\s*${key}\\s*=`).test(l))
    /** Replaces the key's line, or adds one after `after`'s (else first in the table). */
    const set = (key: string, value: string, after: string | null) => {
      const line = `${key} = ${JSON.stringify(value)}`
      if (at(key) >= 0) lines[start + 1 + at(key)] = line
      else {
        lines.splice(start + 1 + (after && at(after) >= 0 ? at(after) + 1 : 0), 0, line)
        end++
      }
    }
    // A version read from a file at build time (dynamic) would not be the one asked for.
    const dynamic = at('dynamic')
    if (dynamic >= 0) {
      lines[start + 1 + dynamic] = lines[start + 1 + dynamic].replace(
        /\[([^\]]*)\]/,
        (_, items: string) =>
          `[${items
            .split(',')
            .map((i) => i.trim())
            .filter((i) => i && !/^["']version["']$/.test(i))
            .join(', ')}]`,
      )
    }
    set('name', name, null)
    set('version', version, 'name')
    return { file, content: Buffer.from(lines.join('\n')) }
  }
  if (kind === 'gemspec') {
    let out = text.replace(/(\.name\s*=\s*)(["'])[^"']*\2/, `$1${JSON.stringify(name)}`)
    out = /\.version\s*=/.test(out) ? out.replace(/(\.version\s*=\s*)[^\n]+/, `$1${JSON.stringify(version)}`) : out
    return { file, content: Buffer.from(out) }
  }
  return { file, content }
}

/** `VERSION = '…'` or `SDK_VERSION = "…"` (not API_VERSION): a client's own version constant. */
const VERSION_CONSTANT = /\b((?:SDK_)?VERSION\s*=\s*)(["'])[^"'\n]*\2/g

/**
 * The package version as the client's own version constant too (User-Agent, `VERSION`), so the package and
 * the code it holds agree: in the generated files named like `version` (version.ts, _version.py, version.rb,
 * Version.php), the `VERSION` / `SDK_VERSION` string constants. `API_VERSION` stays the document's.
 */
export function applyVersionConstants(files: Map<string, string>, version: string): Map<string, string> {
  const out = new Map<string, string>()
  for (const [path, text] of files) {
    const name = path.split('/').pop()!
    out.set(path, /version/i.test(name) ? text.replace(VERSION_CONSTANT, (_, lhs: string, q: string) => `${lhs}${q}${version}${q}`) : text)
  }
  return out
}
