// One policy for every URL the service fetches on someone else's behalf (SSRF): whoever controls a URL
// must not make the service reach its own network, its cloud's metadata service or a local socket.
//
// Three classes:
//   public     ordinary global unicast: always allowed.
//   private    this box or its networks (loopback, RFC 1918, ULA, CGNAT, …): allowed only where the
//              operator allows private networks (single-box installs, tests).
//   forbidden  never a legitimate destination, whatever the operator allows: link-local (where cloud
//              metadata and instance credentials live), the metadata addresses themselves, multicast,
//              broadcast, documentation, reserved.
//
// IPv6 forms that carry an IPv4 address (mapped, compatible, NAT64, 6to4, Teredo) are classified by the
// IPv4 address they carry: the host's stack or a translator on the path delivers them there, so
// `::a9fe:a9fe` is 169.254.169.254. Odd IPv4 spellings (`2130706433`, `0x7f.1`, `127.1`) need nothing
// here: the WHATWG URL parser already writes them as dotted quads in `hostname`.
//
// Callers check at every step where the destination can change: when the URL is stored (creation and
// update), before each attempt (a name may now resolve elsewhere), at connect time (`policyLookup`, which
// sees the address actually connected to: DNS rebinding) and at each redirect (`checkRedirect`).
// IP literals never reach a lookup function (Node connects to them directly), so the per-attempt check is
// what guards them; names are guarded by both.
import type { LookupAddress } from 'node:dns'
import { isIP, type LookupFunction } from 'node:net'
import ipaddr from 'ipaddr.js'
import { sharedLookup } from './shared-lookup.js'

export type AddressClass = 'public' | 'private' | 'forbidden'

export interface AddressVerdict {
  address: string
  class: AddressClass
  /** The range that decided ('loopback', 'cloud metadata', …). */
  range: string
  /** Set when an IPv6 form carried the IPv4 address that decided. */
  embedded?: { ipv4: string; form: string }
}

type Rule = readonly [cidr: string, cls: AddressClass, range: string]

// First match wins, so exact addresses come before the ranges holding them.
const IPV4_RULES: readonly Rule[] = [
  ['169.254.169.254/32', 'forbidden', 'cloud metadata'], // AWS, GCP, Azure, OCI, DigitalOcean, …
  ['169.254.170.2/32', 'forbidden', 'cloud metadata'], // AWS ECS task credentials
  ['100.100.100.200/32', 'forbidden', 'cloud metadata'], // Alibaba Cloud (inside CGNAT)
  ['192.0.0.192/32', 'forbidden', 'cloud metadata'], // Oracle Cloud (legacy)
  ['0.0.0.0/8', 'private', 'unspecified'], // 0.0.0.0 reaches the local host on Linux
  ['10.0.0.0/8', 'private', 'private (RFC 1918)'],
  ['172.16.0.0/12', 'private', 'private (RFC 1918)'],
  ['192.168.0.0/16', 'private', 'private (RFC 1918)'],
  ['100.64.0.0/10', 'private', 'carrier-grade NAT'], // also where some clouds put internal services
  ['127.0.0.0/8', 'private', 'loopback'],
  ['169.254.0.0/16', 'forbidden', 'link-local'], // metadata, instance credentials, no routing
  ['192.0.0.0/24', 'private', 'IETF protocol assignments'],
  ['192.0.2.0/24', 'forbidden', 'documentation'],
  ['198.51.100.0/24', 'forbidden', 'documentation'],
  ['203.0.113.0/24', 'forbidden', 'documentation'],
  ['192.88.99.0/24', 'forbidden', 'reserved'], // retired 6to4 relay anycast
  ['198.18.0.0/15', 'private', 'benchmarking'], // lab networks and fake-IP DNS proxies
  ['224.0.0.0/4', 'forbidden', 'multicast'],
  ['255.255.255.255/32', 'forbidden', 'broadcast'],
  ['240.0.0.0/4', 'forbidden', 'reserved'],
  ['0.0.0.0/0', 'public', 'public'],
]

// Checked before the embedded-IPv4 forms: `::` and `::1` sit inside the IPv4-compatible ::/96.
const IPV6_FIRST: readonly Rule[] = [
  ['::/128', 'private', 'unspecified'],
  ['::1/128', 'private', 'loopback'],
  ['fd00:ec2::254/128', 'forbidden', 'cloud metadata'], // AWS IMDS over IPv6 (inside ULA)
]

const IPV6_RULES: readonly Rule[] = [
  ['100::/64', 'forbidden', 'discard-only'],
  ['2001:2::/48', 'private', 'benchmarking'],
  ['2001:10::/28', 'forbidden', 'reserved (ORCHID)'],
  ['2001:20::/28', 'forbidden', 'reserved (ORCHIDv2)'],
  ['2001::/23', 'private', 'IETF protocol assignments'],
  ['2001:db8::/32', 'forbidden', 'documentation'],
  ['3fff::/20', 'forbidden', 'documentation'],
  ['2000::/3', 'public', 'public'], // global unicast
  ['fc00::/7', 'private', 'unique local'],
  ['fe80::/10', 'forbidden', 'link-local'],
  ['fec0::/10', 'private', 'site-local (deprecated)'],
  ['ff00::/8', 'forbidden', 'multicast'],
  ['::/0', 'forbidden', 'reserved'], // unassigned, SRv6 SIDs, …: not global unicast
]

type Bytes = number[]
type Candidate = { form: string; bytes: Bytes }
interface Embedding {
  cidr: string
  /** The IPv4 addresses the form may carry, the destination first (it is named when classes tie). */
  extract(b: Bytes): { candidates: Candidate[]; floor?: AddressClass }
}

const tail = (form: string) => (b: Bytes) => ({ candidates: [{ form, bytes: b.slice(12, 16) }] })

const EMBEDDINGS: readonly Embedding[] = [
  { cidr: '::ffff:0:0/96', extract: tail('IPv4-mapped') },
  { cidr: '::ffff:0:0:0/96', extract: tail('IPv4-translated') }, // RFC 6145
  { cidr: '::/96', extract: tail('IPv4-compatible') }, // deprecated, still routed by some stacks
  { cidr: '64:ff9b::/96', extract: tail('NAT64') }, // RFC 6052 well-known prefix
  { cidr: '64:ff9b:1::/48', extract: nat64LocalUse }, // RFC 8215
  { cidr: '2002::/16', extract: (b) => ({ candidates: [{ form: '6to4', bytes: b.slice(2, 6) }] }) },
  // Teredo (RFC 4380): the client's IPv4 is stored inverted in the last 32 bits, the server's in bits 32–63.
  {
    cidr: '2001::/32',
    extract: (b) => ({
      candidates: [
        { form: 'Teredo client', bytes: b.slice(12, 16).map((x) => x ^ 0xff) },
        { form: 'Teredo server', bytes: b.slice(4, 8) },
      ],
    }),
  },
]

/**
 * The local-use prefix may be cut at any RFC 6052 length, which moves the IPv4 address. With bits 48–95
 * zero it is the /96 layout and classified like the well-known prefix; otherwise every position is tried
 * (the u octet, bits 64–71, is skipped) and the result is at least private: a translator on our network.
 */
function nat64LocalUse(b: Bytes): { candidates: Candidate[]; floor?: AddressClass } {
  const form = 'NAT64 local-use'
  if (b.slice(6, 12).every((x) => x === 0)) return { candidates: [{ form, bytes: b.slice(12, 16) }] }
  const positions = [[b[6], b[7], b[9], b[10]], [b[7], b[9], b[10], b[11]], b.slice(9, 13), b.slice(12, 16)]
  return { candidates: positions.map((bytes) => ({ form, bytes })), floor: 'private' }
}

const compile = (rules: readonly Rule[]) => rules.map(([cidr, cls, range]) => ({ net: ipaddr.parseCIDR(cidr), cls, range }))
const V4 = compile(IPV4_RULES)
const V6_FIRST = compile(IPV6_FIRST)
const V6 = compile(IPV6_RULES)
const EMBEDDED = EMBEDDINGS.map((e) => ({ net: ipaddr.parseCIDR(e.cidr), extract: e.extract }))
const RANK: Record<AddressClass, number> = { public: 0, private: 1, forbidden: 2 }

function byRules(ip: ipaddr.IPv4 | ipaddr.IPv6, rules: ReturnType<typeof compile>): { cls: AddressClass; range: string } | null {
  for (const r of rules) if (ip.kind() === r.net[0].kind() && ip.match(r.net)) return { cls: r.cls, range: r.range }
  return null
}

function inspectV4(address: string, ip: ipaddr.IPv4): AddressVerdict {
  const hit = byRules(ip, V4)!
  return { address, class: hit.cls, range: hit.range }
}

function inspectV6(address: string, ip: ipaddr.IPv6): AddressVerdict {
  const first = byRules(ip, V6_FIRST)
  if (first) return { address, class: first.cls, range: first.range }
  const embedding = EMBEDDED.find((e) => ip.match(e.net))
  if (embedding) {
    const { candidates, floor } = embedding.extract(ip.toByteArray())
    let worst: AddressVerdict | null = null
    for (const c of candidates) {
      const ipv4 = new ipaddr.IPv4(c.bytes).toString()
      const v = inspectV4(address, ipaddr.IPv4.parse(ipv4))
      if (worst === null || RANK[v.class] > RANK[worst.class]) worst = { ...v, embedded: { ipv4, form: c.form } }
    }
    if (floor && RANK[floor] > RANK[worst!.class]) return { address, class: floor, range: 'NAT64 local-use prefix' }
    return worst!
  }
  const hit = byRules(ip, V6)!
  return { address, class: hit.cls, range: hit.range }
}

/** The class of one address and why. Anything that is not an IP address is forbidden (fail closed). */
export function inspectAddress(address: string): AddressVerdict {
  if (!ipaddr.isValid(address)) return { address, class: 'forbidden', range: 'not an IP address' }
  const ip = ipaddr.parse(address)
  return ip.kind() === 'ipv4' ? inspectV4(address, ip as ipaddr.IPv4) : inspectV6(address, ip as ipaddr.IPv6)
}

export function classifyAddress(address: string): AddressClass {
  return inspectAddress(address).class
}

export type RefusalReason = 'invalid_url' | 'scheme' | 'unresolvable' | 'address'

export class OutboundUrlRefused extends Error {
  override readonly name = 'OutboundUrlRefused'
  /** Errors from a connect-time lookup surface through the socket, next to ENOTFOUND and its kin. */
  readonly code = 'ERR_OUTBOUND_REFUSED'
  constructor(
    readonly reason: RefusalReason,
    message: string,
    /** For reason 'address': the address refused. */
    readonly verdict?: AddressVerdict,
  ) {
    super(message)
  }
}

export interface OutboundPolicy {
  allowPrivateNetworks: boolean
  /** The resolver underneath (default `dns.lookup`, concurrent lookups of a name shared); tests stand in for DNS with it. */
  lookup?: LookupFunction
}

export interface OutboundUrlOptions extends OutboundPolicy {
  /** Without the colon or with it; default http and https. */
  allowedSchemes?: string[]
}

function explain(v: AddressVerdict): string {
  const why = v.embedded ? `${v.embedded.form} form of ${v.embedded.ipv4}, ${v.range}` : v.range
  return `a ${v.class} address (${why})`
}

/** The worst refused address of a host's answers, as an error; null when all are allowed. */
function refusal(host: string, addresses: string[], allowPrivateNetworks: boolean): OutboundUrlRefused | null {
  const refused = addresses
    .map(inspectAddress)
    .filter((v) => v.class === 'forbidden' || (v.class === 'private' && !allowPrivateNetworks))
    .sort((a, b) => RANK[b.class] - RANK[a.class])
  const v = refused[0]
  if (!v) return null
  const subject = v.address === host ? `${v.address} is` : `${host} resolves to ${v.address},`
  const rule = v.class === 'forbidden' ? 'never an allowed destination' : 'private networks are not allowed'
  return new OutboundUrlRefused('address', `${subject} ${explain(v)}; ${rule}.`, v)
}

// One per process, so every caller's lookups of a name in flight share one resolver call.
const defaultLookup = sharedLookup()

function resolveAll(host: string, lookup: LookupFunction): Promise<string[]> {
  return new Promise((resolve, reject) => {
    lookup(host, { all: true, verbatim: true }, (err, result) => {
      const list = Array.isArray(result) ? result.map((a) => a.address) : []
      if (err || list.length === 0) reject(new OutboundUrlRefused('unresolvable', `The host ${host} does not resolve.`))
      else resolve(list)
    })
  })
}

/**
 * Parses `raw`, checks its scheme, resolves its host (every address, as the resolver returns them) and
 * refuses when any address is forbidden, or private while private networks are not allowed. URL-shape
 * rules (credentials, https only, paths) are the caller's.
 */
export async function checkOutboundUrl(raw: string, opts: OutboundUrlOptions): Promise<{ url: URL; addresses: string[] }> {
  let url: URL
  try {
    url = new URL(raw)
  } catch {
    throw new OutboundUrlRefused('invalid_url', 'The URL is not an absolute URL.')
  }
  const schemes = (opts.allowedSchemes ?? ['http', 'https']).map((s) => `${s.replace(/:$/, '')}:`)
  if (!schemes.includes(url.protocol)) throw new OutboundUrlRefused('scheme', `The scheme ${url.protocol} is not allowed (${schemes.join(', ')}).`)
  const host = url.hostname.replace(/^\[(.*)\]$/, '$1')
  if (host === '') throw new OutboundUrlRefused('invalid_url', 'The URL has no host.')
  const addresses = isIP(host) ? [host] : await resolveAll(host, opts.lookup ?? defaultLookup)
  const refused = refusal(host, addresses, opts.allowPrivateNetworks)
  if (refused) throw refused
  return { url, addresses }
}

/** A redirect's target, resolved against the URL that answered, under the same policy. */
export async function checkRedirect(location: string, base: URL | string, opts: OutboundUrlOptions): Promise<{ url: URL; addresses: string[] }> {
  let target: string
  try {
    target = new URL(location, base).href
  } catch {
    throw new OutboundUrlRefused('invalid_url', `The redirect target ${JSON.stringify(location)} is not a URL.`)
  }
  return checkOutboundUrl(target, opts)
}

/**
 * A `lookup` for sockets (undici `connect.lookup`, `http.Agent`): the addresses handed to the connection
 * are the ones checked, so a name cannot resolve to a public address for the check and to a private one
 * for the connection. With private networks allowed it still refuses forbidden addresses.
 */
export function policyLookup(policy: OutboundPolicy): LookupFunction {
  const base = policy.lookup ?? defaultLookup
  return (hostname, options, callback) => {
    base(hostname, { ...options, all: true }, (err, result) => {
      if (err) return callback(err, '')
      const list: LookupAddress[] = typeof result === 'string' ? [{ address: result, family: isIP(result) }] : result
      if (list.length === 0) return callback(new OutboundUrlRefused('unresolvable', `The host ${hostname} does not resolve.`), '')
      const refused = refusal(
        hostname,
        list.map((a) => a.address),
        policy.allowPrivateNetworks,
      )
      if (refused) return callback(refused, '')
      if (options.all) return callback(null, list)
      callback(null, list[0].address, list[0].family)
    })
  }
}
