// test-engines: sqlite (no database involved: one pass is enough; scripts/test.mjs leaves it out of PostgreSQL's)
import assert from 'node:assert/strict'
import { describe, it } from 'node:test'
import { Value } from 'typebox/value'
import { AppError } from '../../../kernel/errors.js'
import { mergeGuardrails } from './guardrails.js'
import { BotGuardrails, DEFAULT_GUARDRAILS, UpdateBotGuardrailsBody, type UpdateBotGuardrailsBodyT } from './guardrails.schemas.js'

/** The field errors mergeGuardrails throws for `patch` (on the defaults), as [pointer, detail] pairs. */
function errorsOf(patch: UpdateBotGuardrailsBodyT, current = DEFAULT_GUARDRAILS): [string, string][] {
  try {
    mergeGuardrails(current, patch)
  } catch (err) {
    assert.ok(err instanceof AppError)
    assert.equal(err.code, 'validation_failed')
    assert.equal(err.status, 422)
    return (err.extra.errors ?? []).map((e) => [e.pointer, e.detail])
  }
  assert.fail('expected a validation error')
}

describe('guardrails: configuration (schemas and mergeGuardrails)', () => {
  it('the defaults are a valid configuration, and every field documents itself and its default', () => {
    assert.ok(Value.Check(BotGuardrails, DEFAULT_GUARDRAILS))
    assert.deepEqual(Value.Default(BotGuardrails, {}), DEFAULT_GUARDRAILS)
    for (const [name, field] of Object.entries(BotGuardrails.properties)) {
      assert.ok((field as { description?: string }).description, `${name} has a description`)
      assert.ok('default' in field, `${name} has a default`)
    }
    assert.equal((BotGuardrails as { title?: string }).title, 'BotGuardrails')
    assert.equal((UpdateBotGuardrailsBody as { title?: string }).title, 'UpdateBotGuardrailsBody')
  })

  it('the body schema bounds sizes and shapes and refuses unknown fields', () => {
    assert.ok(Value.Check(UpdateBotGuardrailsBody, {}))
    assert.ok(Value.Check(UpdateBotGuardrailsBody, { pii_masking: { emails: false } }))
    for (const bad of [
      { unknown: true },
      { blocked_terms: Array.from({ length: 201 }, (_, i) => `t${i}`) },
      { blocked_terms: ['x'.repeat(101)] },
      { blocked_topics: [{ name: 'x', keywords: [] }] },
      { max_reply_length: 49 },
      { max_reply_length: 10_001 },
      { allowed_languages: ['EN'] },
      { prompt_injection: 'maybe' },
      { pii_masking: { phone_regions: ['us'] } },
      { pii_masking: { sms: true } },
      { fallback_message: '' },
    ]) {
      assert.equal(Value.Check(UpdateBotGuardrailsBody, bad), false, JSON.stringify(bad).slice(0, 80))
    }
  })

  it('a patch replaces the fields it sends, pii_masking field by field, and tidies phrases', () => {
    const current = mergeGuardrails(DEFAULT_GUARDRAILS, { blocked_terms: ['a'], pii_masking: { phone_regions: ['DE'] } })
    const next = mergeGuardrails(current, {
      blocked_topics: [{ name: ' Medical  advice ', keywords: ['  side   effects ', 'dosage'] }],
      pii_masking: { emails: false },
      max_reply_length: 500,
      allowed_languages: ['en', 'de'],
      blocked_reply: '  No, sorry.  ',
    })
    assert.deepEqual(next, {
      ...DEFAULT_GUARDRAILS,
      blocked_terms: ['a'],
      blocked_topics: [{ name: 'Medical advice', keywords: ['side effects', 'dosage'] }],
      pii_masking: { emails: false, phone_numbers: true, card_numbers: true, phone_regions: ['DE'], allowed_contacts: [] },
      max_reply_length: 500,
      allowed_languages: ['en', 'de'],
      blocked_reply: 'No, sorry.',
    })
    assert.deepEqual(current.pii_masking.phone_regions, ['DE'], 'the current configuration is not mutated')
    assert.equal(current.pii_masking.emails, true)
    assert.deepEqual(mergeGuardrails(next, {}), next)
  })

  it('blocked terms: blank, without a letter or digit, or duplicated (ignoring case and accents)', () => {
    assert.deepEqual(errorsOf({ blocked_terms: ['crypto', '   ', '!!!', 'CRYPTÖ', 'Café  noir', 'cafe noir'] }), [
      ['/body/blocked_terms/1', 'a blocked term must not be blank'],
      ['/body/blocked_terms/2', 'a blocked term must contain a letter or a digit'],
      ['/body/blocked_terms/3', 'duplicates entry 0 (matching ignores case and accents)'],
      ['/body/blocked_terms/5', 'duplicates entry 4 (matching ignores case and accents)'],
    ])
  })

  it('blocked topics: blank or duplicate names, blank or duplicate keywords', () => {
    assert.deepEqual(
      errorsOf({
        blocked_topics: [
          { name: 'Health', keywords: ['diagnosis', ' ', 'Diagnosis'] },
          { name: ' health ', keywords: ['x'] },
          { name: '  ', keywords: ['y'] },
        ],
      }),
      [
        ['/body/blocked_topics/0/keywords/1', 'a keyword must not be blank'],
        ['/body/blocked_topics/0/keywords/2', 'duplicates entry 0 (matching ignores case and accents)'],
        ['/body/blocked_topics/1/name', 'duplicates the name of topic 0'],
        ['/body/blocked_topics/2/name', 'must not be blank'],
      ],
    )
  })

  it('languages and phone regions must be known to the detectors, once each', () => {
    assert.deepEqual(errorsOf({ allowed_languages: ['en', 'xx', 'en', 'de'] }), [
      ['/body/allowed_languages/1', "'xx' is not an ISO 639-1 code the language detector knows"],
      ['/body/allowed_languages/2', 'duplicates entry 0'],
    ])
    assert.deepEqual(errorsOf({ pii_masking: { phone_regions: ['DE', 'XX', 'DE'] } }), [
      ['/body/pii_masking/phone_regions/1', "'XX' is not a region with phone number metadata (ISO 3166-1 alpha-2)"],
      ['/body/pii_masking/phone_regions/2', 'duplicates entry 0'],
    ])
  })

  it("allowed contacts: each one whole phone number (read in the patch's regions), e-mail address or URL, once each", () => {
    const ok = mergeGuardrails(DEFAULT_GUARDRAILS, { pii_masking: { phone_regions: ['GB'], allowed_contacts: [' 020 7946 0018 ', 'Help@Acme-Shop.co.uk', 'https://acme-shop.co.uk/contact'] } })
    assert.deepEqual(ok.pii_masking.allowed_contacts, ['020 7946 0018', 'Help@Acme-Shop.co.uk', 'https://acme-shop.co.uk/contact'])
    assert.deepEqual(errorsOf({ pii_masking: { allowed_contacts: ['020 7946 0018', 'call us', '+1 415 555 0132 or +1 415 555 0133', '+44 20 7946 0958', '+442079460958', 'help@acme-shop.co.uk'] } }), [
      ['/body/pii_masking/allowed_contacts/0', 'must be one phone number (international, or national in one of phone_regions), e-mail address or URL'],
      ['/body/pii_masking/allowed_contacts/1', 'must be one phone number (international, or national in one of phone_regions), e-mail address or URL'],
      ['/body/pii_masking/allowed_contacts/2', 'must be one phone number (international, or national in one of phone_regions), e-mail address or URL'],
      ['/body/pii_masking/allowed_contacts/4', 'duplicates entry 3 (the same contact written another way)'],
    ])
    assert.ok(!Value.Check(UpdateBotGuardrailsBody, { pii_masking: { allowed_contacts: Array.from({ length: 21 }, (_, i) => `+1 415 555 01${String(i).padStart(2, '0')}`) } }))
  })

  it('messages must not be blank and must fit the maximum reply length', () => {
    assert.deepEqual(errorsOf({ blocked_reply: '   ', fallback_message: ' ' }), [
      ['/body/blocked_reply', 'must not be blank'],
      ['/body/fallback_message', 'must not be blank'],
    ])
    const long = 'x'.repeat(120)
    assert.deepEqual(errorsOf({ max_reply_length: 60 }), [['/body/max_reply_length', `must be at least ${DEFAULT_GUARDRAILS.fallback_message.length}, the length of fallback_message`]])
    const short = mergeGuardrails(DEFAULT_GUARDRAILS, { max_reply_length: 100, blocked_reply: 'No.' })
    assert.deepEqual(errorsOf({ fallback_message: long }, short), [['/body/fallback_message', 'is 120 characters, longer than max_reply_length (100)']])
    assert.deepEqual(errorsOf({ fallback_message: long, max_reply_length: 100 }, short), [['/body/max_reply_length', 'must be at least 120, the length of fallback_message']])
  })

  it('the problem detail names every pointer', () => {
    try {
      mergeGuardrails(DEFAULT_GUARDRAILS, { blocked_terms: [' '], allowed_languages: ['zz'] })
      assert.fail('expected a validation error')
    } catch (err) {
      assert.ok(err instanceof AppError)
      assert.match(err.detail, /\/body\/blocked_terms\/0 .*; \/body\/allowed_languages\/0 /)
    }
  })
})
