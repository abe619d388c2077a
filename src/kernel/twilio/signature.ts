import { createHmac, timingSafeEqual } from 'node:crypto'
import { parse as parseQuery, stringify as stringifyQuery } from 'node:querystring'

// Twilio's X-Twilio-Signature: base64(HMAC-SHA1(auth token, URL + name + value for every parameter,
// sorted by name; a repeated name's values sorted and deduplicated)). Written here rather than imported
// from the twilio package (tens of MB of REST client for twenty lines); signature.test.ts holds it
// to the official implementation.
//
// Twilio signs the URL as configured, which a proxy in front of us may have changed: like twilio-node,
// the check also accepts the URL without its port and with the scheme's default port, then the URL as
// WHATWG-normalised and with its query re-encoded the way Node's legacy querystring does.

export type TwilioParams = Record<string, string | string[]>

export function twilioSignature(authToken: string, url: string, params: TwilioParams): string {
  let data = url
  for (const name of Object.keys(params).sort()) {
    const value = params[name]
    const values = Array.isArray(value) ? [...new Set(value)].sort() : [value]
    for (const v of values) data += name + v
  }
  return createHmac('sha1', authToken).update(Buffer.from(data, 'utf8')).digest('base64')
}

export function verifyTwilioSignature(authToken: string, url: string, params: TwilioParams, header: string | string[] | null | undefined): boolean {
  const given = Buffer.from(typeof header === 'string' ? header : '', 'utf8')
  if (given.length === 0 || authToken === '') return false
  // Every candidate is computed and compared, so the time taken does not say which one was closest.
  let ok = false
  for (const candidate of candidateUrls(url)) {
    const expected = Buffer.from(twilioSignature(authToken, candidate, params), 'utf8')
    if (expected.length === given.length && timingSafeEqual(expected, given)) ok = true
  }
  return ok
}

/** The parameters of a form body as the signature reads them (a repeated name keeps all its values). */
export function twilioParams(form: URLSearchParams): TwilioParams {
  const out: TwilioParams = {}
  for (const name of new Set(form.keys())) {
    const values = form.getAll(name)
    out[name] = values.length === 1 ? values[0] : values
  }
  return out
}

function candidateUrls(url: string): string[] {
  const asReceived = [withoutPort(url), withPort(url)]
  let normalised: string
  try {
    normalised = new URL(url).toString()
  } catch {
    return asReceived
  }
  const a = withoutPort(normalised)
  const b = withPort(normalised)
  return [...new Set([...asReceived, a, b, legacyQuery(a), legacyQuery(b)])]
}

interface UrlParts {
  scheme: string
  userInfo: string
  host: string
  port: string
  rest: string
}

// Split by hand: `new URL()` would re-encode the path and query, and the string signed is the raw one.
function splitUrl(url: string): UrlParts | null {
  const m = /^([a-z][a-z0-9+.-]*:\/\/)([^/?#]*)/i.exec(url)
  if (!m) return null
  const authority = m[2]
  const at = authority.lastIndexOf('@')
  const hostPort = authority.slice(at + 1)
  // A colon starts the port only after an IPv6 literal's closing bracket.
  const colon = hostPort.indexOf(':', hostPort.lastIndexOf(']') + 1)
  return {
    scheme: m[1],
    userInfo: authority.slice(0, at + 1),
    host: colon === -1 ? hostPort : hostPort.slice(0, colon),
    port: colon === -1 ? '' : hostPort.slice(colon),
    rest: url.slice(m[0].length),
  }
}

function withoutPort(url: string): string {
  const p = splitUrl(url)
  return p ? p.scheme + p.userInfo + p.host + p.rest : url
}

function withPort(url: string): string {
  const p = splitUrl(url)
  if (!p || p.port) return url
  return p.scheme + p.userInfo + p.host + (p.scheme.toLowerCase() === 'https://' ? ':443' : ':80') + p.rest
}

function legacyQuery(url: string): string {
  const q = url.indexOf('?')
  if (q === -1 || q === url.length - 1) return url
  return `${url.slice(0, q)}?${stringifyQuery(parseQuery(url.slice(q + 1)))}`
}
