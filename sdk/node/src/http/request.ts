// Building requests: the base URL for a key, query strings, path parameters.

/** `…/v2` or `…/sandbox/v2` at the end of a base URL: used as given. */
const VERSIONED = /\/(sandbox\/)?v2$/

/**
 * The base URL requests go to: an origin (`https://api.example.com`) gets `/v2` for svc_live_ keys and
 * `/sandbox/v2` for svc_test_ keys; a URL that already ends with `/v2` or `/sandbox/v2` is used as-is.
 */
export function resolveBaseUrl(baseUrl: string, apiKey: string | undefined): string {
  const trimmed = baseUrl.replace(/\/+$/, '')
  if (VERSIONED.test(trimmed)) return trimmed
  return `${trimmed}${apiKey?.startsWith('svc_test_') ? '/sandbox/v2' : '/v2'}`
}

function scalar(v: unknown): string {
  if (typeof v === 'boolean') return v ? 'true' : 'false'
  if (v instanceof Date) return v.toISOString()
  if (typeof v === 'object') return JSON.stringify(v)
  return String(v)
}

/** A query string (without `?`): arrays as repeated keys, booleans true/false, null and undefined left out. */
export function encodeQuery(query: object | undefined | null): string {
  const sp = new URLSearchParams()
  for (const [key, value] of Object.entries(query ?? {})) {
    if (value === undefined || value === null) continue
    if (Array.isArray(value)) {
      for (const item of value) if (item !== undefined && item !== null) sp.append(key, scalar(item))
    } else sp.append(key, scalar(value))
  }
  return sp.toString()
}

/** `pathOf('/leads/{id}', { id })`: the template with each parameter URL-encoded; an empty one throws. */
export function pathOf(template: string, params: Record<string, string>): string {
  return template.replace(/\{([^}]+)\}/g, (_, name: string) => {
    const value = params[name]
    if (value === undefined || value === null || String(value) === '') throw new TypeError(`Missing path parameter ${name} for ${template}`)
    return encodeURIComponent(String(value))
  })
}

/** Whether a content type is JSON (`application/json`, `application/problem+json`, …). */
export function isJson(contentType: string | null): boolean {
  return !!contentType && /^application\/([\w.-]+\+)?json\b/i.test(contentType.trim())
}
