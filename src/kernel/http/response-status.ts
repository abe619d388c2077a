/**
 * A write's response whose success status its transaction decides (e.g. 200 for a resource that already
 * existed, 202 for one queued now). Returned from inside `kernel.transaction`, the Idempotency-Key commits
 * with this status, so a replay after a crash answers what the request would have; the route returns it
 * as it is and the server answers `status` with `body`.
 */
export class WithStatus<T> {
  constructor(
    readonly status: number,
    readonly body: T,
  ) {}
}

export const withStatus = <T>(status: number, body: T): WithStatus<T> => new WithStatus(status, body)
