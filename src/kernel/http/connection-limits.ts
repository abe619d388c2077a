import type { Server } from 'node:http'
import type { Socket } from 'node:net'
import ipaddr from 'ipaddr.js'
import type { Config } from '../../config.js'

// proxy-addr's names for TRUST_PROXY (the same ranges Fastify's trustProxy gives them).
const NAMED: Record<string, string[]> = {
  loopback: ['127.0.0.1/8', '::1/128'],
  linklocal: ['169.254.0.0/16', 'fe80::/10'],
  uniquelocal: ['10.0.0.0/8', '172.16.0.0/12', '192.168.0.0/16', 'fc00::/7'],
}

/** TRUST_PROXY as Fastify's trustProxy option (its typings lack the hop count its runtime accepts: a function says it). */
export function fastifyTrustProxy(trust: Config['trustProxy']): boolean | string[] | ((address: string, hop: number) => boolean) {
  return typeof trust === 'number' ? (_address, hop) => hop < trust : trust
}

/** Whether the TCP peer at `address` is a proxy TRUST_PROXY trusts (so its connections stand for many clients). */
export function trustedPeer(trust: Config['trustProxy']): (address: string) => boolean {
  if (trust === true) return () => true
  if (trust === false || trust === 0) return () => false
  // A hop count trusts the nearest hops whoever they are: the peer is always the first of them.
  if (typeof trust === 'number') return () => true
  const ranges = trust
    .flatMap((entry) => NAMED[entry] ?? [entry])
    .map((cidr) => {
      const [address, bits] = cidr.split('/')
      const parsed = ipaddr.parse(address)
      return [parsed, bits === undefined ? (parsed.kind() === 'ipv4' ? 32 : 128) : Number(bits)] as [ipaddr.IPv4 | ipaddr.IPv6, number]
    })
  return (address) => {
    if (!ipaddr.isValid(address)) return false
    let parsed = ipaddr.parse(address)
    if (parsed.kind() === 'ipv6' && (parsed as ipaddr.IPv6).isIPv4MappedAddress()) parsed = (parsed as ipaddr.IPv6).toIPv4Address()
    return ranges.some(([range, bits]) => range.kind() === parsed.kind() && parsed.match(range, bits))
  }
}

/**
 * Caps the connections one client address holds open at once (HTTP_MAX_CONNECTIONS_PER_IP): one more is
 * closed at once, before anything is read, so a single client cannot pin the sockets and memory of idle
 * or trickling connections (each of which the header and request timeouts end only later). Trusted proxies
 * (TRUST_PROXY) are exempt: their connections carry everyone behind them. 0 turns the cap off.
 */
export function capConnectionsPerAddress(server: Server, max: number, trusted: (address: string) => boolean): void {
  if (max <= 0) return
  const open = new Map<string, number>()
  server.on('connection', (socket: Socket) => {
    const address = socket.remoteAddress
    if (!address || trusted(address)) return
    const count = open.get(address) ?? 0
    if (count >= max) {
      // Nothing has been read, so there is no request to answer; a response written now could race one.
      socket.destroy()
      return
    }
    open.set(address, count + 1)
    socket.once('close', () => {
      const left = (open.get(address) ?? 1) - 1
      if (left <= 0) open.delete(address)
      else open.set(address, left)
    })
  })
}

/**
 * What a closing server would otherwise wait for, up to a timeout, though no request is in flight on it. Node's
 * closeIdleConnections runs once, when closing begins, and leaves alone:
 * - connections that never sent a byte (a client's speculative preconnect, or the spare socket a client opens
 *   when it abandons a streamed response): until the header timeout;
 * - a connection whose response was still being written then and finishes later: it becomes an idle keep-alive
 *   connection, kept for the keep-alive timeout (72 s). A streamed body's last bytes can reach the client before
 *   the stream's end does, so a client can be done and gone while its response has not yet finished here.
 * Returns what `preClose` calls: the silent ones are destroyed, and from then on a response that finishes
 * closes its connection.
 */
export function trackSilentConnections(server: Server): () => void {
  const silent = new Set<Socket>()
  server.on('connection', (socket: Socket) => {
    silent.add(socket)
    socket.once('data', () => silent.delete(socket))
    socket.once('close', () => silent.delete(socket))
  })
  return () => {
    for (const socket of silent) socket.destroy()
    silent.clear()
    // Node reads keepAliveTimeout when a response finishes and sets it as the idle socket's timeout, on which it
    // destroys the socket: a response finishing from now on closes its connection at once.
    server.keepAliveTimeout = 1
  }
}

/** Node's checks of header and request timeouts run on this interval (default 30 s, far past a short timeout). */
export function checkingInterval(limits: Config['http']): number {
  return Math.max(100, Math.min(1000, Math.floor(Math.min(limits.headersTimeoutMs, limits.requestTimeoutMs) / 2)))
}
