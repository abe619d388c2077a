// test-engines: sqlite (no database involved: one pass is enough; scripts/test.mjs leaves it out of PostgreSQL's)
import assert from 'node:assert/strict'
import { createServer, type Server } from 'node:http'
import type { AddressInfo, LookupFunction } from 'node:net'
import { after, before, describe, it } from 'node:test'
import { Agent, request } from 'undici'
import { checkOutboundUrl, checkRedirect, classifyAddress, inspectAddress, OutboundUrlRefused, policyLookup, type AddressClass } from './address-policy.js'

// Teredo: 2001:0:<server IPv4>:<flags>:<port>:<client IPv4 XOR ffff:ffff>; server 65.54.227.120 is public.
const teredo = (clientHex: string) => `2001:0:4136:e378:8000:63bf:${clientHex}`

const TABLE: [address: string, cls: AddressClass, range: string][] = [
  // plain IPv4
  ['93.184.215.14', 'public', 'public'],
  ['8.8.8.8', 'public', 'public'],
  ['10.1.2.3', 'private', 'private (RFC 1918)'],
  ['172.16.0.1', 'private', 'private (RFC 1918)'],
  ['192.168.0.10', 'private', 'private (RFC 1918)'],
  ['127.0.0.1', 'private', 'loopback'],
  ['127.255.0.9', 'private', 'loopback'],
  ['100.64.0.1', 'private', 'carrier-grade NAT'],
  ['0.0.0.0', 'private', 'unspecified'],
  ['198.18.0.1', 'private', 'benchmarking'],
  ['169.254.1.1', 'forbidden', 'link-local'],
  ['169.254.169.254', 'forbidden', 'cloud metadata'],
  ['100.100.100.200', 'forbidden', 'cloud metadata'],
  ['224.0.0.1', 'forbidden', 'multicast'],
  ['239.255.255.250', 'forbidden', 'multicast'],
  ['255.255.255.255', 'forbidden', 'broadcast'],
  ['240.0.0.1', 'forbidden', 'reserved'],
  ['192.0.2.1', 'forbidden', 'documentation'],
  // plain IPv6
  ['::1', 'private', 'loopback'],
  ['::', 'private', 'unspecified'],
  ['fd00::1', 'private', 'unique local'],
  ['fc12:3456::1', 'private', 'unique local'],
  ['fe80::1', 'forbidden', 'link-local'],
  ['fe80::1%eth0', 'forbidden', 'link-local'],
  ['ff02::1', 'forbidden', 'multicast'],
  ['fd00:ec2::254', 'forbidden', 'cloud metadata'],
  ['2001:db8::1', 'forbidden', 'documentation'],
  ['2606:4700:4700::1111', 'public', 'public'],
  ['2a00:1450:4001:82b::200e', 'public', 'public'],
  ['5f00::1', 'forbidden', 'reserved'],
  // IPv4-mapped
  ['::ffff:169.254.169.254', 'forbidden', 'cloud metadata'],
  ['::ffff:a9fe:a9fe', 'forbidden', 'cloud metadata'],
  ['::ffff:127.0.0.1', 'private', 'loopback'],
  ['::ffff:8.8.8.8', 'public', 'public'],
  // IPv4-translated (RFC 6145)
  ['::ffff:0:a9fe:a9fe', 'forbidden', 'cloud metadata'],
  ['::ffff:0:808:808', 'public', 'public'],
  // IPv4-compatible (::/96): what ipaddr.js alone calls plain unicast
  ['::169.254.169.254', 'forbidden', 'cloud metadata'],
  ['::a9fe:a9fe', 'forbidden', 'cloud metadata'],
  ['::127.0.0.1', 'private', 'loopback'],
  ['::7f00:1', 'private', 'loopback'],
  ['::10.0.0.1', 'private', 'private (RFC 1918)'],
  ['::8.8.8.8', 'public', 'public'],
  // NAT64 well-known and local-use prefixes
  ['64:ff9b::a9fe:a9fe', 'forbidden', 'cloud metadata'],
  ['64:ff9b::169.254.169.254', 'forbidden', 'cloud metadata'],
  ['64:ff9b::7f00:1', 'private', 'loopback'],
  ['64:ff9b::808:808', 'public', 'public'],
  ['64:ff9b:1::a9fe:a9fe', 'forbidden', 'cloud metadata'],
  ['64:ff9b:1::7f00:1', 'private', 'loopback'],
  ['64:ff9b:1::808:808', 'public', 'public'],
  ['64:ff9b:1:a9fe:a9:fe00::', 'forbidden', 'cloud metadata'], // the /48 layout (u octet skipped)
  ['64:ff9b:1:808:8:808:808:808', 'private', 'NAT64 local-use prefix'], // another layout: at least private
  // 6to4
  ['2002:a9fe:a9fe::1', 'forbidden', 'cloud metadata'],
  ['2002:7f00:1::', 'private', 'loopback'],
  ['2002:c0a8:1::1', 'private', 'private (RFC 1918)'],
  ['2002:808:808::1', 'public', 'public'],
  // Teredo: the client address is stored inverted
  [teredo('80ff:fffe'), 'private', 'loopback'], // 127.0.0.1
  [teredo('5601:5601'), 'forbidden', 'cloud metadata'], // 169.254.169.254
  [teredo('f7f7:f7f7'), 'public', 'public'], // 8.8.8.8
  ['2001:0:7f00:1:8000:63bf:f7f7:f7f7', 'private', 'loopback'], // a loopback Teredo server
  // not an address at all
  ['localhost', 'forbidden', 'not an IP address'],
]

describe('address policy: classifyAddress', () => {
  for (const [address, cls, range] of TABLE) {
    it(`${address} is ${cls} (${range})`, () => {
      assert.equal(classifyAddress(address), cls)
      assert.equal(inspectAddress(address).range, range)
    })
  }

  it('names the IPv4 address an IPv6 form carries', () => {
    assert.deepEqual(inspectAddress('::a9fe:a9fe').embedded, { ipv4: '169.254.169.254', form: 'IPv4-compatible' })
    assert.deepEqual(inspectAddress('2002:7f00:1::').embedded, { ipv4: '127.0.0.1', form: '6to4' })
    assert.deepEqual(inspectAddress(teredo('80ff:fffe')).embedded, { ipv4: '127.0.0.1', form: 'Teredo client' })
  })
})

/** A resolver standing in for DNS: each name answers the addresses given. */
function fakeDns(names: Record<string, string[]>): LookupFunction {
  return (hostname, options, callback) => {
    const list = (names[hostname] ?? []).map((address) => ({ address, family: address.includes(':') ? 6 : 4 }))
    if (list.length === 0) return callback(Object.assign(new Error(`getaddrinfo ENOTFOUND ${hostname}`), { code: 'ENOTFOUND' }), '')
    if (options.all) return callback(null, list)
    callback(null, list[0].address, list[0].family)
  }
}

async function refusal(p: Promise<unknown>): Promise<OutboundUrlRefused> {
  try {
    await p
  } catch (err) {
    assert.ok(err instanceof OutboundUrlRefused, String(err))
    return err
  }
  assert.fail('expected a refusal')
}

describe('address policy: checkOutboundUrl', () => {
  const strict = { allowPrivateNetworks: false }
  const open = { allowPrivateNetworks: true }

  for (const raw of ['http://2130706433/', 'http://0x7f.1/', 'http://127.1/', 'http://0177.0.0.1/', 'http://127.0.0.1./']) {
    it(`reads ${raw} as 127.0.0.1 (the URL parser normalises it) and refuses it unless private networks are allowed`, async () => {
      const e = await refusal(checkOutboundUrl(raw, strict))
      assert.equal(e.reason, 'address')
      assert.equal(e.verdict?.address, '127.0.0.1')
      assert.match(e.message, /127\.0\.0\.1 is a private address \(loopback\); private networks are not allowed/)
      assert.deepEqual((await checkOutboundUrl(raw, open)).addresses, ['127.0.0.1'])
    })
  }

  for (const raw of [
    'https://[::169.254.169.254]/',
    'https://[::ffff:169.254.169.254]/',
    'https://[64:ff9b::a9fe:a9fe]/',
    'http://169.254.169.254/latest/meta-data',
    'http://[fd00:ec2::254]/',
    'http://[fe80::1]/',
  ]) {
    it(`refuses ${raw} even where private networks are allowed`, async () => {
      const e = await refusal(checkOutboundUrl(raw, open))
      assert.equal(e.verdict?.class, 'forbidden')
      assert.match(e.message, /a forbidden address \(.*(cloud metadata|link-local)\); never an allowed destination/)
    })
  }

  it('names the embedded address in the reason', async () => {
    const e = await refusal(checkOutboundUrl('https://[::169.254.169.254]/', open))
    assert.equal(e.message, '::a9fe:a9fe is a forbidden address (IPv4-compatible form of 169.254.169.254, cloud metadata); never an allowed destination.')
  })

  it('accepts public literals, also through an embedding, without a lookup', async () => {
    for (const raw of ['https://93.184.215.14/hooks', 'https://[::ffff:8.8.8.8]/', 'https://[64:ff9b::808:808]/', 'https://[2002:808:808::1]/', 'https://[2606:4700:4700::1111]/']) {
      const r = await checkOutboundUrl(raw, { ...strict, lookup: fakeDns({}) })
      assert.equal(r.url.href, new URL(raw).href)
      assert.equal(r.addresses.length, 1)
    }
  })

  it('resolves names: localhost is refused unless private networks are allowed', async () => {
    const e = await refusal(checkOutboundUrl('http://localhost:9/x', strict))
    assert.equal(e.reason, 'address')
    assert.match(e.message, /^localhost resolves to (127\.0\.0\.1|::1), a private address \(loopback\)/)
    const ok = await checkOutboundUrl('http://localhost:9/x', open)
    assert.ok(ok.addresses.length >= 1)
    assert.ok(ok.addresses.every((a) => classifyAddress(a) === 'private'))
  })

  it('refuses a name when any of its addresses is refused, naming the worst', async () => {
    const lookup = fakeDns({ 'mixed.test': ['93.184.215.14', '10.0.0.1', '169.254.169.254'] })
    const e = await refusal(checkOutboundUrl('https://mixed.test/', { ...open, lookup }))
    assert.match(e.message, /^mixed\.test resolves to 169\.254\.169\.254, a forbidden address \(cloud metadata\)/)
    const p = await refusal(checkOutboundUrl('https://mixed.test/', { ...strict, lookup: fakeDns({ 'mixed.test': ['93.184.215.14', '10.0.0.1'] }) }))
    assert.equal(p.verdict?.address, '10.0.0.1')
  })

  it('refuses names that do not resolve, URLs that are not URLs, and schemes not allowed', async () => {
    assert.equal((await refusal(checkOutboundUrl('https://nowhere.test/', { ...open, lookup: fakeDns({}) }))).reason, 'unresolvable')
    assert.equal((await refusal(checkOutboundUrl('not a url', open))).reason, 'invalid_url')
    assert.equal((await refusal(checkOutboundUrl('file:///etc/passwd', open))).reason, 'scheme')
    assert.equal((await refusal(checkOutboundUrl('http://93.184.215.14/', { ...open, allowedSchemes: ['https'] }))).reason, 'scheme')
    assert.ok(await checkOutboundUrl('https://93.184.215.14/', { ...open, allowedSchemes: ['https:'] }))
  })

  it('checks redirect targets against the URL that answered', async () => {
    const r = await checkRedirect('/next?page=2', 'https://93.184.215.14/start', strict)
    assert.equal(r.url.href, 'https://93.184.215.14/next?page=2')
    const e = await refusal(checkRedirect('http://[::ffff:a9fe:a9fe]/latest/meta-data', 'https://93.184.215.14/start', open))
    assert.equal(e.verdict?.class, 'forbidden')
    assert.equal((await refusal(checkRedirect('http://[::1', 'https://93.184.215.14/', open))).reason, 'invalid_url')
  })
})

describe('address policy: policyLookup at connect time', () => {
  let server: Server
  let port: number
  const agents: Agent[] = []
  const agent = (lookup: LookupFunction) => {
    const a = new Agent({ connect: { lookup, timeout: 2000 } })
    agents.push(a)
    return a
  }
  const get = async (url: string, dispatcher: Agent) => {
    const res = await request(url, { dispatcher })
    return { status: res.statusCode, body: await res.body.text() }
  }
  const refusedAtConnect = async (p: Promise<unknown>, pattern: RegExp) => {
    await assert.rejects(p, (err: Error & { code?: string; cause?: Error & { code?: string } }) => {
      const e = err.code === 'ERR_OUTBOUND_REFUSED' ? err : err.cause
      assert.equal(e?.code, 'ERR_OUTBOUND_REFUSED', String(err))
      assert.match(e!.message, pattern)
      return true
    })
  }

  before(async () => {
    server = createServer((_req, res) => res.end('reached'))
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
    port = (server.address() as AddressInfo).port
  })
  after(async () => {
    await Promise.all(agents.map((a) => a.close()))
    server.closeAllConnections()
    await new Promise<void>((resolve) => server.close(() => resolve()))
  })

  it('refuses to connect to localhost unless private networks are allowed', async () => {
    await refusedAtConnect(get(`http://localhost:${port}/`, agent(policyLookup({ allowPrivateNetworks: false }))), /^localhost resolves to .*loopback/)
    assert.deepEqual(await get(`http://localhost:${port}/`, agent(policyLookup({ allowPrivateNetworks: true }))), { status: 200, body: 'reached' })
  })

  it('checks the address the connection gets, not an earlier answer (DNS rebinding)', async () => {
    let answer = '93.184.215.14'
    const rebinding: LookupFunction = (hostname, options, callback) => fakeDns({ 'rebind.test': [answer] })(hostname, options, callback)
    const lookup = policyLookup({ allowPrivateNetworks: false, lookup: rebinding })
    await checkOutboundUrl(`http://rebind.test:${port}/`, { allowPrivateNetworks: false, lookup: rebinding })
    answer = '127.0.0.1'
    await refusedAtConnect(get(`http://rebind.test:${port}/`, agent(lookup)), /rebind\.test resolves to 127\.0\.0\.1/)
  })

  it('refuses metadata and link-local at connect time even where private networks are allowed', async () => {
    const lookup = policyLookup({
      allowPrivateNetworks: true,
      lookup: fakeDns({ 'meta.test': ['169.254.169.254'], 'meta6.test': ['::ffff:169.254.169.254'], 'near.test': ['127.0.0.1'] }),
    })
    const a = agent(lookup)
    await refusedAtConnect(get(`http://meta.test:${port}/`, a), /meta\.test resolves to 169\.254\.169\.254, a forbidden address \(cloud metadata\)/)
    await refusedAtConnect(get(`http://meta6.test:${port}/`, a), /forbidden address \(IPv4-mapped form of 169\.254\.169\.254/)
    assert.deepEqual(await get(`http://near.test:${port}/`, a), { status: 200, body: 'reached' })
  })
})
