import { documentedForm } from './multipart.js'

/**
 * TypeBox → OpenAPI 3.1 (JSON Schema 2020-12) with named components: every named schema (a `$id` or a
 * `title`) becomes a `components.schemas` entry referenced by `$ref`, rewritten into the forms client
 * generators read (see `simplify`). Also the words operation and event names are built from.
 */

export type Json = Record<string, unknown>

export const ref = (kind: 'schemas' | 'parameters' | 'headers' | 'requestBodies', name: string) => ({ $ref: `#/components/${kind}/${name}` })

export const isObject = (v: unknown): v is Json => typeof v === 'object' && v !== null && !Array.isArray(v)

/** The component name of a schema: its `$id` (last segment of a URI) or its `title`. */
export function schemaName(schema: unknown): string | null {
  if (!isObject(schema)) return null
  const id = typeof schema.$id === 'string' ? schema.$id.replace(/#.*$/, '').split(/[/:]/).pop() : undefined
  const name = id || (typeof schema.title === 'string' ? schema.title : undefined)
  if (!name) return null
  if (!/^[A-Za-z0-9._-]+$/.test(name)) throw new Error(`OpenAPI: schema name ${JSON.stringify(name)} is not a valid component name`)
  return name
}

const SUBSCHEMA_MAPS = ['properties', 'patternProperties', '$defs', 'dependentSchemas'] as const
const SUBSCHEMA_LISTS = ['anyOf', 'oneOf', 'allOf', 'prefixItems'] as const
const SUBSCHEMA_ONE = ['items', 'additionalProperties', 'not', 'contains', 'propertyNames', 'if', 'then', 'else', 'unevaluatedProperties', 'unevaluatedItems'] as const
const PRIMITIVE = new Set(['string', 'number', 'integer', 'boolean'])

/** A one-value branch `{ type?, const }` (TypeBox Literal) or `{ type?, enum: [v] }`; its value. */
function singleValue(s: unknown): { type?: string; value: unknown } | null {
  if (!isObject(s)) return null
  const keys = Object.keys(s).filter((k) => k !== 'type')
  if (keys.length !== 1) return null
  if (s.type !== undefined && typeof s.type !== 'string') return null
  if ('const' in s) return { type: s.type as string | undefined, value: s.const }
  if (Array.isArray(s.enum) && s.enum.length === 1) return { type: s.type as string | undefined, value: s.enum[0] }
  return null
}

/** Whether a schema gives a property (its own or a nested object's) a `default`. */
function hasPropertyDefaults(schema: unknown): boolean {
  if (!isObject(schema)) return false
  if (isObject(schema.properties) && Object.values(schema.properties).some((p) => isObject(p) && 'default' in p)) return true
  for (const k of SUBSCHEMA_MAPS) if (isObject(schema[k]) && Object.values(schema[k]).some(hasPropertyDefaults)) return true
  for (const k of SUBSCHEMA_LISTS) if (Array.isArray(schema[k]) && (schema[k] as unknown[]).some(hasPropertyDefaults)) return true
  return SUBSCHEMA_ONE.some((k) => hasPropertyDefaults(schema[k]))
}

export class SchemaRegistry {
  readonly schemas: Record<string, Json> = {}
  readonly requestBodies: Record<string, Json> = {}
  private readonly canonical = new Map<string, string>()
  private readonly pending = new Set<string>()

  /** A schema for use anywhere in the document: named schemas become `$ref`s to their component. */
  use(schema: unknown, fallbackName?: string): Json {
    const name = schemaName(schema) ?? fallbackName
    if (name) return this.hoist(name, schema as Json)
    return this.convert(schema as Json)
  }

  /** Registers a schema component under `name` (a different schema under the same name is an error). */
  hoist(name: string, schema: Json): Json {
    if (this.pending.has(name)) return ref('schemas', name) // recursive use while converting itself
    this.pending.add(name)
    const converted = this.convert(schema, { root: true })
    this.pending.delete(name)
    this.register('schemas', name, converted)
    return ref('schemas', name)
  }

  /**
   * A named request body: a `components.requestBodies` entry holding its schema. A body's schema (and a
   * named part of it with property defaults) stays inside the request body rather than in
   * `components.schemas`: generators such as openapi-typescript read a property with a `default` as always
   * present in a schema component (true of responses), but as optional under a request body.
   */
  requestBody(name: string, body: Json, schema: Json, form?: Json): Json {
    const content: Json = { 'application/json': { schema: this.convert(schema, { root: true, input: true }) } }
    if (form) content['multipart/form-data'] = { schema: this.convert(documentedForm(form) as Json, { root: true, input: true }) }
    const converted = { ...body, content }
    this.register('requestBodies', name, converted)
    return ref('requestBodies', name)
  }

  private register(kind: 'schemas' | 'requestBodies', name: string, value: Json): void {
    const text = JSON.stringify(value)
    const key = `${kind}/${name}`
    const known = this.canonical.get(key)
    if (known !== undefined && known !== text) {
      throw new Error(`OpenAPI: two different ${kind} are named ${name}; give one of them another $id/title`)
    }
    this.canonical.set(key, text)
    this[kind][name] = value
  }

  /** A deep copy in OpenAPI 3.1 form; named subschemas are hoisted (the root itself is not when `root`). */
  convert(schema: Json, opts: { root?: boolean; input?: boolean } = {}): Json {
    if (!isObject(schema)) return schema
    const input = opts.input ?? false
    if (!opts.root) {
      const name = schemaName(schema)
      if (name && !(input && hasPropertyDefaults(schema))) return this.hoist(name, schema)
    }
    const sub = (s: unknown) => this.convert(s as Json, { input })
    const out: Json = {}
    for (const [k, v] of Object.entries(schema)) {
      if (k === '$id' || k === '$schema') continue
      if ((SUBSCHEMA_MAPS as readonly string[]).includes(k) && isObject(v)) {
        out[k] = Object.fromEntries(Object.entries(v).map(([p, s]) => [p, sub(s)]))
      } else if ((SUBSCHEMA_LISTS as readonly string[]).includes(k) && Array.isArray(v)) {
        out[k] = v.map(sub)
      } else if ((SUBSCHEMA_ONE as readonly string[]).includes(k) && isObject(v)) {
        out[k] = sub(v)
      } else {
        out[k] = structuredClone(v)
      }
    }
    return simplify(out)
  }
}

/** Generator-friendly equivalents; each rewrite validates exactly the same values. */
function simplify(s: Json): Json {
  // const → a one-value enum (TypeBox Literal), the form every generator reads.
  if ('const' in s && !('enum' in s)) {
    const { const: value, ...rest } = s
    s = { ...rest, enum: [value] }
  }
  // Type.Record(Type.String(), X): the catch-all pattern is additionalProperties.
  if (isObject(s.patternProperties) && !s.properties && s.additionalProperties === undefined) {
    const entries = Object.entries(s.patternProperties)
    if (entries.length === 1 && (entries[0][0] === '^.*$' || entries[0][0] === '^(.*)$')) {
      const { patternProperties: _drop, ...rest } = s
      s = { ...rest, additionalProperties: entries[0][1] }
    }
  }
  if (Array.isArray(s.anyOf)) {
    const branches = s.anyOf as Json[]
    const { anyOf: _drop, ...rest } = s
    // anyOf of one-value branches of one type → enum.
    const singles = branches.map(singleValue)
    if (singles.every((x) => x !== null)) {
      const types = new Set(singles.map((x) => x!.type ?? typeof x!.value))
      if (types.size === 1) {
        const type = singles[0]!.type
        return { ...(type ? { type } : {}), enum: singles.map((x) => x!.value), ...rest }
      }
    }
    // anyOf [simple T, null] → type: [T, "null"] (an enum gains null).
    if (branches.length === 2) {
      const nullIndex = branches.findIndex((b) => isObject(b) && b.type === 'null' && Object.keys(b).length === 1)
      const other = branches[1 - nullIndex]
      if (nullIndex >= 0 && isObject(other) && typeof other.type === 'string' && PRIMITIVE.has(other.type) && !('$ref' in other)) {
        const merged: Json = { ...other, type: [other.type, 'null'] }
        if (Array.isArray(other.enum)) merged.enum = [...other.enum, null]
        for (const [k, v] of Object.entries(rest)) merged[k] = v
        return merged
      }
    }
  }
  return s
}

// ---------------------------------------------------------------------------------------------------
// Words for names and descriptions
// ---------------------------------------------------------------------------------------------------

const ACRONYMS: Record<string, string> = { api: 'API', ai: 'AI', id: 'id', url: 'URL' }
export const words = (name: string): string =>
  name
    .replace(/([a-z0-9])([A-Z])/g, '$1 $2')
    .split(/[\s_.-]+/)
    .map((w) => ACRONYMS[w.toLowerCase()] ?? w.toLowerCase())
    .join(' ')
export const plural = (phrase: string): string => phrase.replace(/(\w+)$/, (w) => (/[^aeiou]y$/.test(w) ? `${w.slice(0, -1)}ies` : /(s|x|ch|sh)$/.test(w) ? `${w}es` : `${w}s`))
export const pascal = (s: string): string =>
  s
    .split(/[^A-Za-z0-9]+/)
    .filter(Boolean)
    .map((w) => w[0].toUpperCase() + w.slice(1))
    .join('')
export const camel = (s: string): string => {
  const p = pascal(s)
  return p[0].toLowerCase() + p.slice(1)
}
