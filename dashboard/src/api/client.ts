import createClient from 'openapi-fetch'
import { createParser } from 'eventsource-parser'
import { ApiProblem, problemOf, type ProblemBody } from './problem.js'
import type { paths } from './schema.js'
import { loadSession, redirectToLogin, tokenFor } from './session.js'

export type Mode = 'live' | 'test'
export const BASE_URL: Record<Mode, string> = { live: '/v2', test: '/sandbox/v2' }

/**
 * Sends a request to the public API as the signed-in member: the workspace's token in Authorization.
 * A 401 gets one retry with a fresh token (it may just have expired); a second means the session itself
 * ended, and the browser goes to the sign-in page.
 */
async function authorizedFetch(workspaceId: string, mode: Mode, input: Request): Promise<Response> {
  const send = async (request: Request, fresh: boolean) => {
    const req = new Request(request, { headers: new Headers(request.headers) })
    req.headers.set('Authorization', `Bearer ${await tokenFor(workspaceId, mode, fresh)}`)
    return fetch(req)
  }
  const retry = input.clone()
  let res: Response
  try {
    res = await send(input, false)
  } catch (err) {
    throw await problemOf(null, err)
  }
  if (res.status !== 401) return res
  res = await send(retry, true)
  if (res.status === 401) {
    await loadSession() // redirects to sign-in when the session is gone
    return res
  }
  return res
}

export function createApi(workspaceId: string, mode: Mode) {
  const base = BASE_URL[mode]
  const fetchAuthorized = (input: Request) => authorizedFetch(workspaceId, mode, input)
  const client = createClient<paths>({ baseUrl: base, fetch: fetchAuthorized })
  return {
    workspaceId,
    mode,
    base,
    /** The typed client (openapi-fetch over the generated paths): `api.client.GET('/inbox/conversations', …)`. */
    client,
    /** A raw authorized request (downloads, audio): `path` below the base URL. Throws ApiProblem when not 2xx. */
    async fetch(path: string, init: RequestInit = {}): Promise<Response> {
      const res = await fetchAuthorized(new Request(`${base}${path}`, init))
      if (!res.ok) throw await problemOf(res)
      return res
    },
    /** A multipart upload with progress (XMLHttpRequest: fetch has no upload progress). Resolves to the JSON answer. */
    async upload<T>(path: string, form: FormData, onProgress?: (fraction: number) => void): Promise<T> {
      const token = await tokenFor(workspaceId, mode)
      return new Promise<T>((resolve, reject) => {
        const xhr = new XMLHttpRequest()
        xhr.open('POST', `${base}${path}`)
        xhr.setRequestHeader('Authorization', `Bearer ${token}`)
        xhr.upload.onprogress = (e) => e.lengthComputable && onProgress?.(e.loaded / e.total)
        xhr.onerror = () => reject(new ApiProblem(0, null, null))
        xhr.onload = () => {
          let body: unknown = null
          try {
            body = JSON.parse(xhr.responseText)
          } catch {
            body = null
          }
          if (xhr.status >= 200 && xhr.status < 300) resolve(body as T)
          else if (xhr.status === 401) redirectToLogin()
          else reject(new ApiProblem(xhr.status, body as never, xhr.getResponseHeader('X-Request-ID')))
        }
        xhr.send(form)
      })
    },
    /**
     * Reads a text/event-stream (fetch + eventsource-parser: EventSource cannot send Authorization).
     * Resolves when the stream ends or `signal` aborts. `body`: a POST with that JSON body (streamBotMessage).
     */
    async stream(path: string, onEvent: (e: { event?: string; id?: string; data: string }) => void, signal: AbortSignal, body?: unknown): Promise<void> {
      const init: RequestInit =
        body === undefined
          ? { headers: { accept: 'text/event-stream' }, signal }
          : { method: 'POST', headers: { accept: 'text/event-stream', 'content-type': 'application/json' }, body: JSON.stringify(body), signal }
      const res = await fetchAuthorized(new Request(`${base}${path}`, init))
      if (!res.ok || !res.body) throw await problemOf(res)
      const parser = createParser({ onEvent: (e) => onEvent({ event: e.event, id: e.id, data: e.data }) })
      const reader = res.body.pipeThrough(new TextDecoderStream()).getReader()
      try {
        for (;;) {
          const { value, done } = await reader.read()
          if (done) return
          parser.feed(value)
        }
      } catch (err) {
        if (signal.aborted) return
        throw err
      }
    },
  }
}
export type Api = ReturnType<typeof createApi>

/** The data of an openapi-fetch result, or its problem thrown: `const conv = await ok(api.client.GET(…))`. */
export async function ok<T>(call: Promise<{ data?: T; error?: unknown; response: Response }>): Promise<T> {
  const r = await call
  if (r.response.ok) return r.data as T
  // openapi-fetch has read the body already: its parsed problem is `error`.
  const body = r.error && typeof r.error === 'object' ? (r.error as ProblemBody) : null
  throw new ApiProblem(r.response.status, body, r.response.headers.get('X-Request-ID'))
}
