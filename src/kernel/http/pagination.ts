import { createHmac, timingSafeEqual } from 'node:crypto'
import { Type, type TSchema } from 'typebox'
import { AppError } from '../errors.js'
import type { Tenant } from '../tenant.js'

export const DEFAULT_LIMIT = 20
export const MAX_LIMIT = 100

export const PageQuery = {
  cursor: Type.Optional(Type.String({ minLength: 1, maxLength: 512, description: 'Opaque cursor from a previous next_cursor.' })),
  limit: Type.Optional(Type.Integer({ minimum: 1, maximum: MAX_LIMIT, default: DEFAULT_LIMIT, description: `Page size, 1–${MAX_LIMIT} (default ${DEFAULT_LIMIT}).` })),
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

/** Our ids are `prefix_ULID`: the shape every list key must have unless a list says otherwise. */
export const ID_SHAPE = /^[a-z]{2,5}_[0-9A-Za-z]{1,40}$/

export type ListFilters = Record<string, string | number | boolean | null | undefined>

export interface ListSpec<R, T> {
  /** The operation, e.g. `listConversations`: a cursor of another list is refused. */
  list: string
  tenant: Tenant
  /** Filters the page depends on: a cursor is valid only with the same filters. */
  filters?: ListFilters
  query: { cursor?: string; limit?: number }
  /** What a list key looks like (default: our id shape); anything else in a cursor is refused. */
  keyShape?: RegExp
  /** Rows after `after` in list order, at most `limit + 1` (the extra row only says whether more exist). */
  fetch(page: { after: string | null; limit: number }): Promise<R[]>
  key(row: R): string
  view(row: R): T
}

const invalidCursor = () =>
  new AppError('invalid_cursor', 'The cursor is malformed or belongs to another list; use next_cursor from the previous page.', {
    errors: [{ pointer: '/query/cursor', detail: 'not a cursor of this list' }],
  })

/**
 * The one list recipe: cursor check → fetch limit+1 → page envelope. Cursors are opaque base64url JSON
 * of the last key plus an HMAC (keyed by the server secret) over the list, its filters, the tenant and
 * the key, so a forged cursor or one from another list, filter set, workspace or mode is a 422 — and a
 * key of the wrong shape never reaches the database.
 */
export class Paginator {
  constructor(private readonly key: Buffer) {}

  async paginate<R, T>(spec: ListSpec<R, T>): Promise<PageResult<T>> {
    const limit = spec.query.limit ?? DEFAULT_LIMIT
    const binding = this.binding(spec.list, spec.tenant, spec.filters)
    const after = this.decode(binding, spec.query.cursor, spec.keyShape ?? ID_SHAPE)
    const rows = await spec.fetch({ after, limit })
    const hasMore = rows.length > limit
    const pageRows = hasMore ? rows.slice(0, limit) : rows
    const last = pageRows[pageRows.length - 1]
    return {
      object: 'list',
      data: pageRows.map((r) => spec.view(r)),
      has_more: hasMore,
      next_cursor: hasMore && last !== undefined ? this.encode(binding, spec.key(last)) : null,
    }
  }

  private binding(list: string, tenant: Tenant, filters: ListFilters = {}): string {
    const bound = Object.keys(filters)
      .filter((k) => filters[k] !== undefined)
      .sort()
      .map((k) => `${k}=${String(filters[k])}`)
      .join('&')
    return `${list}?${bound}\n${tenant.workspaceId}\n${tenant.mode}`
  }

  private mac(binding: string, key: string): Buffer {
    return createHmac('sha256', this.key).update(`${binding}\n${key}`).digest().subarray(0, 16)
  }

  encode(binding: string, key: string): string {
    return Buffer.from(JSON.stringify({ k: key, c: this.mac(binding, key).toString('base64url') })).toString('base64url')
  }

  private decode(binding: string, cursor: string | undefined, shape: RegExp): string | null {
    if (cursor === undefined) return null
    let parsed: { k?: unknown; c?: unknown }
    try {
      parsed = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8')) as { k?: unknown; c?: unknown }
    } catch {
      throw invalidCursor()
    }
    if (parsed === null || typeof parsed !== 'object' || typeof parsed.k !== 'string' || typeof parsed.c !== 'string') throw invalidCursor()
    const given = Buffer.from(parsed.c, 'base64url')
    const expected = this.mac(binding, parsed.k)
    if (given.length !== expected.length || !timingSafeEqual(given, expected) || !shape.test(parsed.k)) throw invalidCursor()
    return parsed.k
  }
}
