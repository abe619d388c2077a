import type { TerraformAttribute, TerraformResource } from './terraform-attributes.js'
import { TERRAFORM_RESOURCES } from './terraform-catalog.js'

type Json = Record<string, unknown>

/** The objects of one resource type to write, as the API shows them. */
export interface HclGroup {
  resource: TerraformResource
  objects: Json[]
  /** More objects exist than were exported (the export's per-type cap). */
  truncated?: boolean
}

export interface HclExport {
  /** Comment lines at the top. */
  header: string[]
  /** The import id of a singleton (the workspace id). */
  workspaceId: string
  groups: HclGroup[]
}

/**
 * A Terraform configuration of existing objects: per object an `import` block (Terraform ≥ 1.5) and a
 * `resource` block with the current values of its configurable attributes (required or optional; never
 * computed-only ones, never sensitive ones, which the API does not show back anyway). Block labels come
 * from the objects' names, made valid identifiers and unique per type (the oldest object keeps the plain name). `terraform plan` after pasting it
 * imports everything and plans no change.
 */
export function renderHcl(input: HclExport): string {
  const out = input.header.map((l) => `# ${l}`.trimEnd())
  for (const group of input.groups) {
    const def = TERRAFORM_RESOURCES.find((d) => d.type === group.resource.type)
    const used = new Set<string>()
    out.push('', `# ${group.resource.type}: ${group.objects.length} object${group.objects.length === 1 ? '' : 's'}${group.truncated ? ' (more exist; export per type is capped)' : ''}`)
    // Oldest first (ids sort by creation time): a new object never takes the label of one exported before.
    const objects = [...group.objects].sort((a, b) => (String(a.id ?? '') < String(b.id ?? '') ? -1 : String(a.id ?? '') > String(b.id ?? '') ? 1 : 0))
    for (const object of objects) {
      const fallback = group.resource.type.replace(/^svc_/, '')
      const label = def?.singleton ? 'workspace' : unique(hclLabel(labelSource(object, def?.labelFrom ?? ['name']) ?? '', fallback), used)
      const id = def?.singleton ? input.workspaceId : String(object[group.resource.import.by] ?? '')
      out.push('', 'import {', `  to = ${group.resource.type}.${label}`, `  id = ${hclString(id)}`, '}', '')
      out.push(`resource ${hclString(group.resource.type)} ${hclString(label)} {`, ...body(group.resource.attributes, object), '}')
    }
  }
  return `${out.join('\n')}\n`
}

/** The attributes a configuration sets: required or optional ones that are not secrets. */
const configurable = (a: TerraformAttribute) => (a.required || a.optional) && !a.sensitive

/** An object's configurable values; nested objects keep only their own configurable attributes. */
export function configurationOf(attributes: TerraformAttribute[], object: Json): Json {
  const out: Json = {}
  for (const a of attributes.filter(configurable)) {
    const v = object[a.name]
    if (v === undefined || v === null) continue
    out[a.name] = a.attributes ? nestedValue(a, v) : v
  }
  return out
}

function nestedValue(a: TerraformAttribute, v: unknown): unknown {
  const inner = (x: unknown) => (isObj(x) ? configurationOf(a.attributes!, x) : x)
  if (a.type === 'object') return inner(v)
  if (a.type === 'list' && Array.isArray(v)) return v.map(inner)
  if (a.type === 'map' && isObj(v)) return Object.fromEntries(Object.entries(v).map(([k, x]) => [k, inner(x)]))
  return v
}

function body(attributes: TerraformAttribute[], object: Json): string[] {
  const values = Object.entries(configurationOf(attributes, object))
  const width = Math.max(0, ...values.map(([k]) => hclKey(k).length))
  return values.map(([k, v]) => `  ${hclKey(k).padEnd(width)} = ${hclValue(v, 1)}`)
}

const isObj = (v: unknown): v is Json => typeof v === 'object' && v !== null && !Array.isArray(v)
const pad = (n: number) => '  '.repeat(n)

/** A value as an HCL expression: literals, tuples `[…]` and objects `{ key = value }`. */
export function hclValue(v: unknown, indent = 0): string {
  if (v === null || v === undefined) return 'null'
  if (typeof v === 'string') return hclString(v)
  if (typeof v === 'number') return Number.isFinite(v) ? String(v) : 'null'
  if (typeof v === 'boolean') return String(v)
  if (Array.isArray(v)) {
    if (v.length === 0) return '[]'
    const scalars = v.every((x) => x === null || typeof x !== 'object')
    const inline = `[${v.map((x) => hclValue(x, indent)).join(', ')}]`
    if (scalars && inline.length <= 100) return inline
    return `[\n${v.map((x) => `${pad(indent + 1)}${hclValue(x, indent + 1)},\n`).join('')}${pad(indent)}]`
  }
  if (isObj(v)) {
    const entries = Object.entries(v)
    if (entries.length === 0) return '{}'
    return `{\n${entries.map(([k, x]) => `${pad(indent + 1)}${hclKey(k)} = ${hclValue(x, indent + 1)}\n`).join('')}${pad(indent)}}`
  }
  return hclString(String(v))
}

/** An object key: bare when it is an identifier, else a quoted string (map keys such as `plan-tier`, `a b`). */
const hclKey = (k: string) => (/^[A-Za-z_][A-Za-z0-9_]*$/.test(k) ? k : hclString(k))

/**
 * A quoted template string holding exactly `s`: JSON-like escapes, control characters as `\uNNNN`, and
 * the template introducers `${` and `%{` doubled so they stay literal text.
 */
export function hclString(s: string): string {
  let out = ''
  for (const ch of s) {
    const code = ch.codePointAt(0)!
    if (ch === '"') out += '\\"'
    else if (ch === '\\') out += '\\\\'
    else if (ch === '\n') out += '\\n'
    else if (ch === '\r') out += '\\r'
    else if (ch === '\t') out += '\\t'
    else if (code < 0x20 || code === 0x7f) out += `\\u${code.toString(16).padStart(4, '0')}`
    else out += ch
  }
  // A function replacement: in a replacement string `$$` would itself mean one `$`.
  return `"${out.replaceAll('${', () => '$${').replaceAll('%{', () => '%%{')}"`
}

function labelSource(object: Json, fields: string[]): string | null {
  for (const f of fields) {
    const v = object[f]
    if (typeof v !== 'string' || !v.trim()) continue
    // A URL names its block by host and path (`https://hooks.example.com/crm` → hooks_example_com_crm).
    if (/^https?:\/\//i.test(v)) {
      try {
        const u = new URL(v)
        return `${u.hostname}${u.pathname}`
      } catch {
        return v
      }
    }
    return v
  }
  return null
}

/**
 * A Terraform identifier from a name: accents dropped, lower case, every run of other characters one
 * `_`, at most 60 characters, starting with a letter (else prefixed with the type's noun).
 */
export function hclLabel(name: string, fallback: string): string {
  const base = name
    .normalize('NFKD')
    .replace(/\p{M}+/gu, '')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '_')
    .replace(/^_+|_+$/g, '')
    .slice(0, 60)
    .replace(/_+$/, '')
  if (!base) return fallback
  return /^[a-z]/.test(base) ? base : `${fallback}_${base}`
}

function unique(label: string, used: Set<string>): string {
  let candidate = label
  for (let n = 2; used.has(candidate); n++) candidate = `${label}_${n}`
  used.add(candidate)
  return candidate
}
