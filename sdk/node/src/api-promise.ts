// What every method returns: a promise-like of the parsed body that also gives the raw response.

/** The HTTP side of an answer: status, headers and the request id. */
export interface ResponseInfo {
  status: number
  headers: Headers
  /** `X-Request-ID` of the answer (`req_…`). */
  requestId: string | null
  url: string
  /** The operation that was called. */
  operationId: string
}

export interface WithResponse<T> {
  data: T
  response: ResponseInfo
}

/**
 * A promise-like of the parsed body (`await svc.leads.get(id)`), with `withResponse()` for the body and the
 * response's status, headers and request id together. The request starts when the method is called.
 */
export class ApiPromise<T> implements PromiseLike<T> {
  readonly #inner: Promise<WithResponse<T>>

  constructor(inner: Promise<WithResponse<T>>) {
    this.#inner = inner
  }

  /** The parsed body and the response it came in. */
  withResponse(): Promise<WithResponse<T>> {
    return this.#inner
  }

  then<A = T, B = never>(onfulfilled?: ((value: T) => A | PromiseLike<A>) | null, onrejected?: ((reason: unknown) => B | PromiseLike<B>) | null): Promise<A | B> {
    return this.#inner.then((r) => r.data).then(onfulfilled, onrejected)
  }

  catch<B = never>(onrejected?: ((reason: unknown) => B | PromiseLike<B>) | null): Promise<T | B> {
    return this.then(undefined, onrejected)
  }

  finally(onfinally?: (() => void) | null): Promise<T> {
    return this.then().finally(onfinally)
  }

  get [Symbol.toStringTag](): string {
    return 'ApiPromise'
  }
}
