// test-engines: sqlite (no database involved: one pass is enough; scripts/test.mjs leaves it out of PostgreSQL's)
import assert from 'node:assert/strict'
import { describe, it } from 'node:test'
import { XMLParser, XMLValidator } from 'fast-xml-parser'
import { twilioStatus } from './twilio.status.js'
import { dial, gather, hangup, redirect, response, say } from './twiml.js'

describe('voice twilio: TwiML builders and status mapping', () => {
  it('escapes every text and attribute, drops characters XML cannot hold, and stays well-formed', () => {
    const nasty = `Tom & "Jerry" <script>'x'</script>\u0000\u0007 ok`
    const doc = response(
      say(nasty, { language: 'en-US' }),
      gather({ action: `https://svc.example.com/g?a=1&b="2"`, language: 'de-DE' }, say('Wie können wir helfen?')),
      dial('+14155550142', { callerId: '+14155550100' }),
      redirect('https://svc.example.com/next?x=<y>'),
      hangup(),
    )
    assert.equal(XMLValidator.validate(doc), true)
    assert.equal(
      doc,
      '<?xml version="1.0" encoding="UTF-8"?><Response>' +
        '<Say language="en-US">Tom &amp; "Jerry" &lt;script&gt;\'x\'&lt;/script&gt; ok</Say>' +
        '<Gather input="speech" action="https://svc.example.com/g?a=1&amp;b=&quot;2&quot;" method="POST" speechTimeout="auto" language="de-DE"><Say>Wie können wir helfen?</Say></Gather>' +
        '<Dial callerId="+14155550100">+14155550142</Dial>' +
        '<Redirect method="POST">https://svc.example.com/next?x=&lt;y&gt;</Redirect>' +
        '<Hangup/></Response>',
    )
    const parsed = new XMLParser({ ignoreAttributes: false, attributeNamePrefix: '' }).parse(doc)
    assert.equal(parsed.Response.Say['#text'], `Tom & "Jerry" <script>'x'</script> ok`)
    assert.equal(parsed.Response.Gather.action, 'https://svc.example.com/g?a=1&b="2"')
  })

  it("maps Twilio's call statuses to ours; an unknown one is null", () => {
    const cases: Record<string, string | null> = {
      queued: 'queued',
      initiated: 'queued',
      ringing: 'ringing',
      'in-progress': 'in_progress',
      completed: 'completed',
      busy: 'busy',
      'no-answer': 'no_answer',
      failed: 'failed',
      canceled: 'canceled',
      answered: null,
      toString: null,
      '': null,
    }
    for (const [twilio, ours] of Object.entries(cases)) assert.equal(twilioStatus(twilio), ours, twilio)
  })
})
