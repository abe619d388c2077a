/**
 * The next turn of the event loop, for work done in batches. On SQLite every statement resolves at once, so a
 * loop of batches runs as one turn however long it is: no socket is read or written, and the requests waiting
 * for the one connection do not get it, until the loop ends. Awaited between two batches, this lets them in.
 * (On PostgreSQL the round trips give the event loop its turns anyway; the pause costs microseconds there.)
 */
export const nextTurn = (): Promise<void> => new Promise((resolve) => setImmediate(resolve))
