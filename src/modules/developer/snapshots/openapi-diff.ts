import { enumOf, escapePointer, isObject, itemsOf, operationsOf, propertiesOf, resolve, typesOf, valuesOf, type Json, type Loc, type OperationLoc } from './openapi-walk.js'

/**
 * What changed between two OpenAPI 3.1 documents, for the clients of the API: operations added and
 * removed, and per operation kept (same operationId) the changes to its parameters, request body and
 * responses, each classed breaking or not from a client's side (docs/developer-tools.md "OpenAPI
 * snapshots" has the table). A pure function of the two documents; `$ref`s are resolved, so a change
 * to a shared component is reported for every operation that uses it.
 *
 * `location` is a JSON pointer into the document that holds the change: the earlier document for what
 * was removed (a field, an operation, a status), the later one for everything else.
 */

export type ChangeKind =
  | 'operation_added'
  | 'operation_removed'
  | 'operation_moved'
  | 'request_field_added'
  | 'request_field_removed'
  | 'request_field_required'
  | 'request_field_optional'
  | 'response_field_added'
  | 'response_field_removed'
  | 'response_field_optional'
  | 'response_status_added'
  | 'response_status_removed'
  | 'media_type_added'
  | 'media_type_removed'
  | 'enum_value_added'
  | 'enum_value_removed'
  | 'type_changed'

export interface OpenApiChange {
  kind: ChangeKind
  operation_id: string
  location: string
  message: string
}

export interface OperationRef {
  operation_id: string
  method: string
  path: string
}

export interface OpenApiDiff {
  added_operations: OperationRef[]
  removed_operations: OperationRef[]
  breaking_changes: OpenApiChange[]
  non_breaking_changes: OpenApiChange[]
}

type Direction = 'request' | 'response'

/** One operation being compared: where its changes go, and the schema pairs already walked. */
interface Ctx {
  before: Json
  after: Json
  operationId: string
  breaking: OpenApiChange[]
  other: OpenApiChange[]
  /** Schema pairs compared already (a component under several statuses, a recursive schema). */
  walked: Set<string>
  /** Changes reported already: one per kind, place, direction and value within an operation. */
  reported: Set<string>
}

const ref = (o: OperationLoc): OperationRef => ({ operation_id: o.operationId, method: o.method, path: o.path })
const show = (v: unknown) => JSON.stringify(v)
const fieldPath = (path: string[]) => path.join('.').replaceAll('.[]', '[]').replaceAll('.{}', '{}')
/** `request body field handoff.mode`, `response 200 field data[].name`, `query parameter "status"`. */
const where = (label: string, path: string[]) => (path.length === 0 ? label : `${label} field ${fieldPath(path)}`)

function add(ctx: Ctx, breaking: boolean, kind: ChangeKind, location: string, message: string, detail = ''): void {
  const key = `${kind}|${location}|${detail}`
  if (ctx.reported.has(key)) return
  ctx.reported.add(key)
  ;(breaking ? ctx.breaking : ctx.other).push({ kind, operation_id: ctx.operationId, location, message })
}

/** `integer` values are numbers: a set holding `number` holds every integer. */
const holds = (set: Set<string>, t: string) => set.has(t) || (t === 'integer' && set.has('number'))
const within = (a: Set<string>, b: Set<string>) => [...a].every((t) => holds(b, t))

/**
 * Compares one schema as it was and as it is. Requests and responses are judged in opposite directions:
 * a request may accept more than before, a response may promise more; narrowed enums count as breaking
 * both ways (a client's exhaustive handling of a response value, or a value it sends, goes stale).
 */
function compareSchema(ctx: Ctx, dir: Direction, label: string, b: Loc, a: Loc, path: string[]): void {
  const key = `${dir}|${b.ptr}|${a.ptr}`
  if (ctx.walked.has(key)) return
  ctx.walked.add(key)
  const at = where(label, path)

  const tb = typesOf(ctx.before, b)
  const ta = typesOf(ctx.after, a)
  if (tb.size > 0 && ta.size > 0 && !(within(tb, ta) && within(ta, tb))) {
    const compatible = dir === 'request' ? within(tb, ta) : within(ta, tb)
    add(ctx, !compatible, 'type_changed', a.ptr, `${at}: type changed from ${[...tb].join(' | ')} to ${[...ta].join(' | ')}`, dir)
    // A value of another kind altogether: what is inside it no longer compares.
    if (!compatible && ![...tb].some((t) => holds(ta, t) && t !== 'null')) return
  }

  const eb = enumOf(ctx.before, b)
  const ea = enumOf(ctx.after, a)
  if (eb && ea) {
    for (const v of eb) if (!ea.some((x) => show(x) === show(v))) add(ctx, true, 'enum_value_removed', a.ptr, `${at}: enum value ${show(v)} removed`, `${dir}:${show(v)}`)
    for (const v of ea) if (!eb.some((x) => show(x) === show(v))) add(ctx, false, 'enum_value_added', a.ptr, `${at}: enum value ${show(v)} added`, `${dir}:${show(v)}`)
  } else if (ea && !eb && dir === 'request') {
    add(ctx, true, 'enum_value_removed', a.ptr, `${at}: now restricted to the values ${ea.map(show).join(', ')}`, dir)
  }

  const pb = propertiesOf(ctx.before, b)
  const pa = propertiesOf(ctx.after, a)
  for (const [name, loc] of pb.props) {
    if (pa.props.has(name)) continue
    const field = where(label, [...path, name])
    // A request field the server no longer knows is refused where the object is closed (additionalProperties: false).
    if (dir === 'response') add(ctx, true, 'response_field_removed', loc.ptr, `${field} removed`)
    else add(ctx, pa.closed, 'request_field_removed', loc.ptr, `${field} removed${pa.closed ? ' (the object refuses unknown fields)' : ''}`)
  }
  for (const [name, loc] of pa.props) {
    const field = where(label, [...path, name])
    const before = pb.props.get(name)
    if (!before) {
      if (dir === 'response') add(ctx, false, 'response_field_added', loc.ptr, `${field} added`)
      else if (pa.required.has(name)) add(ctx, true, 'request_field_required', loc.ptr, `new required ${field}`)
      else add(ctx, false, 'request_field_added', loc.ptr, `new optional ${field}`)
      continue
    }
    const was = pb.required.has(name)
    const is = pa.required.has(name)
    if (dir === 'request' && !was && is) add(ctx, true, 'request_field_required', loc.ptr, `${field} is now required`)
    if (dir === 'request' && was && !is) add(ctx, false, 'request_field_optional', loc.ptr, `${field} is now optional`)
    if (dir === 'response' && was && !is) add(ctx, true, 'response_field_optional', loc.ptr, `${field} may now be absent`)
    compareSchema(ctx, dir, label, before, loc, [...path, name])
  }

  const ib = itemsOf(ctx.before, b)
  const ia = itemsOf(ctx.after, a)
  if (ib && ia) compareSchema(ctx, dir, label, ib, ia, [...path, '[]'])
  const vb = valuesOf(ctx.before, b)
  const va = valuesOf(ctx.after, a)
  if (vb && va) compareSchema(ctx, dir, label, vb, va, [...path, '{}'])
}

interface Param {
  name: string
  in: string
  required: boolean
  loc: Loc
}

function parametersOf(doc: Json, op: Loc): Map<string, Param> {
  const out = new Map<string, Param>()
  const list = op.node.parameters
  if (!Array.isArray(list)) return out
  list.forEach((p, i) => {
    const r = resolve(doc, p, `${op.ptr}/parameters/${i}`)
    if (!r || typeof r.node.name !== 'string' || typeof r.node.in !== 'string') return
    out.set(`${r.node.in}:${r.node.name}`, { name: r.node.name, in: r.node.in, required: r.node.required === true, loc: r })
  })
  return out
}

function compareParameters(ctx: Ctx, b: Loc, a: Loc): void {
  const pb = parametersOf(ctx.before, b)
  const pa = parametersOf(ctx.after, a)
  for (const [key, p] of pb) {
    if (pa.has(key)) continue
    // Unknown query parameters are refused (422); a header the server stopped reading is ignored.
    add(ctx, p.in === 'query', 'request_field_removed', p.loc.ptr, `${p.in} parameter "${p.name}" removed`)
  }
  for (const [key, p] of pa) {
    const label = `${p.in} parameter "${p.name}"`
    const before = pb.get(key)
    if (!before) {
      add(ctx, p.required, p.required ? 'request_field_required' : 'request_field_added', p.loc.ptr, `new ${p.required ? 'required' : 'optional'} ${label}`)
      continue
    }
    if (!before.required && p.required) add(ctx, true, 'request_field_required', p.loc.ptr, `${label} is now required`)
    if (before.required && !p.required) add(ctx, false, 'request_field_optional', p.loc.ptr, `${label} is now optional`)
    const sb = resolve(ctx.before, before.loc.node.schema, `${before.loc.ptr}/schema`)
    const sa = resolve(ctx.after, p.loc.node.schema, `${p.loc.ptr}/schema`)
    if (sb && sa) compareSchema(ctx, 'request', label, sb, sa, [])
  }
}

/** Each media type both sides have is compared; one only the earlier had is gone for its clients. */
function compareContent(ctx: Ctx, dir: Direction, label: string, b: Loc, a: Loc, breakingWhenRemoved: boolean): void {
  const cb = isObject(b.node.content) ? b.node.content : {}
  const ca = isObject(a.node.content) ? a.node.content : {}
  for (const type of Object.keys(cb)) {
    if (!(type in ca)) add(ctx, breakingWhenRemoved, 'media_type_removed', `${b.ptr}/content/${escapePointer(type)}`, `${label}: ${type} no longer ${dir === 'request' ? 'accepted' : 'answered'}`)
  }
  for (const type of Object.keys(ca)) {
    if (!(type in cb)) {
      add(ctx, false, 'media_type_added', `${a.ptr}/content/${escapePointer(type)}`, `${label}: ${type} ${dir === 'request' ? 'accepted' : 'answered'}`)
      continue
    }
    const sb = resolve(ctx.before, (cb[type] as Json | undefined)?.schema, `${b.ptr}/content/${escapePointer(type)}/schema`)
    const sa = resolve(ctx.after, (ca[type] as Json | undefined)?.schema, `${a.ptr}/content/${escapePointer(type)}/schema`)
    if (sb && sa) compareSchema(ctx, dir, label, sb, sa, [])
  }
}

function compareRequestBody(ctx: Ctx, b: Loc, a: Loc): void {
  const rb = b.node.requestBody === undefined ? null : resolve(ctx.before, b.node.requestBody, `${b.ptr}/requestBody`)
  const ra = a.node.requestBody === undefined ? null : resolve(ctx.after, a.node.requestBody, `${a.ptr}/requestBody`)
  if (!rb && ra) {
    const required = ra.node.required === true
    add(ctx, required, required ? 'request_field_required' : 'request_field_added', ra.ptr, `new ${required ? 'required' : 'optional'} request body`)
    return
  }
  if (rb && !ra) {
    add(ctx, false, 'request_field_removed', rb.ptr, 'request body removed (the operation no longer reads one)')
    return
  }
  if (!rb || !ra) return
  if (rb.node.required !== true && ra.node.required === true) add(ctx, true, 'request_field_required', ra.ptr, 'the request body is now required')
  compareContent(ctx, 'request', 'request body', rb, ra, true)
}

function compareResponses(ctx: Ctx, b: Loc, a: Loc): void {
  const rb = isObject(b.node.responses) ? b.node.responses : {}
  const ra = isObject(a.node.responses) ? a.node.responses : {}
  // Error statuses come and go with the shared error model (docs/api-conventions.md); only success statuses are promised.
  const success = (s: string) => /^2/.test(s)
  for (const status of Object.keys(rb)) {
    if (!(status in ra) && success(status)) add(ctx, true, 'response_status_removed', `${b.ptr}/responses/${status}`, `response ${status} removed`)
  }
  for (const status of Object.keys(ra)) {
    const ptrA = `${a.ptr}/responses/${status}`
    if (!(status in rb)) {
      if (success(status)) add(ctx, false, 'response_status_added', ptrA, `response ${status} added`)
      continue
    }
    const lb = resolve(ctx.before, rb[status], `${b.ptr}/responses/${status}`)
    const la = resolve(ctx.after, ra[status], ptrA)
    if (lb && la) compareContent(ctx, 'response', `response ${status}`, lb, la, success(status))
  }
}

/** The changes from `before` to `after` (two OpenAPI 3.x documents). */
export function diffOpenApi(before: Json, after: Json): OpenApiDiff {
  const ob = operationsOf(before)
  const oa = operationsOf(after)
  const diff: OpenApiDiff = { added_operations: [], removed_operations: [], breaking_changes: [], non_breaking_changes: [] }
  for (const [id, op] of ob) {
    if (oa.has(id)) continue
    diff.removed_operations.push(ref(op))
    diff.breaking_changes.push({ kind: 'operation_removed', operation_id: id, location: op.loc.ptr, message: `operation ${op.method} ${op.path} removed` })
  }
  for (const [id, op] of oa) {
    const was = ob.get(id)
    if (!was) {
      diff.added_operations.push(ref(op))
      diff.non_breaking_changes.push({ kind: 'operation_added', operation_id: id, location: op.loc.ptr, message: `operation ${op.method} ${op.path} added` })
      continue
    }
    const ctx: Ctx = { before, after, operationId: id, breaking: diff.breaking_changes, other: diff.non_breaking_changes, walked: new Set(), reported: new Set() }
    if (was.method !== op.method || was.path !== op.path) add(ctx, true, 'operation_moved', op.loc.ptr, `operation moved from ${was.method} ${was.path} to ${op.method} ${op.path}`)
    compareParameters(ctx, was.loc, op.loc)
    compareRequestBody(ctx, was.loc, op.loc)
    compareResponses(ctx, was.loc, op.loc)
  }
  return diff
}

/** True when nothing changed for clients. */
export const isEmptyDiff = (d: OpenApiDiff): boolean => d.added_operations.length + d.removed_operations.length + d.breaking_changes.length + d.non_breaking_changes.length === 0
