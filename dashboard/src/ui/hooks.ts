import { useCallback, useEffect, useRef, useState } from 'preact/hooks'
import type { Api } from '../api/client.js'
import { ApiProblem } from '../api/problem.js'
import { useWorkspace } from './workspace.js'

export interface Resource<T> {
  data: T | undefined
  error: ApiProblem | undefined
  loading: boolean
  reload(): void
  /** Replace the data in place (after a change the page made itself). */
  set(data: T): void
}

const asProblem = (err: unknown): ApiProblem => (err instanceof ApiProblem ? err : new ApiProblem(0, { detail: err instanceof Error ? err.message : String(err) }, null))

/**
 * Loads something from the API for the chosen workspace and mode; loads again when they or `deps`
 * change. An answer that arrives after a newer load started is dropped.
 */
export function useResource<T>(load: (api: Api) => Promise<T>, deps: unknown[] = []): Resource<T> {
  const { api } = useWorkspace()
  const [state, setState] = useState<{ data?: T; error?: ApiProblem; loading: boolean }>({ loading: true })
  const [tick, setTick] = useState(0)
  const generation = useRef(0)
  useEffect(() => {
    const mine = ++generation.current
    setState((s) => ({ data: s.data, loading: true }))
    load(api).then(
      (data) => mine === generation.current && setState({ data, loading: false }),
      (err) => mine === generation.current && setState({ error: asProblem(err), loading: false }),
    )
  }, [api, tick, ...deps])
  return {
    ...state,
    data: state.data,
    reload: useCallback(() => setTick((t) => t + 1), []),
    set: useCallback((data: T) => setState({ data, loading: false }), []),
  } as Resource<T>
}

export interface Page<T> {
  data: T[]
  has_more: boolean
  next_cursor?: string | null
}

/** A cursor-paginated list: the first page, then "Load more" appends the next. */
export function usePaged<T>(load: (api: Api, cursor: string | undefined) => Promise<Page<T>>, deps: unknown[] = []) {
  const { api } = useWorkspace()
  const [items, setItems] = useState<T[]>([])
  const [cursor, setCursor] = useState<string | null>(null)
  const [error, setError] = useState<ApiProblem>()
  const [loading, setLoading] = useState(true)
  const [tick, setTick] = useState(0)
  const generation = useRef(0)
  useEffect(() => {
    const mine = ++generation.current
    setLoading(true)
    setError(undefined)
    load(api, undefined).then(
      (p) => {
        if (mine !== generation.current) return
        setItems(p.data)
        setCursor(p.has_more ? (p.next_cursor ?? null) : null)
        setLoading(false)
      },
      (err) => mine === generation.current && (setError(asProblem(err)), setLoading(false)),
    )
  }, [api, tick, ...deps])
  const more = useCallback(async () => {
    if (!cursor) return
    const mine = generation.current
    setLoading(true)
    setError(undefined)
    try {
      const p = await load(api, cursor)
      if (mine !== generation.current) return
      setItems((xs) => [...xs, ...p.data])
      setCursor(p.has_more ? (p.next_cursor ?? null) : null)
    } catch (err) {
      // A reload started since owns the list (its problem and its loading state) now.
      if (mine === generation.current) setError(asProblem(err))
    } finally {
      if (mine === generation.current) setLoading(false)
    }
  }, [api, cursor])
  return { items, setItems, error, loading, hasMore: cursor !== null, more, reload: useCallback(() => setTick((t) => t + 1), []) }
}

/**
 * Runs an action (a button's change) with its pending state and its problem:
 * `const save = useAction(async () => …)`, then `save.run()`, `save.pending`, `save.error`.
 */
export function useAction<A extends unknown[], R>(fn: (...args: A) => Promise<R>) {
  const [pending, setPending] = useState(false)
  const [error, setError] = useState<ApiProblem>()
  const run = async (...args: A): Promise<R | undefined> => {
    setPending(true)
    setError(undefined)
    try {
      return await fn(...args)
    } catch (err) {
      setError(asProblem(err))
      return undefined
    } finally {
      setPending(false)
    }
  }
  return { run, pending, error, clear: () => setError(undefined) }
}

/**
 * Calls `tick` every `ms` while `active` (a run going on, a document processing, a crawl); stops on unmount.
 * A failed tick is tried again on the next one: the page keeps showing the last state it has.
 */
export function usePoll(active: boolean, tick: () => Promise<unknown> | void, ms = 1000) {
  const fn = useRef(tick)
  fn.current = tick
  useEffect(() => {
    if (!active) return
    let stopped = false
    let timer: ReturnType<typeof setTimeout>
    const loop = async () => {
      try {
        await fn.current()
      } catch {
        // the next tick tries again
      }
      if (!stopped) timer = setTimeout(loop, ms)
    }
    timer = setTimeout(loop, ms)
    return () => {
      stopped = true
      clearTimeout(timer)
    }
  }, [active, ms])
}
