import { SerializerSelector, type SerializerFactory } from '@fastify/fast-json-stringify-compiler'
import { Ajv } from 'ajv'
import addFormatsModule, { type FormatsPlugin } from 'ajv-formats'
import type { FastifyInstance, FastifySchemaValidationError } from 'fastify'

// ajv-formats is CommonJS; under ESM its function may sit on .default.
const addFormats = ((addFormatsModule as unknown as { default?: FormatsPlugin }).default ?? addFormatsModule) as FormatsPlugin

function compilers() {
  // Bodies are never coerced ("12" stays a string and fails an integer field); query and path are.
  const options = { allErrors: true, removeAdditional: false, useDefaults: true, strict: false } as const
  const body = new Ajv({ ...options, coerceTypes: false })
  const other = new Ajv({ ...options, coerceTypes: 'array' })
  addFormats(body)
  addFormats(other)
  // RFC 3339 allows a leap second (23:59:60), which no JavaScript Date holds: a time the handlers could not
  // read is refused here with the other format errors (422), not met as an invalid Date later (a 500).
  const rfc3339 = addFormats.get('date-time') as { validate: (s: string) => boolean; compare: (a: string, b: string) => number | undefined }
  const dateTime = { type: 'string' as const, validate: (s: string) => rfc3339.validate(s) && !Number.isNaN(Date.parse(s)), compare: rfc3339.compare }
  body.addFormat('date-time', dateTime)
  other.addFormat('date-time', dateTime)
  return { body, other }
}

/** Validators are compiled on a route's first request, not at start (see lazySerializers). */
export function setLazyValidators(app: Pick<FastifyInstance, 'setValidatorCompiler'>): void {
  const ajv = compilers()
  app.setValidatorCompiler(({ schema, httpPart }) => {
    const compiler = httpPart === 'body' ? ajv.body : ajv.other
    let compiled: ReturnType<typeof compiler.compile> | undefined
    const validate = (data: unknown): boolean => {
      compiled ??= compiler.compile(schema)
      const ok = compiled(data) as boolean
      validate.errors = compiled.errors as FastifySchemaValidationError[] | null | undefined
      return ok
    }
    validate.errors = undefined as FastifySchemaValidationError[] | null | undefined
    return validate
  })
}

/**
 * Response serializers built on a route's first use, once per schema: fast-json-stringify compiles a
 * function per route and status at start, twice over (live and sandbox share every schema), which was
 * ~1.3 s of a ~5 s cold start. A route never called never pays.
 */
export const lazySerializers: SerializerFactory = (externalSchemas, options) => {
  const build = SerializerSelector()(externalSchemas, options)
  const bySchema = new WeakMap<object, (data: unknown) => string>()
  return (route) => {
    let serialize: ((data: unknown) => string) | undefined
    return (data: unknown) => {
      if (!serialize) {
        serialize = bySchema.get(route.schema as object)
        if (!serialize) bySchema.set(route.schema as object, (serialize = build(route)))
      }
      return serialize(data)
    }
  }
}
