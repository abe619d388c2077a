import { lookup as dnsLookup, type LookupAddress } from 'node:dns'
import { promises as dns } from 'node:dns'
import type { LookupFunction } from 'node:net'
import ipaddr from 'ipaddr.js'
import { AppError } from '../../kernel/errors.js'
import type { Mode } from '../../kernel/tenant.js'

/** Only ordinary public unicast addresses may receive deliveries (no loopback, private, link-local, metadata…). */
export function isPublicAddress(address: string): boolean {
  if (!ipaddr.isValid(address)) return false
  let ip = ipaddr.parse(address)
  if (ip.kind() === 'ipv6' && (ip as ipaddr.IPv6).isIPv4MappedAddress()) ip = (ip as ipaddr.IPv6).toIPv4Address()
  return ip.range() === 'unicast'
}

const PLAYGROUND_PATH = /^(\/sandbox)?\/v2\/webhooks\/playground\/[A-Za-z0-9_-]{22,64}\/?$/

/** The service's own Playground is always an allowed destination, whatever it resolves to. */
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

const invalid = (detail: string) =>
  new AppError('webhook_url_invalid', detail, { errors: [{ pointer: '/body/url', detail }] })
const forbidden = (detail: string) =>
  new AppError('webhook_url_forbidden', detail, { errors: [{ pointer: '/body/url', detail }] })

const hostOf = (url: URL) => url.hostname.replace(/^\[|\]$/g, '')

/** Create/update time: scheme, https on live, and (unless allowed) a public destination. */
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
  if (!own && !rules.allowPrivateNetworks) await assertPublicHost(hostOf(url), forbidden)
  return url.toString()
}

/** Delivery time: re-resolve (the name may now point elsewhere: DNS rebinding). */
export async function checkDeliveryUrl(raw: string, rules: DestinationRules): Promise<{ guarded: boolean }> {
  const url = new URL(raw)
  if (rules.allowPrivateNetworks || isOwnPlayground(url, rules.publicUrl)) return { guarded: false }
  await assertPublicHost(hostOf(url), (d) => new Error(d))
  return { guarded: true }
}

async function assertPublicHost(host: string, fail: (detail: string) => Error): Promise<void> {
  let addresses: string[]
  if (ipaddr.isValid(host)) addresses = [host]
  else {
    try {
      addresses = (await dns.lookup(host, { all: true, verbatim: true })).map((a) => a.address)
    } catch {
      throw fail(`The host ${host} does not resolve.`)
    }
  }
  const bad = addresses.find((a) => !isPublicAddress(a))
  if (bad !== undefined) {
    throw fail(`The host ${host} resolves to ${bad}, a loopback, private, link-local or metadata address; deliveries there are refused (operators may set WEBHOOK_ALLOW_PRIVATE_NETWORKS=true).`)
  }
}

/**
 * A `lookup` for the HTTP agent that refuses non-public answers: the address connected to is the one
 * checked, so a name cannot resolve publicly for the check and privately for the connection.
 */
export const guardedLookup: LookupFunction = (hostname, options, callback) => {
  dnsLookup(hostname, { ...options, all: true }, (err, addresses) => {
    if (err) return (callback as (e: Error) => void)(err)
    const list = addresses as unknown as LookupAddress[]
    const bad = list.find((a) => !isPublicAddress(a.address))
    if (bad) return (callback as (e: Error) => void)(new Error(`${hostname} resolved to non-public address ${bad.address}; refused`))
    if ((options as { all?: boolean }).all) return (callback as unknown as (e: null, a: LookupAddress[]) => void)(null, list)
    const first = list[0]
    ;(callback as (e: null, a: string, f: number) => void)(null, first.address, first.family)
  })
}
