import { Type, type Static, type TSchema, type TUnsafe } from 'typebox'

const PRIMITIVES = new Set(['string', 'number', 'integer', 'boolean'])

/**
 * `T | null`. For primitive types this is `type: [T, "null"]` rather than `anyOf`: fast-json-stringify
 * serialises an `anyOf` by running a validator per value to pick the branch, which made list responses
 * measurably slower (docs/performance.md). OpenAPI 3.1 reads both forms.
 */
export function Nullable<T extends TSchema>(schema: T): TUnsafe<Static<T> | null> {
  const type = (schema as { type?: unknown }).type
  if (typeof type === 'string' && PRIMITIVES.has(type)) {
    return Type.Unsafe<Static<T> | null>({ ...schema, type: [type, 'null'] })
  }
  return Type.Unsafe<Static<T> | null>(Type.Union([schema, Type.Null()]))
}
