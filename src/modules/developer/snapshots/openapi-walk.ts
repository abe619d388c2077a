/**
 * Reading an OpenAPI 3.1 document as data: local `$ref` resolution with the JSON pointer of what a
 * reference lands on, and the effective shape of a schema across `allOf` / `anyOf` / `oneOf` (types,
 * enum values, properties, required names, items). The diff (openapi-diff.ts) and the Terraform
 * attributes (../terraform) both read schemas through here, so they agree on what a schema means.
 */

export type Json = Record<string, unknown>
/** A node of the document and the JSON pointer where it lives (after following `$ref`s). */
export interface Loc {
  node: Json
  ptr: string
}

export const isObject = (v: unknown): v is Json => typeof v === 'object' && v !== null && !Array.isArray(v)

/** RFC 6901: `~` → `~0`, `/` → `~1`. */
export const escapePointer = (segment: string): string => segment.replaceAll('~', '~0').replaceAll('/', '~1')
const unescapePointer = (segment: string): string => segment.replaceAll('~1', '/').replaceAll('~0', '~')

/** The value at a JSON pointer (`/paths/~1bots/get`), or undefined. */
export function atPointer(doc: unknown, ptr: string): unknown {
  if (ptr === '') return doc
  let cur: unknown = doc
  for (const raw of ptr.slice(1).split('/')) {
    const key = unescapePointer(raw)
    if (Array.isArray(cur)) cur = cur[Number(key)]
    else if (isObject(cur)) cur = cur[key]
    else return undefined
  }
  return cur
}

/**
 * Follows local `$ref`s (`#/components/...`) to the node they name; a chain is followed to its end, a
 * cycle or a reference outside the document stops at the last node found. Siblings of `$ref` (3.1 allows
 * `description` there) do not change the shape and are dropped.
 */
export function resolve(doc: Json, node: unknown, ptr: string): Loc | null {
  let cur = node
  let at = ptr
  const visited = new Set<string>()
  while (isObject(cur) && typeof cur.$ref === 'string' && cur.$ref.startsWith('#')) {
    const target = cur.$ref.slice(1)
    if (visited.has(target)) break
    visited.add(target)
    const next = atPointer(doc, target)
    if (!isObject(next)) break
    cur = next
    at = target
  }
  return isObject(cur) ? { node: cur, ptr: at } : null
}

/** The branches a schema's value may take: itself plus its resolved `allOf` / `anyOf` / `oneOf` parts, recursively. */
function parts(doc: Json, loc: Loc, depth = 0): { loc: Loc; kind: 'self' | 'allOf' | 'anyOf' }[] {
  const out: { loc: Loc; kind: 'self' | 'allOf' | 'anyOf' }[] = [{ loc, kind: 'self' }]
  if (depth > 8) return out
  for (const key of ['allOf', 'anyOf', 'oneOf'] as const) {
    const list = loc.node[key]
    if (!Array.isArray(list)) continue
    list.forEach((branch, i) => {
      const r = resolve(doc, branch, `${loc.ptr}/${key}/${i}`)
      if (!r) return
      for (const p of parts(doc, r, depth + 1)) out.push({ loc: p.loc, kind: key === 'allOf' && p.kind === 'self' ? 'allOf' : p.kind === 'self' ? 'anyOf' : p.kind })
    })
  }
  return out
}

const JSON_TYPES = ['string', 'number', 'integer', 'boolean', 'object', 'array', 'null'] as const

/** The JSON types a value of the schema may have; empty when the schema does not say (any value). */
export function typesOf(doc: Json, loc: Loc): Set<string> {
  const out = new Set<string>()
  for (const { loc: p } of parts(doc, loc)) {
    const t = p.node.type
    if (typeof t === 'string') {
      out.add(t)
    } else if (Array.isArray(t)) {
      for (const x of t) if (typeof x === 'string') out.add(x)
    } else if (Array.isArray(p.node.enum)) {
      for (const v of p.node.enum) out.add(v === null ? 'null' : Array.isArray(v) ? 'array' : typeof v === 'number' ? (Number.isInteger(v) ? 'integer' : 'number') : typeof v)
    } else if (isObject(p.node.properties)) {
      out.add('object')
    }
  }
  return new Set([...out].filter((t) => (JSON_TYPES as readonly string[]).includes(t)))
}

/** The enum values (without null, which is a type) across branches; undefined when no branch has an enum. */
export function enumOf(doc: Json, loc: Loc): unknown[] | undefined {
  let found = false
  const out: unknown[] = []
  for (const { loc: p } of parts(doc, loc)) {
    if (!Array.isArray(p.node.enum)) continue
    found = true
    for (const v of p.node.enum) if (v !== null && !out.some((x) => JSON.stringify(x) === JSON.stringify(v))) out.push(v)
  }
  return found ? out : undefined
}

/**
 * The properties of an object schema, merged over its branches (the first definition of a name wins),
 * each with the pointer of its own schema; `required`: required by the schema itself or an `allOf` part,
 * or by every `anyOf`/`oneOf` branch that defines properties.
 */
export function propertiesOf(doc: Json, loc: Loc): { props: Map<string, Loc>; required: Set<string>; closed: boolean } {
  const props = new Map<string, Loc>()
  const required = new Set<string>()
  let alternatives: Set<string> | null = null
  let closed = false
  for (const { loc: p, kind } of parts(doc, loc)) {
    if (isObject(p.node.properties)) {
      for (const [name, schema] of Object.entries(p.node.properties)) {
        if (props.has(name)) continue
        const r = resolve(doc, schema, `${p.ptr}/properties/${escapePointer(name)}`)
        if (r) props.set(name, r)
      }
    }
    const req = Array.isArray(p.node.required) ? p.node.required.filter((x): x is string => typeof x === 'string') : []
    if (kind === 'anyOf') {
      if (isObject(p.node.properties)) alternatives = alternatives === null ? new Set(req) : new Set(req.filter((x) => alternatives!.has(x)))
    } else for (const r of req) required.add(r)
    if (kind === 'self' && p.node.additionalProperties === false) closed = true
  }
  for (const r of alternatives ?? []) required.add(r)
  return { props, required, closed }
}

/** The schema of an array's items (the first branch that has one). */
export function itemsOf(doc: Json, loc: Loc): Loc | null {
  for (const { loc: p } of parts(doc, loc)) if (isObject(p.node.items)) return resolve(doc, p.node.items, `${p.ptr}/items`)
  return null
}

/** The schema of a map's values (`additionalProperties: {…}`), the first branch that has one. */
export function valuesOf(doc: Json, loc: Loc): Loc | null {
  for (const { loc: p } of parts(doc, loc)) if (isObject(p.node.additionalProperties)) return resolve(doc, p.node.additionalProperties, `${p.ptr}/additionalProperties`)
  return null
}

export const HTTP_METHODS = ['get', 'put', 'post', 'delete', 'options', 'head', 'patch', 'trace'] as const

export interface OperationLoc {
  operationId: string
  method: string
  path: string
  loc: Loc
}

/** Every operation of `paths`, keyed by operationId (METHOD path when it has none). */
export function operationsOf(doc: Json): Map<string, OperationLoc> {
  const out = new Map<string, OperationLoc>()
  const paths = isObject(doc.paths) ? doc.paths : {}
  for (const [path, item] of Object.entries(paths)) {
    if (!isObject(item)) continue
    for (const method of HTTP_METHODS) {
      const op = item[method]
      if (!isObject(op)) continue
      const operationId = typeof op.operationId === 'string' ? op.operationId : `${method.toUpperCase()} ${path}`
      out.set(operationId, { operationId, method: method.toUpperCase(), path, loc: { node: op, ptr: `/paths/${escapePointer(path)}/${method}` } })
    }
  }
  return out
}

/** The JSON schema of a request body or response for `application/json` (or the first `+json` type). */
export function jsonSchemaOf(doc: Json, container: Loc): Loc | null {
  const content = container.node.content
  if (!isObject(content)) return null
  const type = 'application/json' in content ? 'application/json' : Object.keys(content).find((t) => /\+json$/.test(t))
  if (!type || !isObject(content[type])) return null
  const media = content[type] as Json
  return resolve(doc, media.schema, `${container.ptr}/content/${escapePointer(type)}/schema`)
}
