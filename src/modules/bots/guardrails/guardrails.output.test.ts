// test-engines: sqlite (no database involved: one pass is enough; scripts/test.mjs leaves it out of PostgreSQL's)
import assert from 'node:assert/strict'
import { describe, it } from 'node:test'
import { checkOutput } from './guardrails.js'
import { DEFAULT_GUARDRAILS, type BotGuardrailsT } from './guardrails.schemas.js'
import { charLength } from './guardrails.text.js'

const cfg = (over: Partial<BotGuardrailsT> = {}): BotGuardrailsT => ({ ...DEFAULT_GUARDRAILS, ...over })
const grounded = { grounded: true }
const fired = (r: ReturnType<typeof checkOutput>) => r.fired.map((f) => [f.guardrail, f.action])

describe('guardrails: bot replies (checkOutput)', () => {
  it('a clean grounded reply passes unchanged', () => {
    const text = 'We refund any purchase within 14 days.'
    assert.deepEqual(checkOutput(cfg(), text, grounded), { text, fired: [], handoff: false })
  })

  it('answer only when grounded: an ungrounded reply becomes the fallback message and hands off', () => {
    const r = checkOutput(cfg({ fallback_message: 'Let me get a colleague.' }), 'Probably 30 days, I guess.', { grounded: false })
    assert.equal(r.text, 'Let me get a colleague.')
    assert.equal(r.handoff, true)
    assert.deepEqual(r.fired, [
      {
        guardrail: 'answer_only_when_grounded',
        stage: 'output',
        action: 'handoff',
        detail: 'The reply does not rest on the knowledge base or a tool result: the fallback message was sent and the conversation handed off.',
      },
    ])
    assert.deepEqual(checkOutput(cfg({ answer_only_when_grounded: false }), 'Probably 30 days.', { grounded: false }).fired, [])
  })

  it('blocked topics: a reply about one is replaced by the blocked reply (no hand-off)', () => {
    const c = cfg({ blocked_topics: [{ name: 'Competitors', keywords: ['Acme Corp'] }], blocked_reply: 'I can only talk about our products.' })
    const r = checkOutput(c, 'Unlike ACME corp, we ship for free.', grounded)
    assert.deepEqual(r, {
      text: 'I can only talk about our products.',
      handoff: false,
      fired: [{ guardrail: 'blocked_topics', stage: 'output', action: 'replaced', detail: 'The reply touched the blocked topic "Competitors": the blocked reply was sent instead.' }],
    })
    assert.deepEqual(checkOutput(c, 'Acme Corporation is a customer.', grounded).fired, [])
  })

  it('blocked terms: each occurrence is masked where it is, accents and case ignored', () => {
    const r = checkOutput(cfg({ blocked_terms: ['Projekt Zürich', 'beta'] }), 'PROJEKT ZURICH is in Beta; projekt   zürich ships soon. Alphabetagamma stays.', grounded)
    assert.equal(r.text, '[blocked] is in [blocked]; [blocked] ships soon. Alphabetagamma stays.')
    assert.deepEqual(r.fired, [{ guardrail: 'blocked_terms', stage: 'output', action: 'masked', detail: 'Masked 3 occurrences of "Projekt Zürich", "beta".' }])
  })

  it('profanity is masked keeping the first letter; contractions and innocent words are left alone', () => {
    const r = checkOutput(cfg(), 'That shit happens, sorry about the fucking delay.', grounded)
    assert.equal(r.text, 'That s*** happens, sorry about the f***ing delay.')
    assert.deepEqual(r.fired, [{ guardrail: 'profanity_filter', stage: 'output', action: 'masked', detail: 'Masked 2 profane words.' }])
    for (const t of ["I can't say, but we won't charge you.", 'Our office is in Scunthorpe, near the class rooms.', 'Add the shiitake to the cocktail menu.']) {
      assert.deepEqual(checkOutput(cfg(), t, grounded).fired, [], t)
    }
    assert.deepEqual(checkOutput(cfg({ profanity_filter: false }), 'shit happens', grounded).fired, [])
  })

  describe('PII masking', () => {
    it('masks e-mail addresses, phone numbers and card numbers, and counts them', () => {
      const r = checkOutput(cfg(), 'Mail jane.doe+orders@example.co.uk or call +1 (415) 555-2671; card 4111 1111 1111 1111 was charged.', grounded)
      assert.equal(r.text, 'Mail [email] or call [phone]; card [card] was charged.')
      assert.deepEqual(r.fired, [{ guardrail: 'pii_masking', stage: 'output', action: 'masked', detail: 'Masked 1 e-mail address, 1 payment card number, 1 phone number.' }])
    })

    it('cards: known brands with dashes or spaces; order numbers are not cards', () => {
      assert.equal(checkOutput(cfg(), 'MC 5500-0000-0000-0004, Amex 378282246310005.', grounded).text, 'MC [card], Amex [card].')
      // Luhn-valid but no card brand; a brand prefix with a wrong check digit; too short for any card.
      const text = 'Orders 1234567812345670, 4111111111111112 and 41111111111 are on their way.'
      assert.deepEqual(checkOutput(cfg(), text, grounded), { text, fired: [], handoff: false })
    })

    it('phones: national formats of the configured regions, international ones always; dates and times are not phones', () => {
      assert.equal(checkOutput(cfg(), 'Call (415) 555-2671 or +49 30 901820.', grounded).text, 'Call [phone] or [phone].')
      const de = cfg({ pii_masking: { ...DEFAULT_GUARDRAILS.pii_masking, phone_regions: ['DE', 'GB'] } })
      assert.equal(checkOutput(de, 'Ruf 030 901820 an oder 07911 123456.', grounded).text, 'Ruf [phone] an oder [phone].')
      assert.equal(checkOutput(cfg(), 'Call 030 901820.', grounded).text, 'Call 030 901820.', 'a German national number is not judged with US rules')
      for (const c of [cfg(), de]) {
        const text = 'Delivered on 2024-05-12 (invoice of 12.05.2024, 05/12/2024) between 10:30-11:45, order 12345678, total 1,234,567.89 USD.'
        assert.deepEqual(checkOutput(c, text, grounded).fired, [], text)
      }
    })

    it('e-mails: only real addresses (a known top-level domain)', () => {
      const text = 'Build v1.2@build-server passed; ping me@home later.'
      assert.deepEqual(checkOutput(cfg(), text, grounded).fired, [])
    })

    it("leaves the business's own public contact details alone, however written, while a customer's are masked", () => {
      const shop = cfg({ pii_masking: { ...DEFAULT_GUARDRAILS.pii_masking, phone_regions: ['GB'], allowed_contacts: ['+44 20 7946 0018', 'help@acme-shop.co.uk', 'https://acme-shop.co.uk/contact'] } })
      const reply = 'Call us on 020 7946 0018 or mail Help@Acme-Shop.co.uk; your number 020 7946 0999 and ada@example.com are on file.'
      const r = checkOutput(shop, reply, grounded)
      assert.equal(r.text, 'Call us on 020 7946 0018 or mail Help@Acme-Shop.co.uk; your number [phone] and [email] are on file.')
      assert.deepEqual(
        r.fired.map((f) => f.detail),
        ['Masked 1 e-mail address, 1 phone number.'],
      )
      // Inside an allowed URL (or under it) a number or address is part of the link; elsewhere it is not.
      const link = 'Book at https://acme-shop.co.uk/contact/book?tel=02079460777 or text 020 7946 0777.'
      assert.equal(checkOutput(shop, link, grounded).text, 'Book at https://acme-shop.co.uk/contact/book?tel=02079460777 or text [phone].')
      // Without the allow-list the business's number is masked like any other (the old behaviour).
      assert.equal(
        checkOutput(cfg({ pii_masking: { ...shop.pii_masking, allowed_contacts: [] } }), reply, grounded).text,
        'Call us on [phone] or mail [email]; your number [phone] and [email] are on file.',
      )
    })

    it('each kind can be switched off', () => {
      const off = cfg({ pii_masking: { emails: false, phone_numbers: false, card_numbers: false, phone_regions: ['US'] } })
      const text = 'Mail a@example.com, call +1 415 555 2671, card 4111111111111111.'
      assert.equal(checkOutput(off, text, grounded).text, text)
      const onlyCards = cfg({ pii_masking: { emails: false, phone_numbers: false, card_numbers: true, phone_regions: [] } })
      assert.equal(checkOutput(onlyCards, text, grounded).text, 'Mail a@example.com, call +1 415 555 2671, card [card].')
    })
  })

  describe('allowed languages', () => {
    const en = cfg({ allowed_languages: ['en'], fallback_message: 'Let me get a colleague.' })
    const german = 'Wir erstatten jeden Kauf innerhalb von 14 Tagen, wenn die Ware unbenutzt ist und die Rechnung beiliegt.'
    const english = 'We refund any purchase within 14 days if the item is unused and the receipt is included.'

    it('a reply in another language is replaced by the fallback and handed off', () => {
      const r = checkOutput(en, german, grounded)
      assert.equal(r.text, 'Let me get a colleague.')
      assert.equal(r.handoff, true)
      assert.deepEqual(r.fired, [
        { guardrail: 'allowed_languages', stage: 'output', action: 'handoff', detail: 'The reply is in "de", not in "en": the fallback message was sent and the conversation handed off.' },
      ])
    })

    it('a reply in an allowed language passes; no list means any language', () => {
      assert.deepEqual(checkOutput(en, english, grounded).fired, [])
      assert.deepEqual(checkOutput(cfg({ allowed_languages: ['de', 'fr'] }), german, grounded).fired, [])
      assert.deepEqual(checkOutput(cfg(), german, grounded).fired, [])
      assert.equal(checkOutput(cfg({ allowed_languages: ['de'] }), 'Vi refunderer ethvert køb inden for 14 dage, hvis varen er ubrugt og kvitteringen er vedlagt.', grounded).handoff, true)
    })

    it('short replies are not judged, unless the caller knows their language', () => {
      assert.deepEqual(checkOutput(en, 'Ja, innerhalb von 14 Tagen.', grounded).fired, [])
      assert.equal(checkOutput(en, 'Ja, innerhalb von 14 Tagen.', { grounded: true, language: 'de' }).handoff, true)
      assert.equal(checkOutput(en, 'Yes, within 14 days.', { grounded: true, language: 'en' }).handoff, false)
      // Masks, numbers and addresses are not counted as language.
      assert.deepEqual(
        checkOutput(en, 'Kontakt: team@example.com, +49 30 901820, https://example.com/de/hilfe/123', grounded).fired.map((f) => f.guardrail),
        ['pii_masking'],
      )
    })
  })

  describe('maximum reply length', () => {
    const long = 'Refunds are possible within 14 days. The item must be unused. We pay back within five business days after we receive it.'

    it('cuts at the last sentence that fits, with an ellipsis', () => {
      const r = checkOutput(cfg({ max_reply_length: 80 }), long, grounded)
      assert.equal(r.text, 'Refunds are possible within 14 days. The item must be unused. …')
      assert.deepEqual(r.fired, [{ guardrail: 'max_reply_length', stage: 'output', action: 'truncated', detail: 'The reply was cut to 80 characters.' }])
    })

    it('cuts at a word boundary when no sentence end keeps half the budget; never beyond the limit', () => {
      const text = `${'alpha beta gamma delta '.repeat(10)}end.`
      const r = checkOutput(cfg({ max_reply_length: 50 }), text, grounded)
      assert.equal(r.text, 'alpha beta gamma delta alpha beta gamma delta…')
      const word = checkOutput(cfg({ max_reply_length: 50 }), 'x'.repeat(200), grounded).text
      assert.equal(charLength(word), 49)
      for (const n of [50, 57, 73, 99]) assert.ok(charLength(checkOutput(cfg({ max_reply_length: n }), long, grounded).text) <= n, String(n))
    })

    it('counts characters, not UTF-16 units, and never splits one', () => {
      const emoji = '😀'.repeat(60)
      const r = checkOutput(cfg({ max_reply_length: 50 }), emoji, grounded).text
      assert.equal(charLength(r), 49)
      assert.ok(Array.from(r).every((ch) => ch === '😀' || ch === '…'))
      assert.deepEqual(checkOutput(cfg({ max_reply_length: 60 }), emoji, grounded).fired, [])
    })
  })

  it('runs in the documented order: terms, profanity and PII masked, then the length cut', () => {
    const c = cfg({ blocked_terms: ['beta'], max_reply_length: 60 })
    const r = checkOutput(c, 'The beta is shit. Write to a@example.com. More text follows here to be cut off at some point.', grounded)
    assert.deepEqual(fired(r), [
      ['blocked_terms', 'masked'],
      ['profanity_filter', 'masked'],
      ['pii_masking', 'masked'],
      ['max_reply_length', 'truncated'],
    ])
    assert.equal(r.text, 'The [blocked] is s***. Write to [email]. …')
  })
})
