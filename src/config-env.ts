// Reads the environment against its one declaration (src/config-schema.ts): every variable is converted from
// its text and checked at start, all faults are reported together (name, what was expected, what was got),
// unknown SVC_ names and likely typos of known names are warned about, and the README's table is made here.
import type { TSchema } from 'typebox'
import { Value } from 'typebox/value'
import { ENV_READ_ELSEWHERE, ENV_SCHEMA, type EnvName, type EnvValues } from './config-schema.js'

/** Thrown by readEnv: one line per faulty variable, so an operator fixes them all in one go. */
export class ConfigError extends Error {
  override name = 'ConfigError'
  constructor(readonly problems: string[]) {
    super(problems.length === 1 ? problems[0] : `invalid configuration:\n  ${problems.join('\n  ')}`)
  }
}

type Schema = TSchema & Record<string, unknown>
const NAMES = Object.keys(ENV_SCHEMA.properties) as EnvName[]
const schemaOf = (name: EnvName) => ENV_SCHEMA.properties[name] as unknown as Schema
const literals = (s: Schema): string[] | null => (Array.isArray(s.anyOf) ? (s.anyOf as Schema[]).map((l) => String(l.const)) : null)

/** What a variable must be, in words (for errors and nothing else). */
export function expectedOf(name: EnvName): string {
  const s = schemaOf(name)
  if (typeof s['x-expected'] === 'string') return s['x-expected']
  const options = literals(s)
  if (options) return `one of ${options.join(', ')}`
  if (s.type === 'boolean') return 'on or off (true/false, yes/no, 1/0)'
  if (s.type === 'integer' || s.type === 'number') {
    const kind = s.type === 'integer' ? 'a whole number' : 'a number'
    const min = s.minimum as number | undefined
    if (s.maximum !== undefined) return `${kind} from ${min ?? 0} to ${String(s.maximum)}`
    return min ? `${kind} of at least ${min}` : `${kind} (0 or more)`
  }
  return 'text'
}

const TRUE = /^(1|true|yes|on)$/i
const FALSE = /^(0|false|no|off)$/i

/** The raw text as the schema's type, or undefined when it cannot be one (then the check names the fault). */
function convert(s: Schema, raw: string): unknown {
  const options = literals(s)
  if (options) return options.find((o) => o === raw.trim().toLowerCase()) ?? raw
  if (s.type === 'boolean') return TRUE.test(raw.trim()) ? true : FALSE.test(raw.trim()) ? false : raw
  if (s.type === 'integer' || s.type === 'number') return /^\s*-?\d+(\.\d+)?\s*$/.test(raw) ? Number(raw) : raw
  return raw
}

/**
 * Every declared variable, converted and checked; the default where unset or empty (as before: an empty
 * variable counts as unset). Throws a ConfigError naming every faulty one.
 */
export function readEnv(env: NodeJS.ProcessEnv): EnvValues {
  const values: Record<string, unknown> = {}
  const problems: string[] = []
  for (const name of NAMES) {
    const s = schemaOf(name)
    const raw = env[name]
    if (raw === undefined || raw === '') {
      values[name] = s.default
      continue
    }
    const value = convert(s, raw)
    if (Value.Check(s, value)) values[name] = value
    else problems.push(`${name} must be ${expectedOf(name)}, got ${s['x-secret'] ? `a value of ${raw.length} characters` : JSON.stringify(raw)}`)
  }
  if (problems.length) throw new ConfigError(problems)
  return values as EnvValues
}

/** Optimal string alignment distance (a swap of neighbours counts 1): typos, not synonyms. */
function distance(a: string, b: string): number {
  const d = Array.from({ length: a.length + 1 }, (_, i) => Array.from({ length: b.length + 1 }, (_, j) => (i === 0 ? j : j === 0 ? i : 0)))
  for (let i = 1; i <= a.length; i++) {
    for (let j = 1; j <= b.length; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1
      d[i][j] = Math.min(d[i - 1][j] + 1, d[i][j - 1] + 1, d[i - 1][j - 1] + cost)
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) d[i][j] = Math.min(d[i][j], d[i - 2][j - 2] + 1)
    }
  }
  return d[a.length][b.length]
}

/** The known name a stray one was probably meant to be: one edit away (two for long names), or missing its unit. */
function likelyMeant(name: string): EnvName | null {
  const upper = name.toUpperCase()
  for (const known of NAMES) {
    if (upper === known) return known // lower-case spelling: env names are case-sensitive
    const allowed = known.length >= 10 ? 2 : 1
    if (Math.abs(known.length - upper.length) <= allowed && distance(upper, known) <= allowed) return known
    if (upper.includes('_') && /_(MS|SECONDS|HOURS|BYTES|MB)$/.test(known) && known.startsWith(`${upper}_`)) return known
  }
  return null
}

/**
 * Names the service does not read but probably should have: any SVC_ name it does not know, and near misses
 * of known names (PROT, DATABSE_URL, WEBHOOK_TIMEOUT). Warnings, not errors: the environment is shared with
 * everything else on the host.
 */
export function envWarnings(env: NodeJS.ProcessEnv): string[] {
  const known = new Set<string>([...NAMES, ...ENV_READ_ELSEWHERE])
  const warnings: string[] = []
  for (const name of Object.keys(env).sort()) {
    if (known.has(name)) continue
    const meant = likelyMeant(name)
    if (meant) warnings.push(`${name} is not a setting of this service; did you mean ${meant}?`)
    else if (name.startsWith('SVC_')) warnings.push(`${name} is not a setting of this service (unknown SVC_ name; see the README's configuration table)`)
  }
  return warnings
}

const code = (v: unknown) => `\`${String(v)}\``
function defaultCell(name: EnvName): string {
  const s = schemaOf(name)
  if (typeof s['x-default'] === 'string') return s['x-default']
  return s.default === undefined ? '—' : code(s.default)
}

/** The README's configuration table, one row per variable or per group of variables that share a row. */
export function configTable(): string {
  const rows: { names: EnvName[]; meaning: string }[] = []
  for (const name of NAMES) {
    const row = schemaOf(name)['x-row'] as EnvName | undefined
    const owner = row && rows.find((r) => r.names[0] === row)
    if (owner) owner.names.push(name)
    else rows.push({ names: [name], meaning: String(schemaOf(name).description ?? '') })
  }
  const lines = ['| variable | default | meaning |', '|---|---|---|']
  for (const r of rows) lines.push(`| ${r.names.map(code).join(', ')} | ${r.names.map(defaultCell).join(', ')} | ${r.meaning} |`)
  return lines.join('\n')
}
