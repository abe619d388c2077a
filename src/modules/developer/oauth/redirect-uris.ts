/**
 * Redirect URIs are registered and matched as exact strings (RFC 9700 §2.1, §4.1): no wildcard, no
 * pattern, no normalisation — a prefix, another port or an added path is simply another string. At
 * registration: an absolute https URL, or http only on a loopback host (127.0.0.1, [::1], localhost) for
 * development; no fragment (RFC 6749 §3.1.2), no user-info, no `*` anywhere.
 */
const LOOPBACK = new Set(['127.0.0.1', '[::1]', 'localhost'])

export function redirectUriProblem(raw: string): string | null {
  if (raw.includes('*')) return 'wildcards are not accepted; register each redirect URI exactly'
  if (raw.includes('#')) return 'a redirect URI must not have a fragment'
  if (/[\s\u0000-\u001f\u007f]/.test(raw)) return 'a redirect URI must not contain spaces or control characters'
  let url: URL
  try {
    url = new URL(raw)
  } catch {
    return 'must be an absolute URL'
  }
  if (url.username || url.password) return 'a redirect URI must not carry user information'
  if (url.protocol === 'https:') return url.hostname ? null : 'must name a host'
  if (url.protocol === 'http:') return LOOPBACK.has(url.hostname) ? null : 'must use https (http only on 127.0.0.1, [::1] or localhost, for development)'
  return 'must use https (http only on 127.0.0.1, [::1] or localhost, for development)'
}

/** The registered URI equal to `presented`, byte for byte, or null. */
export function matchRedirectUri(registered: readonly string[], presented: string | null): string | null {
  if (presented === null) return null
  return registered.find((r) => r === presented) ?? null
}
