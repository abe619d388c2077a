// test-engines: sqlite (no database involved: one pass is enough; scripts/test.mjs leaves it out of PostgreSQL's)
import assert from 'node:assert/strict'
import { describe, it } from 'node:test'
import { renderReply, type ReplyLink } from './render-reply.js'
import { speakable } from './render-speech.js'

const refunds: ReplyLink = { title: 'How refunds work', url: 'https://help.example.com/refunds' }
const shipping: ReplyLink = { title: 'Shipping', url: null }
const answer = 'Refunds reach your card in **3-5 business days** [1]. See [the policy](https://help.example.com/policy) for details [2].'

describe('renderReply', () => {
  it('api: the text as the engine wrote it', () => {
    assert.equal(renderReply(answer, [refunds, shipping], 'api'), answer)
  })

  it('voice: no markers, URLs or Markdown; the range said with "to"', () => {
    const said = renderReply(answer, [refunds, shipping], 'voice')
    assert.equal(said, 'Refunds reach your card in 3 to 5 business days. See the policy for details.')
    const md = renderReply('## Opening hours\n- Monday to Friday: 09:00-17:30\n- Saturday: 10:00–14:00 [3]\nMore at https://www.example.com/hours.', [], 'voice')
    assert.equal(md, 'Opening hours. Monday to Friday: 9 AM to 5:30 PM. Saturday: 10 AM to 2 PM. More at example.com.')
    for (const s of [said, md]) {
      assert.doesNotMatch(s, /\[\d+\]|https?:|\*\*|#|`/)
    }
  })

  it('chat: Markdown kept, markers that lead somewhere, and the sources as links', () => {
    const out = renderReply('Refunds take 3-5 days [1]. Ask us anything [4].', [refunds], 'chat')
    assert.equal(out, 'Refunds take 3-5 days [1]. Ask us anything.\n\nSources:\n[1] [How refunds work](https://help.example.com/refunds)')
  })

  it('email: plain text with "text (url)" links and a sources list', () => {
    const out = renderReply(answer, [refunds, shipping], 'email')
    assert.equal(
      out,
      'Refunds reach your card in 3-5 business days [1]. See the policy (https://help.example.com/policy) for details [2].\n\nSources:\n[1] How refunds work (https://help.example.com/refunds)\n[2] Shipping',
    )
  })

  it('sms: plain, no markers, the first cited link at the end', () => {
    assert.equal(renderReply('It takes *3 days* [1].', [refunds], 'sms'), 'It takes 3 days.\nhttps://help.example.com/refunds')
  })

  it('steps read as steps on voice', () => {
    const out = renderReply('You can reset it from the sign-in page. To reset it:\n1. Open the sign-in page.\n2. Click "Forgot password" [1]', [refunds], 'voice')
    assert.equal(out, 'You can reset it from the sign-in page. To reset it: Step 1: Open the sign-in page. Step 2: Click "Forgot password".')
  })

  it('tables and code read as lines on voice', () => {
    const out = renderReply('| Plan | Price |\n|---|---|\n| Basic | $9.99 |\n```\nsvc start\n```', [], 'voice')
    assert.equal(out, 'Plan, Price. Basic, nine dollars and ninety nine cents. svc start.')
  })
})

describe('speakable', () => {
  const cases: [string, string][] = [
    ['It costs $25.50 in total.', 'It costs twenty five dollars and fifty cents in total.'],
    ['A fee of $1.', 'A fee of one dollar.'],
    ['Shipping is £4.99 or €1,250.', 'Shipping is four pounds and ninety nine pence or one thousand two hundred fifty euros.'],
    ['Pay 12 USD now.', 'Pay twelve dollars now.'],
    ['We close at 14:30.', 'We close at 2:30 PM.'],
    ['Open 9:00-18:00, lunch at 12:00.', 'Open 9 AM to 6 PM, lunch at noon.'],
    ['Call at 7:15 pm.', 'Call at 7:15 PM.'],
    ['Delivery takes 3-5 business days.', 'Delivery takes 3 to 5 business days.'],
    ['Save 15% or 2.5%, up to 10-20%.', 'Save 15 percent or 2.5 percent, up to 10 percent to 20 percent.'],
    ['The sale ends 2026-11-28.', 'The sale ends November 28, 2026.'],
    ['Starts 2026-02-30 maybe.', 'Starts 2026-02-30 maybe.'],
    ['Call 555-0123 or 1-800-555-0199.', 'Call 555-0123 or 1-800-555-0199.'],
    ['Bring ID & a receipt, e.g. a PDF.', 'Bring ID and a receipt, for example, a PDF.'],
    ['Version 1.2.3 and order #42.', 'Version 1.2.3 and order number 42.'],
  ]
  for (const [input, said] of cases) it(input, () => assert.equal(speakable(input), said))
})
