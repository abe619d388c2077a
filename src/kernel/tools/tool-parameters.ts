import { Ajv, type ErrorObject, type ValidateFunction } from 'ajv'
import addFormatsModule, { type FormatsPlugin } from 'ajv-formats'
import type { FieldError } from '../errors.js'
import { MAX_PARAMETERS_BYTES } from './tools.schemas.js'

const addFormats = ((addFormatsModule as unknown as { default?: FormatsPlugin }).default ?? addFormatsModule) as FormatsPlugin

// One validator instance for every tool schema of every workspace: `$id` is refused (it would register
// the schema globally, and two workspaces could collide), remote `$ref`s do not resolve (no loader).
const ajv = new Ajv({ allErrors: true, strict: false, useDefaults: true, coerceTypes: false, validateSchema: true })
addFormats(ajv)

/** Compiled validators by schema text; bounded so a stream of distinct schemas cannot grow memory. */
const compiled = new Map<string, { schema: object; validate: ValidateFunction }>()
const MAX_COMPILED = 1000

const pointerOf = (path: string) => path.replace(/^\./, '/').replace(/\./g, '/')

function hasKey(value: unknown, key: string, path = ''): string | null {
  if (Array.isArray(value)) {
    for (let i = 0; i < value.length; i++) {
      const hit = hasKey(value[i], key, `${path}/${i}`)
      if (hit !== null) return hit
    }
  } else if (value && typeof value === 'object') {
    for (const [k, v] of Object.entries(value)) {
      if (k === key) return `${path}/${k}`
      const hit = hasKey(v, key, `${path}/${k.replace(/~/g, '~0').replace(/\//g, '~1')}`)
      if (hit !== null) return hit
    }
  }
  return null
}

/** `$schema` is dropped: every tool schema is read as draft-07, whatever it claims. */
function compilable(schema: Record<string, unknown>): object {
  const { $schema: _ignored, ...rest } = schema
  return rest
}

/**
 * Why a tool's parameters schema cannot be used, as field errors under `base` (e.g. `/parameters`):
 * too large, not an object schema, `$id` anywhere, a required name that is not a property, a schema the
 * draft-07 meta-schema refuses, or one that does not compile (a bad `pattern`, an unresolvable `$ref`).
 */
export function checkParameters(schema: Record<string, unknown>, base = '/parameters'): FieldError[] {
  if (Buffer.byteLength(JSON.stringify(schema)) > MAX_PARAMETERS_BYTES) {
    return [{ pointer: base, detail: `The schema is larger than ${MAX_PARAMETERS_BYTES / 1024} KiB.` }]
  }
  if (schema.type !== 'object') return [{ pointer: `${base}/type`, detail: "The parameters schema must have type 'object'." }]
  const id = hasKey(schema, '$id')
  if (id !== null) return [{ pointer: `${base}${id}`, detail: '$id is not allowed in a tool schema.' }]
  const properties = (schema.properties ?? {}) as Record<string, unknown>
  const required = Array.isArray(schema.required) ? (schema.required as unknown[]) : []
  const errors: FieldError[] = required
    .map((name, i) => ({ name, i }))
    .filter(({ name }) => typeof name !== 'string' || !(name in properties))
    .map(({ name, i }) => ({ pointer: `${base}/required/${i}`, detail: `${JSON.stringify(name)} is required but is not one of the properties.` }))
  if (errors.length > 0) return errors
  const body = compilable(schema)
  if (!ajv.validateSchema(body)) {
    return (ajv.errors ?? []).slice(0, 10).map((e) => ({ pointer: `${base}${pointerOf(e.instancePath)}`, detail: `Not a valid JSON Schema: ${e.message ?? 'invalid'}.` }))
  }
  try {
    validatorFor(schema)
  } catch (err) {
    return [{ pointer: base, detail: `The schema does not compile: ${(err as Error).message}` }]
  }
  return []
}

function validatorFor(schema: Record<string, unknown>): ValidateFunction {
  const key = JSON.stringify(schema)
  let hit = compiled.get(key)
  if (!hit) {
    if (compiled.size >= MAX_COMPILED) {
      for (const old of compiled.values()) ajv.removeSchema(old.schema)
      compiled.clear()
    }
    const body = compilable(schema)
    hit = { schema: body, validate: ajv.compile(body) }
    compiled.set(key, hit)
  }
  return hit.validate
}

const describe = (e: ErrorObject): FieldError => {
  const extra = e.keyword === 'additionalProperties' ? ` (${(e.params as { additionalProperty: string }).additionalProperty})` : ''
  const missing = e.keyword === 'required' ? `/${(e.params as { missingProperty: string }).missingProperty}` : ''
  return { pointer: `${e.instancePath}${missing}` || '/', detail: `${e.message ?? 'is invalid'}${extra}` }
}

export type ArgumentsCheck = { ok: true; value: Record<string, unknown> } | { ok: false; errors: FieldError[] }

/** Arguments against the tool's schema; defaults filled in a copy, never coerced ("12" stays a string). */
export function validateArguments(schema: Record<string, unknown>, args: unknown): ArgumentsCheck {
  if (!args || typeof args !== 'object' || Array.isArray(args)) return { ok: false, errors: [{ pointer: '/', detail: 'must be a JSON object' }] }
  let validate: ValidateFunction
  try {
    validate = validatorFor(schema)
  } catch (err) {
    return { ok: false, errors: [{ pointer: '/', detail: `the tool's schema does not compile: ${(err as Error).message}` }] }
  }
  const value = structuredClone(args) as Record<string, unknown>
  if (validate(value)) return { ok: true, value }
  return { ok: false, errors: (validate.errors ?? []).slice(0, 10).map(describe) }
}
