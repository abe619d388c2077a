// Pages of a list (`{ object: 'list', data, has_more, next_cursor }`) and walking every item of every page.

import { ApiPromise, type ResponseInfo, type WithResponse } from './api-promise.js'
import { SvcError } from './errors.js'

/** The body of a list operation. */
export interface ListBody<T> {
  object: 'list'
  data: T[]
  has_more: boolean
  next_cursor: string | null
}

/**
 * One page of a list. Iterating it (`for await`) yields every item of this page and of the pages after it,
 * fetched as needed with `cursor = next_cursor` and the original query parameters.
 */
export class Page<T> implements AsyncIterable<T> {
  readonly object: 'list'
  readonly data: T[]
  readonly has_more: boolean
  readonly next_cursor: string | null
  /** The response this page came in. */
  readonly response: ResponseInfo
  readonly #next: (cursor: string) => PagePromise<T>

  constructor(body: ListBody<T>, response: ResponseInfo, next: (cursor: string) => PagePromise<T>) {
    this.object = body.object ?? 'list'
    this.data = Array.isArray(body.data) ? body.data : []
    this.has_more = !!body.has_more
    this.next_cursor = body.next_cursor ?? null
    this.response = response
    this.#next = next
  }

  hasNextPage(): boolean {
    return this.has_more && !!this.next_cursor
  }

  /** The page after this one; throws when there is none (check `hasNextPage()`). */
  getNextPage(): PagePromise<T> {
    if (!this.hasNextPage()) throw new SvcError('No next page: has_more is false')
    return this.#next(this.next_cursor as string)
  }

  /** This page and every page after it. */
  async *iterPages(): AsyncGenerator<Page<T>, void, undefined> {
    let page: Page<T> = this
    for (;;) {
      yield page
      if (!page.hasNextPage()) return
      page = await page.getNextPage()
    }
  }

  async *[Symbol.asyncIterator](): AsyncGenerator<T, void, undefined> {
    for await (const page of this.iterPages()) yield* page.data
  }

  /** Every item from this page on, into an array (at most `limit` items, default 10 000). */
  async toArray(limit = 10_000): Promise<T[]> {
    const out: T[] = []
    for await (const item of this) {
      if (out.length >= limit) break
      out.push(item)
    }
    return out
  }
}

/**
 * What a list method returns: a promise-like of the first page (`await`) that is also an async iterable
 * over every item of every page (`for await (const lead of svc.leads.list({ limit: 50 }))`).
 */
export class PagePromise<T> extends ApiPromise<Page<T>> implements AsyncIterable<T> {
  constructor(inner: Promise<WithResponse<Page<T>>>) {
    super(inner)
  }

  async *[Symbol.asyncIterator](): AsyncGenerator<T, void, undefined> {
    const first = await this
    yield* first
  }

  /** Every item of every page, into an array (at most `limit` items, default 10 000). */
  async toArray(limit = 10_000): Promise<T[]> {
    return (await this).toArray(limit)
  }
}
