// test-engines: sqlite (no database involved: one pass is enough; scripts/test.mjs leaves it out of PostgreSQL's)
import assert from 'node:assert/strict'
import { describe, it } from 'node:test'
import { detectPii, PII_TYPES, redactPii, type PiiEntity, type PiiType } from './pii.js'

const KEY = Buffer.from('0123456789abcdef0123456789abcdef')

/** Every finding as [type, text], after checking that its offsets point at its text. */
function found(text: string, opts?: Parameters<typeof detectPii>[1]): [PiiType, string][] {
  const entities = detectPii(text, opts)
  for (const e of entities) assert.equal(text.slice(e.start, e.end), e.text, `offsets of ${e.type} "${e.text}"`)
  assert.deepEqual(
    entities.map((e) => e.start),
    [...entities.map((e) => e.start)].sort((a, b) => a - b),
    'sorted by start',
  )
  return entities.map((e) => [e.type, e.text])
}

const none = (text: string, opts?: Parameters<typeof detectPii>[1]) => assert.deepEqual(found(text, opts), [], text)

describe('pii: detection', () => {
  it('finds each type at its exact offsets', () => {
    const text = 'Mail jane.doe+orders@example.co.uk, call +1 (415) 555-2671.'
    assert.deepEqual(detectPii(text), [
      { type: 'email', start: 5, end: 34, text: 'jane.doe+orders@example.co.uk' },
      { type: 'phone', start: 41, end: 58, text: '+1 (415) 555-2671' },
    ])
    assert.deepEqual(found('card 4111 1111 1111 1111, MC 5500-0000-0000-0004, Amex 378282246310005'), [
      ['card_number', '4111 1111 1111 1111'],
      ['card_number', '5500-0000-0000-0004'],
      ['card_number', '378282246310005'],
    ])
    assert.deepEqual(found('IBAN DE89 3704 0044 0532 0130 00 EUR, gb82west12345698765432 and FR1420041010050500013M02606.'), [
      ['iban', 'DE89 3704 0044 0532 0130 00'],
      ['iban', 'gb82west12345698765432'],
      ['iban', 'FR1420041010050500013M02606'],
    ])
    assert.deepEqual(found('From 192.168.1.1, 2001:db8::8a2e:370:7334, fe80::1%eth0 and ::ffff:192.0.2.1. Then 8.8.8.8.'), [
      ['ip_address', '192.168.1.1'],
      ['ip_address', '2001:db8::8a2e:370:7334'],
      ['ip_address', 'fe80::1'],
      ['ip_address', '::ffff:192.0.2.1'],
      ['ip_address', '8.8.8.8'],
    ])
    assert.deepEqual(found('See https://shop.example.com/o?id=7, www.example.org and example.net/profile/jane.'), [
      ['url', 'https://shop.example.com/o?id=7'],
      ['url', 'www.example.org'],
      ['url', 'example.net/profile/jane'],
    ])
    assert.deepEqual(found('SSN 123-45-6789 or 234 56 7890.'), [
      ['ssn_us', '123-45-6789'],
      ['ssn_us', '234 56 7890'],
    ])
    assert.deepEqual(found('DOB: 05/12/1980; born on 12 May 1980; date of birth is 1980-05-12; Birthday May 12, 1980.'), [
      ['date_of_birth', '05/12/1980'],
      ['date_of_birth', '12 May 1980'],
      ['date_of_birth', '1980-05-12'],
      ['date_of_birth', 'May 12, 1980'],
    ])
  })

  it('PII_TYPES lists every type a finding can have', () => {
    assert.deepEqual([...PII_TYPES].sort(), ['card_number', 'date_of_birth', 'email', 'iban', 'ip_address', 'phone', 'ssn_us', 'url'])
  })

  it('leaves near-misses alone', () => {
    // Luhn fails; Luhn passes but no card brand; too short for a card.
    none('Orders 4111111111111112, 1234567812345670 and 41111111111 shipped.')
    none('IBAN DE89 3704 0044 0532 0130 01 (check digits do not add up), XX89370400440532013000.')
    none('Hosts 999.1.1.1, 010.1.1.1 (leading zero), 1.2.3.4.5, v1.2.3.4, at 10:30:45, MAC 00:1A:2B:3C:4D:5E, ::.')
    none('Order ORD-2024-0001, ticket 12345-6789, invoice INV/2024/0001.', { region: 'US' })
    none('Never issued: 000-12-3456, 666-12-3456, 900-12-3456, 123-00-4567, 123-45-0000; bare 123456789.')
    none('Bare names are not links: example.com, notes.md, v1.2@build-server, me@home.')
    none('Delivered 2024-05-12 between 10:30-11:45 (invoice of 12.05.2024, 05/12/2024), total 1,234,567.89.', { region: 'DE' })
    // A date is a date of birth only after a cue, with day, month and year, in the past.
    none('Delivered on 12 May 1980; born in 1980; born on Friday; DOB: 12/05/2999; DOB 05/12/19801.')
  })

  it('phones: national numbers only for the given regions; international ones always', () => {
    assert.deepEqual(found('Call (415) 555-2671 or +49 30 901820.'), [['phone', '+49 30 901820']])
    assert.deepEqual(found('Call (415) 555-2671 or +49 30 901820.', { region: 'us' }), [
      ['phone', '(415) 555-2671'],
      ['phone', '+49 30 901820'],
    ])
    assert.deepEqual(found('Ruf 030 901820 an oder 07911 123456.', { region: ['DE', 'GB'] }), [
      ['phone', '030 901820'],
      ['phone', '07911 123456'],
    ])
    none('Call 030 901820.', { region: 'US' })
  })

  it('resolves overlaps: the longest finding wins, phones never take what another type found', () => {
    const text = 'Open https://example.com/call/+14155552671 or mail 4155552671@example.com; card 4111111111111111; IP 192.168.100.200.'
    assert.deepEqual(found(text, { region: 'US' }), [
      ['url', 'https://example.com/call/+14155552671'],
      ['email', '4155552671@example.com'],
      ['card_number', '4111111111111111'],
      ['ip_address', '192.168.100.200'],
    ])
    // A URL with an IPv4 host is one URL; a mailto link is the address.
    assert.deepEqual(found('Go to http://192.168.1.1:8080/admin or mailto:Bob@Example.com?subject=hi'), [
      ['url', 'http://192.168.1.1:8080/admin'],
      ['email', 'Bob@Example.com'],
    ])
    // An IBAN's digits are not a card or a phone; an SSN is not a phone.
    assert.deepEqual(found('IBAN GB82 WEST 1234 5698 7654 32 and SSN 415-55-2671', { region: 'GB' }), [
      ['iban', 'GB82 WEST 1234 5698 7654 32'],
      ['ssn_us', '415-55-2671'],
    ])
  })

  it('types: only the detectors asked for run', () => {
    const text = 'Mail jane@example.com, see https://example.com/x, call +1 415 555 2671.'
    assert.deepEqual(found(text, { types: ['email'] }), [['email', 'jane@example.com']])
    assert.deepEqual(found(text, { types: ['url', 'phone'] }), [
      ['url', 'https://example.com/x'],
      ['phone', '+1 415 555 2671'],
    ])
    assert.deepEqual(found(text, { types: [] }), [])
  })

  it('keeps offsets in UTF-16 units after emoji and other astral characters', () => {
    const text = '👋🏽 𝒽𝒾 — mail jane@example.com, card 4111 1111 1111 1111, call +44 20 7946 0958 🎉, IP 10.0.0.1, IBAN DE89370400440532013000'
    assert.deepEqual(found(text), [
      ['email', 'jane@example.com'],
      ['card_number', '4111 1111 1111 1111'],
      ['phone', '+44 20 7946 0958'],
      ['ip_address', '10.0.0.1'],
      ['iban', 'DE89370400440532013000'],
    ])
    assert.equal(detectPii(text)[0].start, text.indexOf('jane'))
  })
})

describe('pii: redaction', () => {
  const text = '🙂 Mail Jane@Example.com or call +1 (415) 555-2671, card 4111 1111 1111 1111.'
  const entities = detectPii(text)

  /** Each redacted entity's offsets point at its replacement in the redacted text. */
  function checkOffsets(r: ReturnType<typeof redactPii>) {
    for (const e of r.entities) assert.equal(r.text.slice(e.redacted_start, e.redacted_end), e.replacement)
  }

  it('mask: the type in upper case', () => {
    const r = redactPii(text, entities, 'mask')
    assert.equal(r.text, '🙂 Mail [EMAIL] or call [PHONE], card [CARD_NUMBER].')
    assert.deepEqual(
      r.entities.map((e) => [e.text, e.replacement]),
      [
        ['Jane@Example.com', '[EMAIL]'],
        ['+1 (415) 555-2671', '[PHONE]'],
        ['4111 1111 1111 1111', '[CARD_NUMBER]'],
      ],
    )
    checkOffsets(r)
    assert.deepEqual(r.entities[0], { ...entities[0], replacement: '[EMAIL]', redacted_start: 8, redacted_end: 15 })
  })

  it('remove: only the entity is deleted', () => {
    const r = redactPii(text, entities, 'remove')
    assert.equal(r.text, '🙂 Mail  or call , card .')
    checkOffsets(r)
    assert.deepEqual(
      r.entities.map((e) => [e.redacted_start, e.redacted_end]),
      [
        [8, 8],
        [17, 17],
        [24, 24],
      ],
    )
  })

  it('hash: 12 hex of HMAC-SHA256 over the normalised value, stable across spellings and calls', () => {
    const r = redactPii(text, entities, 'hash', { hashKey: KEY })
    assert.match(r.text, /^🙂 Mail \[EMAIL:[0-9a-f]{12}\] or call \[PHONE:[0-9a-f]{12}\], card \[CARD_NUMBER:[0-9a-f]{12}\]\.$/)
    checkOffsets(r)
    assert.deepEqual(redactPii(text, entities, 'hash', { hashKey: KEY }), r, 'the same on every call')

    const other = 'Phone 415-555-2671, jane@example.COM, 4111-1111-1111-1111'
    const again = redactPii(other, detectPii(other, { region: 'US' }), 'hash', { hashKey: KEY, region: 'US' })
    assert.deepEqual(again.entities.map((e) => e.replacement).sort(), r.entities.map((e) => e.replacement).sort(), 'the same values written differently hash the same')
    const otherKey = redactPii(text, entities, 'hash', { hashKey: Buffer.from('another key of 32 bytes, really') })
    assert.notEqual(otherKey.text, r.text, 'the key matters')
    assert.throws(() => redactPii(text, entities, 'hash'), TypeError)
  })

  it('hash: IBANs, addresses, URLs, SSNs and dates of birth normalise too', () => {
    const a = 'IBAN DE89 3704 0044 0532 0130 00, IP 2001:DB8:0:0:0:0:0:1, see www.example.org/Jane, SSN 123-45-6789, DOB: May 12, 1980'
    const b = 'IBAN de89370400440532013000, IP 2001:db8::1, see http://WWW.EXAMPLE.ORG/Jane, SSN 123 45 6789, DOB: 1980-05-12'
    const hashes = (t: string) => redactPii(t, detectPii(t), 'hash', { hashKey: KEY }).entities.map((e) => e.replacement)
    assert.equal(hashes(a).length, 5)
    assert.deepEqual(hashes(a), hashes(b))
  })

  it('refuses entities that are not of this text or that overlap', () => {
    const e: PiiEntity = { type: 'email', start: 0, end: 4, text: 'Jane' }
    assert.throws(() => redactPii('John', [e], 'mask'), RangeError)
    assert.throws(() => redactPii('Jane', [e, { ...e, start: 1, text: 'ane' }], 'mask'), RangeError)
    assert.deepEqual(redactPii('no pii', [], 'mask'), { text: 'no pii', entities: [] })
  })
})
