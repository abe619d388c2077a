import { AppError } from '../../kernel/errors.js'
import { checkOutboundUrl, OutboundUrlRefused, policyLookup } from '../../kernel/outbound/address-policy.js'
import type { Mode } from '../../kernel/tenant.js'

const PLAYGROUND_PATH = /^(\/sandbox)?\/v2\/webhooks\/playground\/[A-Za-z0-9_-]{22,64}\/?$/

/** The service's own Playground is always an allowed destination, also when it resolves to a private address. */
export function isOwnPlayground(url: URL, publicUrl: string): boolean {
  const base = new URL(publicUrl)
  const basePath = base.pathname.replace(/\/$/, '')
  if (url.origin !== base.origin || !url.pathname.startsWith(basePath)) return false
  return PLAYGROUND_PATH.test(url.pathname.slice(basePath.length))
}

/** The token of a Playground URL (host-agnostic), for signature diagnostics. */
export function playgroundToken(url: string): string | null {
  try {
    const m = /\/webhooks\/playground\/([A-Za-z0-9_-]{22,64})\/?$/.exec(new URL(url).pathname)
    return m ? m[1] : null
  } catch {
    return null
  }
}

export interface DestinationRules {
  publicUrl: string
  allowPrivateNetworks: boolean
}

const invalid = (detail: string) => new AppError('webhook_url_invalid', detail, { errors: [{ pointer: '/body/url', detail }] })
const forbidden = (detail: string) => new AppError('webhook_url_forbidden', detail, { errors: [{ pointer: '/body/url', detail }] })

/** Create/update time: scheme, https on live, and a destination the outbound policy allows. */
export async function checkEndpointUrl(raw: string, mode: Mode, rules: DestinationRules): Promise<string> {
  let url: URL
  try {
    url = new URL(raw)
  } catch {
    throw invalid('The url is not an absolute URL.')
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:') throw invalid('The url must use https (or http in the sandbox).')
  if (url.username || url.password) throw invalid('The url must not contain credentials; use a secret path or verify the signature instead.')
  const own = isOwnPlayground(url, rules.publicUrl)
  if (mode === 'live' && url.protocol !== 'https:' && !own) throw invalid('Live endpoints must use https; http is accepted only in the sandbox.')
  if (!own) await checkDestination(url, rules, forbidden)
  return url.toString()
}

/**
 * Delivery time: re-resolve (the name may now point elsewhere: DNS rebinding). `guarded` picks the agent:
 * true → `guardedLookup`, false → `openLookup` (the own Playground, or private networks allowed).
 */
export async function checkDeliveryUrl(raw: string, rules: DestinationRules): Promise<{ guarded: boolean }> {
  const url = new URL(raw)
  if (isOwnPlayground(url, rules.publicUrl)) return { guarded: false }
  await checkDestination(url, rules, (d) => new Error(d))
  return { guarded: !rules.allowPrivateNetworks }
}

async function checkDestination(url: URL, rules: DestinationRules, fail: (detail: string) => Error): Promise<void> {
  try {
    await checkOutboundUrl(url.href, { allowPrivateNetworks: rules.allowPrivateNetworks })
  } catch (err) {
    if (!(err instanceof OutboundUrlRefused)) throw err
    // Where private networks are allowed a name may resolve only later (offline tests, a receiver not yet
    // deployed); the connect-time lookup still applies the policy to whatever it resolves to then.
    if (err.reason === 'unresolvable' && rules.allowPrivateNetworks) return
    throw fail(`${err.message}${hint(err)}`)
  }
}

function hint(err: OutboundUrlRefused): string {
  if (err.verdict?.class === 'private') {
    return ' Deliveries to loopback, private, link-local or metadata addresses are refused (operators may set WEBHOOK_ALLOW_PRIVATE_NETWORKS=true).'
  }
  if (err.verdict?.class === 'forbidden') return ' This holds even with WEBHOOK_ALLOW_PRIVATE_NETWORKS=true.'
  return ''
}

/**
 * The lookups of the delivery agents: the address connected to is the one checked, so a name cannot
 * resolve publicly for the check and privately for the connection. `openLookup` still refuses link-local
 * and metadata addresses.
 */
export const guardedLookup = policyLookup({ allowPrivateNetworks: false })
export const openLookup = policyLookup({ allowPrivateNetworks: true })
