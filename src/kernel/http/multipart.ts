import { createHash } from 'node:crypto'
import multipart from '@fastify/multipart'
import type { FastifyInstance, FastifyRequest } from 'fastify'
import { Type, type TSchema, type TUnsafe } from 'typebox'
import type { Config } from '../../config.js'
import { AppError } from '../errors.js'

/**
 * multipart/form-data for the few operations that take a file (`defineRoute({ multipart })`). The
 * plugin (@fastify/multipart, over busboy) is registered only in the scope of those routes, so every
 * other operation still answers 415 to a form. The kernel reads the whole form before validation:
 * fields become strings, each file an `UploadedFile` whose bytes are not enumerable — the body then
 * validates against the route's form schema, and the Idempotency-Key fingerprint (JSON of the body)
 * covers the file through its sha256 without serialising megabytes.
 */

export interface UploadedFile {
  filename: string
  content_type: string
  size_bytes: number
  sha256: string
  /** The file's bytes (non-enumerable: invisible to JSON, validation and logs). */
  readonly data: Buffer
}

export interface MultipartOptions {
  /** The form as documented (OpenAPI `multipart/form-data`) and validated: files are `FileField`s, the rest strings. */
  schema: TSchema
  /** Largest file accepted, in bytes; beyond it 413. */
  maxFileBytes(config: Config): number
  /** Files per request (default 1). */
  maxFiles?: number
}

/** A file part of a form schema; OpenAPI shows it as `type: string, format: binary`. */
export const FileField = (description: string): TUnsafe<UploadedFile> =>
  Type.Unsafe<UploadedFile>({
    type: 'object',
    'x-file': true,
    description,
    properties: {
      filename: { type: 'string' },
      content_type: { type: 'string' },
      size_bytes: { type: 'integer' },
      sha256: { type: 'string' },
    },
    required: ['filename', 'content_type', 'size_bytes', 'sha256'],
  })

/** A form schema as OpenAPI shows it: every `FileField` becomes a binary string. */
export function documentedForm(schema: unknown): unknown {
  if (Array.isArray(schema)) return schema.map(documentedForm)
  if (schema === null || typeof schema !== 'object') return schema
  const s = schema as Record<string, unknown>
  if (s['x-file'] === true) return { type: 'string', format: 'binary', ...(s.description ? { description: s.description } : {}) }
  return Object.fromEntries(Object.entries(s).map(([k, v]) => [k, documentedForm(v)]))
}

/** Registers the parser in `scope` (an encapsulated plugin holding only the multipart routes). */
export async function registerMultipart(scope: FastifyInstance): Promise<void> {
  await scope.register(multipart, { throwFileSizeLimit: true })
}

const FIELD_BYTES = 64 * 1024
const MAX_FIELDS = 50

/** Reads the form into `request.body`; limits and malformed forms become problems (413, 400, 422). */
export async function readMultipartBody(request: FastifyRequest, opts: { maxFileBytes: number; maxFiles: number }): Promise<void> {
  const body: Record<string, unknown> = Object.create(null)
  const seen = (name: string) => {
    if (name in body) throw new AppError('validation_failed', `The form field "${name}" is sent twice.`, { errors: [{ pointer: `/body/${name}`, detail: 'sent twice' }] })
  }
  try {
    const parts = request.parts({ limits: { fileSize: opts.maxFileBytes, files: opts.maxFiles, fields: MAX_FIELDS, fieldSize: FIELD_BYTES, parts: MAX_FIELDS + opts.maxFiles } })
    for await (const part of parts) {
      seen(part.fieldname)
      if (part.type === 'file') {
        const data = await part.toBuffer()
        const file = { filename: part.filename, content_type: part.mimetype, size_bytes: data.length, sha256: createHash('sha256').update(data).digest('hex') }
        Object.defineProperty(file, 'data', { value: data, enumerable: false })
        body[part.fieldname] = file
      } else {
        if (part.valueTruncated) throw new AppError('payload_too_large', `The form field "${part.fieldname}" exceeds ${FIELD_BYTES} bytes.`)
        body[part.fieldname] = typeof part.value === 'string' ? part.value : String(part.value)
      }
    }
  } catch (err) {
    throw multipartProblem(err, opts)
  }
  request.body = { ...body }
}

function multipartProblem(err: unknown, opts: { maxFileBytes: number; maxFiles: number }): AppError {
  if (err instanceof AppError) return err
  const code = (err as { code?: string }).code
  switch (code) {
    case 'FST_REQ_FILE_TOO_LARGE':
      return new AppError('payload_too_large', `The file exceeds the upload limit of ${opts.maxFileBytes} bytes.`)
    case 'FST_FILES_LIMIT':
      return new AppError('payload_too_large', `Send at most ${opts.maxFiles} file(s) per request.`)
    case 'FST_FIELDS_LIMIT':
    case 'FST_PARTS_LIMIT':
      return new AppError('payload_too_large', `Send at most ${MAX_FIELDS} form fields.`)
  }
  const detail = err instanceof Error ? err.message : String(err)
  return new AppError('bad_request', `The multipart/form-data body could not be read: ${detail.slice(0, 200)}.`)
}
