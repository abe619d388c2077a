// test-engines: sqlite (no database involved: one pass is enough; scripts/test.mjs leaves it out of PostgreSQL's)
import assert from 'node:assert/strict'
import { randomBytes } from 'node:crypto'
import { describe, it } from 'node:test'
import twilio from 'twilio'
import { twilioParams, twilioSignature, verifyTwilioSignature, type TwilioParams } from './signature.js'

// The official twilio package is the reference: same signatures, same accept/refuse decisions.

const TOKEN = '12345abcdef67890fedcba0987654321'

const statusCallback: TwilioParams = {
  AccountSid: 'AC0123456789abcdef0123456789abcdef',
  CallSid: 'CAfeedfacecafebeef0123456789abcdef',
  CallStatus: 'in-progress',
  From: '+14155550100',
  To: '+14155550199',
  Direction: 'outbound-api',
  SequenceNumber: '2',
  Timestamp: 'Tue, 18 Aug 2020 19:31:54 +0000',
  CallbackSource: 'call-progress-events',
}

const URLS = [
  'https://voice.example.com/v1/carriers/twilio/status',
  'https://voice.example.com:443/v1/carriers/twilio/status',
  'https://voice.example.com:8443/v1/carriers/twilio/status?call=vc_01J&x=1',
  'http://127.0.0.1:3000/carriers/twilio/voice',
  "https://voice.example.com/hook?name=O'Brien&list=a,b&space=a%20b&plus=a+b",
  'https://user:pw@voice.example.com/hook',
  'https://[::1]:8443/hook?q=1',
]

const PARAMS: TwilioParams[] = [
  {},
  statusCallback,
  { SpeechResult: 'Ich möchte eine Demo — 5 € & <mehr>', Confidence: '0.9123' },
  { StatusCallbackEvent: ['ringing', 'initiated', 'completed', 'answered'], To: '+1' },
  { Tag: ['b', 'a', 'b'], a: 'lower', A: 'upper', _: '' },
]

describe('voice twilio: X-Twilio-Signature, held to the official twilio package', () => {
  it('computes the same signature as twilio.getExpectedTwilioSignature', () => {
    for (const url of URLS) {
      for (const params of PARAMS) {
        assert.equal(twilioSignature(TOKEN, url, params), twilio.getExpectedTwilioSignature(TOKEN, url, params), `${url} ${JSON.stringify(params)}`)
      }
    }
  })

  it('accepts what twilio.validateRequest accepts and refuses what it refuses (ports, normalised URLs)', () => {
    for (const signedUrl of URLS) {
      for (const params of PARAMS) {
        const header = twilio.getExpectedTwilioSignature(TOKEN, signedUrl, params)
        for (const checkedUrl of URLS) {
          const official = twilio.validateRequest(TOKEN, header, checkedUrl, params)
          assert.equal(verifyTwilioSignature(TOKEN, checkedUrl, params, header), official, `signed ${signedUrl}, checked ${checkedUrl}`)
        }
      }
    }
  })

  it('accepts the URL with or without the default port, either way round', () => {
    const withPort = twilio.getExpectedTwilioSignature(TOKEN, 'https://voice.example.com:443/status', statusCallback)
    assert.equal(verifyTwilioSignature(TOKEN, 'https://voice.example.com/status', statusCallback, withPort), true)
    const without = twilio.getExpectedTwilioSignature(TOKEN, 'https://voice.example.com/status', statusCallback)
    assert.equal(verifyTwilioSignature(TOKEN, 'https://voice.example.com:443/status', statusCallback, without), true)
    // A non-default port is part of what was signed only when it was in the URL; dropping it is accepted too.
    const odd = twilio.getExpectedTwilioSignature(TOKEN, 'http://127.0.0.1/hook', statusCallback)
    assert.equal(verifyTwilioSignature(TOKEN, 'http://127.0.0.1:3000/hook', statusCallback, odd), true)
    assert.equal(twilio.validateRequest(TOKEN, odd, 'http://127.0.0.1:3000/hook', statusCallback), true)
  })

  it('refuses a wrong token, a changed parameter, another path, an empty or missing header', () => {
    const url = 'https://voice.example.com/status'
    const header = twilio.getExpectedTwilioSignature(TOKEN, url, statusCallback)
    assert.equal(verifyTwilioSignature(TOKEN, url, statusCallback, header), true)
    assert.equal(verifyTwilioSignature(`${TOKEN}x`, url, statusCallback, header), false)
    assert.equal(verifyTwilioSignature(TOKEN, url, { ...statusCallback, CallStatus: 'completed' }, header), false)
    assert.equal(verifyTwilioSignature(TOKEN, url, { ...statusCallback, Extra: '1' }, header), false)
    assert.equal(verifyTwilioSignature(TOKEN, `${url}2`, statusCallback, header), false)
    assert.equal(verifyTwilioSignature(TOKEN, url, statusCallback, ''), false)
    assert.equal(verifyTwilioSignature(TOKEN, url, statusCallback, undefined), false)
    assert.equal(verifyTwilioSignature(TOKEN, url, statusCallback, [header]), false, 'a repeated header is not a signature')
    assert.equal(verifyTwilioSignature('', url, statusCallback, twilio.getExpectedTwilioSignature('', url, statusCallback)), false, 'no token, no trust')
    assert.equal(verifyTwilioSignature(TOKEN, url, statusCallback, header.slice(0, -2)), false)
  })

  it('agrees with the official package on random forms (repeated names, any characters)', () => {
    const pick = (s: string) => s[randomBytes(1)[0] % s.length]
    const word = () => Array.from({ length: 1 + (randomBytes(1)[0] % 12) }, () => pick('aZ09 _-.+&=?%/€üß\'"<>')).join('')
    for (let i = 0; i < 200; i++) {
      const form = new URLSearchParams()
      for (let j = randomBytes(1)[0] % 8; j > 0; j--) form.append(pick('ABCab') + pick('xyz'), word())
      const params = twilioParams(form)
      const url = `https://voice.example.com/hook/${encodeURIComponent(word())}?t=${encodeURIComponent(word())}`
      const header = twilio.getExpectedTwilioSignature(TOKEN, url, params)
      assert.equal(twilioSignature(TOKEN, url, params), header, `${url} ${form}`)
      assert.equal(verifyTwilioSignature(TOKEN, url, params, header), twilio.validateRequest(TOKEN, header, url, params))
    }
  })

  it('reads a form body as the parameters Twilio signed (a repeated name keeps every value)', () => {
    const form = new URLSearchParams('CallSid=CA1&StatusCallbackEvent=ringing&StatusCallbackEvent=answered&Empty=')
    assert.deepEqual(twilioParams(form), { CallSid: 'CA1', StatusCallbackEvent: ['ringing', 'answered'], Empty: '' })
  })
})
