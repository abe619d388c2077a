// robots.txt per origin, read the way RFC 9309 asks: a 4xx answer means no rules (crawl everything), a
// 5xx answer or an unreachable host means "assume complete disallow" until it can be read. Parsing and
// matching (groups, wildcards, `$`, longest match, Allow vs Disallow) are robots-parser's.
import * as robotsModule from 'robots-parser'
import type { Fetcher } from './crawl-fetcher.js'

export interface RobotsRules {
  /** Null when the site may be crawled under these rules; else why nothing on this origin is fetched. */
  unavailable: string | null
  /** Set when robots.txt was refused by the outbound address policy: no page of the origin can be fetched either. */
  refused: string | null
  allowed(url: string): boolean
  /** Crawl-delay for our agent, in milliseconds, as written (the caller caps it). */
  crawlDelayMs: number | null
  /** Sitemap: lines, absolute. */
  sitemaps: string[]
}

/** RFC 9309 lets a crawler stop reading after 500 KiB. */
const MAX_ROBOTS_BYTES = 500 * 1024

interface ParsedRobots {
  isAllowed(url: string, ua?: string): boolean | undefined
  getCrawlDelay(ua?: string): number | undefined
  getSitemaps(): string[]
}
type RobotsParse = (url: string, contents: string) => ParsedRobots
// A CommonJS module (`module.exports = fn`) whose types declare an ES default export: at run time the
// namespace's `default` is the function; a bundler may nest it once more.
const robotsNs = robotsModule as unknown as { default: RobotsParse | { default: RobotsParse } }
const robotsParser: RobotsParse = typeof robotsNs.default === 'function' ? robotsNs.default : robotsNs.default.default

const allowAll = (): RobotsRules => ({ unavailable: null, refused: null, allowed: () => true, crawlDelayMs: null, sitemaps: [] })
const denyAll = (why: string, refused: string | null = null): RobotsRules => ({ unavailable: why, refused, allowed: () => false, crawlDelayMs: null, sitemaps: [] })

export async function loadRobots(fetcher: Fetcher, origin: string, agentToken: string, signal?: AbortSignal): Promise<RobotsRules> {
  const robotsUrl = `${origin}/robots.txt`
  const out = await fetcher.fetch({ url: robotsUrl, accept: () => true, maxBytes: MAX_ROBOTS_BYTES, signal })
  if (out.kind === 'refused') return denyAll(`robots.txt ${out.reason}`, out.reason)
  if (out.kind === 'error') return denyAll(`robots.txt could not be read (${out.reason}); the site is not crawled until it can be`)
  if (out.status >= 500 || out.status === 429) return denyAll(`robots.txt answered HTTP ${out.status}; the site is not crawled until it can be read`)
  if (out.status >= 400) return allowAll()
  if (out.status !== 200) return allowAll()
  // The fetcher does not keep a truncated body, so there are no rules to read: stay on the safe side.
  if (out.tooLarge) return denyAll('robots.txt is larger than 500 KiB and could not be read')
  // Rules apply to the origin asked about, also when robots.txt was redirected elsewhere (RFC 9309 2.3.1.2).
  const robots = robotsParser(robotsUrl, out.body ? out.body.toString('utf8') : '')
  const delay = robots.getCrawlDelay(agentToken)
  return {
    unavailable: null,
    refused: null,
    // isAllowed answers undefined for a URL of another origin: that origin has its own robots.txt.
    allowed: (url) => robots.isAllowed(url, agentToken) !== false,
    crawlDelayMs: typeof delay === 'number' && Number.isFinite(delay) && delay > 0 ? delay * 1000 : null,
    sitemaps: robots.getSitemaps(),
  }
}
