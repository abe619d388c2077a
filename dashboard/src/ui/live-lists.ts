/** Lists kept current by the event stream (ui/live.ts): rows replaced from events, pages read again and merged. */
import { useEffect, useRef } from 'preact/hooks'
import { useLiveEvents, type LiveEvent } from './live.js'

/**
 * Runs `fn` at most once per `ms` however often it is called, the last call of a burst included
 * (a burst of events → one reload at its start and one at its end).
 */
export function useThrottled(fn: () => void, ms: number): () => void {
  const f = useRef(fn)
  f.current = fn
  const st = useRef<{ last: number; timer?: ReturnType<typeof setTimeout> }>({ last: 0 })
  useEffect(() => () => clearTimeout(st.current.timer), [])
  return useRef(() => {
    const s = st.current
    const now = Date.now()
    if (s.timer) return
    if (now - s.last >= ms) {
      s.last = now
      f.current()
      return
    }
    s.timer = setTimeout(
      () => {
        s.timer = undefined
        s.last = Date.now()
        f.current()
      },
      ms - (now - s.last),
    )
  }).current
}

type LiveList<T> = { loading: boolean; setItems: (f: (xs: T[]) => T[]) => void; reload: () => void }

/**
 * A list page kept current from the stream: each event of `types` whose object `pick` returns replaces the
 * row with its id, joins at the top when `belongs` says it is one of the list's (its filters), and leaves
 * it when not. A stream that reopened without resuming reloads the list.
 */
export function useLiveRows<T extends { id: string }>(list: LiveList<T>, types: string[], pick: (e: LiveEvent) => T | undefined, belongs: (row: T) => boolean): void {
  const apply = (row: T) =>
    list.setItems((xs) => {
      const had = xs.some((x) => x.id === row.id)
      if (!belongs(row)) return had ? xs.filter((x) => x.id !== row.id) : xs
      return had ? xs.map((x) => (x.id === row.id ? row : x)) : [row, ...xs]
    })
  // Rows that came while a page was being read are applied again after it (the page may predate them).
  const during = useRef<T[]>([])
  useEffect(() => {
    if (list.loading || during.current.length === 0) return
    const rows = during.current
    during.current = []
    rows.forEach(apply)
  }, [list.loading])
  useLiveEvents(
    types,
    (e) => {
      const row = pick(e)
      if (!row) return
      if (list.loading) during.current.push(row)
      apply(row)
    },
    list.reload,
  )
}

/**
 * `refresh` on every event of `types`, and once more when a load of the list that was going on then has
 * finished (the load may have been asked for before the change).
 */
export function useLiveRefresh(list: { loading: boolean; reload: () => void }, types: string[], refresh: () => void): void {
  const missed = useRef(false)
  useEffect(() => {
    if (list.loading || !missed.current) return
    missed.current = false
    refresh()
  }, [list.loading])
  useLiveEvents(
    types,
    () => {
      if (list.loading) missed.current = true
      refresh()
    },
    list.reload,
  )
}

export { mergeFirstPage } from './live-rules.js'
