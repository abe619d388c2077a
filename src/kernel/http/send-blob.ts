import type { FastifyReply, FastifyRequest } from 'fastify'
import rangeParser from 'range-parser'
import type { BlobStore } from '../blobs/blobs.js'
import { AppError, defineErrors, type ErrorSpec } from '../errors.js'
import { sendProblem } from './problem.js'

export const BLOB_ERRORS = defineErrors('kernel', {
  // A Range header none of whose ranges overlaps the file; `Content-Range: bytes */<size>` gives its length.
  range_not_satisfiable: { status: 416, title: 'Range not satisfiable' },
})

declare module '../errors.js' {
  interface ErrorCodes extends Record<keyof typeof BLOB_ERRORS, ErrorSpec> {}
}

export interface SendBlobOptions {
  /** The Content-Type to answer; defaults to the one stored with the blob. */
  contentType?: string
  /** Offered as the name to save under (Content-Disposition: inline; filename=…). */
  filename?: string
}

/**
 * Answer a GET (or HEAD) with the blob under `key`, following RFC 9110 ranges:
 * - no or an unusable Range (malformed, not `bytes`, or an If-Range that no longer matches) → 200, whole blob;
 * - one satisfiable range → 206 with Content-Range; a suffix longer than the file (`bytes=-5000` of 1000 bytes)
 *   selects the whole file (§14.1.3), answered 206 `bytes 0-999/1000` (200 when the file is empty);
 * - several ranges → 200 with the whole blob (allowed by §14.2; overlapping or adjacent ones are merged first,
 *   so only truly disjoint requests get there — multipart/byteranges is more machinery than players need);
 * - nothing satisfiable (or only invalid ranges such as `9-2`) → 416 problem+json with `Content-Range: bytes *\/<size>` (the size of the file).
 * `If-None-Match` with the current ETag → 304. A missing blob is a 404 problem (thrown).
 * Headers already set on `reply` (Cache-Control, say) are kept. A handler returns it (`return sendBlob(…)`):
 * a Fastify reply is thenable, so the promise settles once the answer is written and `reply.sent` is true.
 */
export async function sendBlob(request: FastifyRequest, reply: FastifyReply, store: BlobStore, key: string, options: SendBlobOptions = {}): Promise<FastifyReply> {
  const stat = await store.stat(key)
  if (!stat) throw new AppError('resource_not_found', 'The file is not stored (any more).')
  const { size, etag } = stat
  reply.header('Accept-Ranges', 'bytes')
  reply.header('ETag', etag)

  if (etagMatches(request.headers['if-none-match'], etag)) return reply.code(304).send()

  const rangeHeader = request.headers.range
  if (rangeHeader && ifRangeHolds(request.headers['if-range'], etag)) {
    const ranges = rangeParser(size, suffixesWithin(rangeHeader, size), { combine: true })
    if (ranges === -1) {
      return sendProblem(
        request,
        reply,
        new AppError('range_not_satisfiable', `The requested range is outside the file, which is ${size} bytes long.`, {
          headers: { 'Content-Range': `bytes */${size}` },
        }),
      )
    }
    if (ranges !== -2 && ranges.type === 'bytes' && ranges.length === 1) {
      const { start, end } = ranges[0]
      setEntityHeaders(reply, stat.contentType, options)
      reply.header('Content-Range', `bytes ${start}-${end}/${size}`)
      reply.header('Content-Length', String(end - start + 1))
      return reply.code(206).send(store.read(key, { start, end }))
    }
  }
  setEntityHeaders(reply, stat.contentType, options)
  reply.header('Content-Length', String(size))
  // An empty file has no byte range to read; a stream over it would still be opened for nothing.
  return reply.code(200).send(size === 0 ? '' : store.read(key))
}

/**
 * RFC 9110 §14.1.3: "If the selected representation is shorter than the specified suffix-length, the entire
 * representation is used." range-parser counts such a suffix as unsatisfiable, so clamp it to the size first.
 * On an empty file there is no byte to select: the header is dropped (200, the empty file).
 */
function suffixesWithin(header: string, size: number): string {
  const eq = header.indexOf('=')
  if (eq === -1 || header.slice(0, eq).trim().toLowerCase() !== 'bytes') return header
  let clamped = false
  const specs = header
    .slice(eq + 1)
    .split(',')
    .map((spec) => {
      const m = /^\s*-(\d+)\s*$/.exec(spec)
      if (!m || Number(m[1]) <= size || Number(m[1]) === 0) return spec
      clamped = true
      return `-${size}`
    })
  if (!clamped) return header
  if (size === 0) return ''
  return `${header.slice(0, eq)}=${specs.join(',')}`
}

function setEntityHeaders(reply: FastifyReply, storedType: string, options: SendBlobOptions): void {
  reply.header('Content-Type', options.contentType ?? storedType)
  reply.header('Content-Disposition', contentDisposition(options.filename))
}

/** If-None-Match: `*` or a list of entity tags compared weakly (RFC 9110 §13.1.2). */
function etagMatches(header: string | undefined, etag: string): boolean {
  if (!header) return false
  if (header.trim() === '*') return true
  const bare = etag.replace(/^W\//, '')
  return header.split(',').some((t) => t.trim().replace(/^W\//, '') === bare)
}

/** If-Range: the range applies only when the strong ETag still matches; a date never does (no Last-Modified sent). */
function ifRangeHolds(header: string | string[] | undefined, etag: string): boolean {
  if (header === undefined) return true
  const value = String(header).trim()
  return !value.startsWith('W/') && value === etag
}

/** RFC 6266: an ASCII fallback in `filename`, the exact name in `filename*` when they differ. */
function contentDisposition(filename: string | undefined): string {
  if (!filename) return 'inline'
  const fallback = filename.replace(/[^\x20-\x7e]|["\\%]/g, '_')
  let value = `inline; filename="${fallback}"`
  if (fallback !== filename) value += `; filename*=UTF-8''${encodeRfc5987(filename)}`
  return value
}

function encodeRfc5987(s: string): string {
  return encodeURIComponent(s).replace(/['()*]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`)
}
