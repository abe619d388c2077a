import type { TerraformAttribute, TerraformResource } from './terraform-attributes.js'
import { TERRAFORM_RESOURCES } from './terraform-catalog.js'
import { importIdOf, type RestMapping } from './terraform-restapi.js'

type Json = Record<string, unknown>

/** The objects of one resource type to write, as the API shows them. */
export interface HclGroup {
  resource: TerraformResource
  /** How the restapi provider reaches the type (terraform-restapi.ts). */
  mapping: RestMapping
  objects: Json[]
  /** More objects exist than were exported (the export's per-type cap). */
  truncated?: boolean
}

export interface HclExport {
  /** Comment lines at the top. */
  header: string[]
  /** The API's base URL for the key's mode (`https://host/v2` or `…/sandbox/v2`): the provider's `uri`. */
  uri: string
  groups: HclGroup[]
}

/** The provider on the public registry the export is written for, and the versions it was checked against. */
export const RESTAPI_PROVIDER = { source: 'Mastercard/restapi', version: '~> 3.0' }

/** The `terraform`, `variable` and `provider` blocks: `terraform init` finds the provider; the key comes from a variable. */
function providerBlocks(uri: string): string[] {
  return [
    'terraform {',
    '  required_version = ">= 1.5" # import blocks',
    '  required_providers {',
    '    restapi = {',
    `      source  = ${hclString(RESTAPI_PROVIDER.source)}`,
    `      version = ${hclString(RESTAPI_PROVIDER.version)}`,
    '    }',
    '  }',
    '}',
    '',
    'variable "svc_api_key" {',
    '  description = "An API key of this workspace and mode with the write scopes of the objects below (TF_VAR_svc_api_key)."',
    '  type        = string',
    '  sensitive   = true',
    '}',
    '',
    'provider "restapi" {',
    `  uri                  = ${hclString(uri)}`,
    '  bearer_token         = var.svc_api_key',
    '  id_attribute         = "id"',
    '  update_method        = "PATCH"',
    '  write_returns_object = true',
    '}',
  ]
}

/**
 * A Terraform configuration of existing objects for the Mastercard/restapi provider: per object an `import`
 * block (Terraform ≥ 1.5; id `/<path>/<object id>`, as the provider's import reads it) and a `restapi_object`
 * whose `data` holds the current values of its configurable attributes (required or optional; never
 * computed-only ones, never sensitive ones, which the API does not show back anyway). A type the API reads
 * only as a list cannot be imported by that provider: its objects are `data "restapi_object"` sources found
 * in the list. Block labels are the type's noun and the object's name, made valid identifiers and unique
 * (the oldest object keeps the plain name).
 */
export function renderHcl(input: HclExport): string {
  const out = [...input.header.map((l) => `# ${l}`.trimEnd()), '', ...providerBlocks(input.uri)]
  const used = new Set<string>()
  for (const group of input.groups) {
    const def = TERRAFORM_RESOURCES.find((d) => d.type === group.resource.type)
    const noun = group.resource.type.replace(/^svc_/, '')
    const n = group.objects.length
    out.push('', `# ${group.resource.type}: ${n} object${n === 1 ? '' : 's'}${group.truncated ? ' (more exist; export per type is capped)' : ''}`)
    for (const note of notes(group)) out.push(`# ${note}`)
    // Oldest first (ids sort by creation time): a new object never takes the label of one exported before.
    const objects = [...group.objects].sort((a, b) => (String(a.id ?? '') < String(b.id ?? '') ? -1 : String(a.id ?? '') > String(b.id ?? '') ? 1 : 0))
    for (const object of objects) {
      const name = def?.singleton ? '' : (labelSource(object, def?.labelFrom ?? ['name']) ?? '')
      const label = unique(hclLabel(name ? `${noun}_${name}` : noun, noun), used)
      const id = String(object[group.resource.import.by] ?? '')
      out.push('', ...(group.mapping.kind === 'data' ? dataBlock(group, label, id) : resourceBlocks(group, label, id, object)))
    }
  }
  return `${out.join('\n')}\n`
}

function notes(group: HclGroup): string[] {
  const m = group.mapping
  const out: string[] = []
  if (m.kind === 'data') out.push('The API reads these only as a list (no GET by id), which the provider cannot import: they are data sources found in the list.')
  else {
    if (m.noDelete) out.push('The API cannot delete these: prevent_destroy stops Terraform from trying (a `removed` block stops managing one).')
    if (m.noUpdate) out.push('The API cannot change these: every attribute forces a new object.')
  }
  return out
}

function dataBlock(group: HclGroup, label: string, id: string): string[] {
  const by = group.resource.import.by
  const lines: [string, string][] = [
    ['path', hclString(group.mapping.path)],
    ['query_string', hclString('limit=100')],
    ['results_key', hclString('data')],
    ['search_key', hclString(by)],
    ['search_value', hclString(id)],
    ...(by === 'id' ? [] : ([['id_attribute', hclString(by)]] as [string, string][])),
  ]
  return [`data "restapi_object" ${hclString(label)} {`, ...aligned(lines), '}']
}

function resourceBlocks(group: HclGroup, label: string, id: string, object: Json): string[] {
  const m = group.mapping
  const data = configurationOf(group.resource.attributes, object)
  const keys = Object.keys(data)
  // Keys the update operation does not take: a change replaces the object, and updates leave them out.
  const forceNew = m.noUpdate ? keys : keys.filter((k) => group.resource.attributes.find((a) => a.name === k)?.force_new)
  const lines: [string, string][] = [
    ['path', hclString(m.path)],
    ...Object.entries(m.settings).map(([k, v]): [string, string] => [k, hclString(v)]),
    ...(m.objectId ? ([['object_id', hclString(m.objectId)]] as [string, string][]) : []),
    // The API answers with more than the configuration (id, timestamps, server defaults): not drift.
    ['ignore_server_additions', 'true'],
    ...(forceNew.length ? ([['force_new', hclValue(forceNew)]] as [string, string][]) : []),
  ]
  const body = [...aligned(lines), `  data = jsonencode(${hclValue(data, 1)})`]
  if (forceNew.length && !m.noUpdate) {
    const updatable = Object.fromEntries(Object.entries(data).filter(([k]) => !forceNew.includes(k)))
    body.push(`  update_data = jsonencode(${hclValue(updatable, 1)})`)
  }
  if (m.noDelete) body.push('  lifecycle {', '    prevent_destroy = true', '  }')
  return ['import {', `  to = restapi_object.${label}`, `  id = ${hclString(importIdOf(m, id))}`, '}', '', `resource "restapi_object" ${hclString(label)} {`, ...body, '}']
}

function aligned(lines: [string, string][]): string[] {
  const width = Math.max(0, ...lines.map(([k]) => k.length))
  return lines.map(([k, v]) => `  ${k.padEnd(width)} = ${v}`)
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
    const entries = Object.entries(v).map(([k, x]): [string, string] => [hclKey(k), hclValue(x, indent + 1)])
    if (entries.length === 0) return '{}'
    return `{\n${formatted(entries, indent + 1)}${pad(indent)}}`
  }
  return hclString(String(v))
}

/**
 * Lines `key = value` as `terraform fmt` writes them: each run of one-line values aligns its `=`; a value
 * spanning lines stands alone and ends the run.
 */
function formatted(entries: [string, string][], indent: number): string {
  let out = ''
  for (let i = 0; i < entries.length;) {
    let j = i
    while (j < entries.length && !entries[j][1].includes('\n')) j++
    if (j === i) j = i + 1
    const width = Math.max(...entries.slice(i, j).map(([k, x]) => (x.includes('\n') ? 0 : k.length)))
    for (const [k, x] of entries.slice(i, j)) out += `${pad(indent)}${x.includes('\n') ? k : k.padEnd(width)} = ${x}\n`
    i = j
  }
  return out
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
