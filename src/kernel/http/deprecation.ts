/**
 * Headers that announce a deprecated feature (a query option, a field form, an endpoint):
 * `Deprecation` (RFC 9745: a Structured Field date, `@` + Unix seconds), `Sunset` (RFC 8594: an
 * HTTP-date) and `Link` with rel="deprecation" (a page saying what to use instead) and, when there is
 * one, rel="successor-version". Only the responses that used the deprecated feature carry them.
 */
export interface Deprecation {
  /** When the feature was deprecated. */
  since: Date
  /** When it stops working. */
  sunset: Date
  /** Human-readable page about the deprecation. */
  docs: string
  /** What replaces it (absolute URL or path). */
  successor?: string
}

export function deprecationHeaders(d: Deprecation): Record<string, string> {
  const links = [`<${d.docs}>; rel="deprecation"; type="text/html"`]
  if (d.successor) links.push(`<${d.successor}>; rel="successor-version"`)
  return {
    deprecation: `@${Math.floor(d.since.getTime() / 1000)}`,
    sunset: d.sunset.toUTCString(),
    link: links.join(', '),
  }
}
