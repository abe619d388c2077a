import { createHash } from 'node:crypto'
import { Type, type TSchema } from 'typebox'
import { AppError } from '../errors.js'
import type { Tenant } from '../tenant.js'

export const DEFAULT_LIMIT = 20
export const MAX_LIMIT = 100

export const PageQuery = {
  cursor: Type.Optional(Type.String({ minLength: 1, maxLength: 512, description: 'Opaque cursor from a previous next_cursor.' })),
  limit: Type.Optional(
    Type.Integer({ minimum: 1, maximum: MAX_LIMIT, default: DEFAULT_LIMIT, description: `Page size, 1–${MAX_LIMIT} (default ${DEFAULT_LIMIT}).` }),
  ),
}

export const Page = <T extends TSchema>(item: T, name: string) =>
  Type.Object(
    {
      object: Type.Literal('list'),
      data: Type.Array(item),
      has_more: Type.Boolean(),
      next_cursor: Type.Union([Type.String(), Type.Null()]),
    },
    { title: `${name}List` },
  )

export interface PageResult<T> {
  object: 'list'
  data: T[]
  has_more: boolean
  next_cursor: string | null
}

/**
 * Cursors are opaque: base64url of the last id plus a checksum binding it to the list (operation,
 * filters) and the tenant, so a cursor from another list, workspace or mode is rejected with 422.
 */
function bind(list: string, tenant: Tenant, key: string): string {
  return createHash('sha256').update(`${list}\n${tenant.workspaceId}\n${tenant.mode}\n${key}`).digest('base64url').slice(0, 16)
}

export function encodeCursor(list: string, tenant: Tenant, key: string): string {
  return Buffer.from(JSON.stringify({ k: key, c: bind(list, tenant, key) })).toString('base64url')
}

export function decodeCursor(list: string, tenant: Tenant, cursor: string | undefined): string | null {
  if (cursor === undefined) return null
  try {
    const parsed = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8')) as { k?: unknown; c?: unknown }
    if (typeof parsed.k === 'string' && parsed.c === bind(list, tenant, parsed.k)) return parsed.k
  } catch {
    /* fall through */
  }
  throw new AppError('invalid_cursor', 'The cursor is malformed or belongs to another list; use next_cursor from the previous page.', {
    errors: [{ pointer: '/query/cursor', detail: 'not a cursor of this list' }],
  })
}

/**
 * Build the page from `limit + 1` rows fetched in list order: the extra row only says whether more exist.
 * `list` identifies the list and its filters, e.g. `listConversations?status=open`.
 */
export function toPage<R, T>(rows: R[], limit: number, list: string, tenant: Tenant, keyOf: (r: R) => string, map: (r: R) => T): PageResult<T> {
  const hasMore = rows.length > limit
  const pageRows = hasMore ? rows.slice(0, limit) : rows
  const last = pageRows[pageRows.length - 1]
  return {
    object: 'list',
    data: pageRows.map(map),
    has_more: hasMore,
    next_cursor: hasMore && last ? encodeCursor(list, tenant, keyOf(last)) : null,
  }
}

