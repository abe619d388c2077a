import type { FastifyRequest } from 'fastify'
import { AppError } from '../../../kernel/errors.js'

// Bodies of the providers' webhooks read by hand: a signed one is verified over its exact bytes before it is parsed.

const MAX_FILES = 20

/** A form: fields as strings, files as buffers (multipart), read within the limits. */
export interface Form {
  fields: Record<string, string>
  files: { field: string; filename: string | null; contentType: string; content: Buffer }[]
}

export const header = (request: FastifyRequest, name: string): string => {
  const v = request.headers[name]
  return (Array.isArray(v) ? v[0] : (v ?? '')).trim().slice(0, 300)
}

/** The request's body as it came (the multipart parser leaves it unread), refused past `limit` while reading. */
export async function readRaw(request: FastifyRequest, limit: number): Promise<Buffer> {
  const declared = Number(request.headers['content-length'])
  if (Number.isFinite(declared) && declared > limit) throw new AppError('payload_too_large', `The body exceeds ${limit} bytes.`)
  const chunks: Buffer[] = []
  let size = 0
  for await (const chunk of request.raw) {
    size += (chunk as Buffer).length
    if (size > limit) {
      request.raw.destroy()
      throw new AppError('payload_too_large', `The body exceeds ${limit} bytes.`)
    }
    chunks.push(chunk as Buffer)
  }
  return Buffer.concat(chunks)
}

/** A verified multipart body as a form (the platform's own parser; the bytes were already bounded). */
export async function formOf(raw: Buffer, contentType: string): Promise<Form> {
  let data: FormData
  try {
    data = await new Response(new Uint8Array(raw), { headers: { 'content-type': contentType } }).formData()
  } catch (err) {
    throw new AppError('bad_request', `The multipart/form-data body could not be read: ${(err as Error).message.slice(0, 200)}`)
  }
  const form: Form = { fields: Object.create(null) as Record<string, string>, files: [] }
  let parts = 0
  for (const [name, value] of data.entries()) {
    if (++parts > 100) throw new AppError('payload_too_large', 'The form has more than 100 parts.')
    if (typeof value === 'string') form.fields[name] = value
    else {
      if (form.files.length >= MAX_FILES) throw new AppError('payload_too_large', `The form has more than ${MAX_FILES} files.`)
      form.files.push({ field: name, filename: value.name || null, contentType: value.type || 'application/octet-stream', content: Buffer.from(await value.arrayBuffer()) })
    }
  }
  return form
}
