// test-engines: sqlite (no database involved: one pass is enough; scripts/test.mjs leaves it out of PostgreSQL's)
import assert from 'node:assert/strict'
import { describe, it } from 'node:test'
import pino from 'pino'
import { loadConfig } from '../../config.js'
import { createAiEngine, type AiSource, type RespondRequest, type ToolSpec } from './ai.js'
import { DONT_KNOW } from './builtin-respond.js'
import { extractArguments } from './tool-arguments.js'

const NOW = new Date('2026-11-24T10:00:00Z')
const engine = createAiEngine(loadConfig({}).ai, pino({ level: 'silent' }))
const extract = (parameters: Record<string, unknown>, text: string, region?: string) => extractArguments(parameters, text, { now: NOW, region })

const tools: ToolSpec[] = [
  {
    name: 'lookup_order',
    description: 'Look up the delivery status of an order by its order id.',
    parameters: { type: 'object', properties: { order_id: { type: 'string', pattern: '^ord_[0-9]+$' } }, required: ['order_id'] },
  },
  {
    name: 'book_table',
    description: 'Book a table at the restaurant for a party.',
    parameters: {
      type: 'object',
      properties: {
        party_size: { type: 'integer', minimum: 1, maximum: 20 },
        date: { type: 'string', format: 'date-time' },
        area: { type: 'string', enum: ['terrace', 'indoor', 'bar'] },
        email: { type: 'string', format: 'email' },
        phone: { type: 'string' },
      },
      required: ['party_size', 'date'],
    },
  },
  {
    name: 'refund_order',
    description: 'Refund an order: the amount goes back to the customer.',
    parameters: { type: 'object', properties: { order_id: { type: 'string', pattern: '^ord_[0-9]+$' }, amount: { type: 'number' } }, required: ['order_id', 'amount'] },
  },
]

const passages: AiSource[] = [
  { kind: 'passage', id: 'chk_refund', title: 'Refunds', text: 'We refund any purchase within 14 days. Refunds go back to the original payment method within 5 business days.' },
  { kind: 'passage', id: 'chk_hours', title: 'Opening hours', text: 'The restaurant opens at noon. The kitchen closes at 22:00 on weekdays.' },
]

const ask = (text: string, over: Partial<RespondRequest> = {}): RespondRequest => ({
  instructions: null,
  transcript: [{ role: 'customer', text }],
  passages,
  tools,
  toolResults: [],
  now: NOW,
  ...over,
})

describe('ai: argument extraction for the builtin engine', () => {
  it('reads dates and times (chrono-node), emails, phone numbers (libphonenumber-js), numbers and enums', () => {
    const book = tools[1].parameters
    const r = extract(book, 'Please book a table for 4 on the terrace tomorrow at 7pm, mail ada@example.com or call +49 30 1234567')
    assert.deepEqual(r.missing, [])
    assert.deepEqual(r.args, { party_size: 4, date: '2026-11-25T19:00:00.000Z', area: 'terrace', email: 'ada@example.com', phone: '+49301234567' })
    // A national number needs the region; a number inside the phone or the date is not the party size.
    assert.equal(extract(book, 'table for 2 on 3 December, call 030 1234567', 'DE').args.phone, '+49301234567')
    assert.equal(extract(book, 'table for 2 on 3 December, call 030 1234567', 'DE').args.party_size, 2)
    assert.equal(extract({ type: 'object', properties: { day: { type: 'string', format: 'date' } } }, 'on 3 December please').args.day, '2026-12-03')
    // Out of range (maximum 20) is not taken; a missing required argument is reported.
    assert.deepEqual(extract(book, 'a table for 45 people tomorrow at 8pm').missing, ['party_size'])
  })

  it('reads ids by pattern or name, amounts with separators, and named values; JSON input by property name', () => {
    assert.deepEqual(extract(tools[2].parameters, 'Refund €1,250.50 on order ord_981 please').args, { order_id: 'ord_981', amount: 1250.5 })
    assert.deepEqual(extract(tools[2].parameters, 'refund 49,90 for ord_12').args, { order_id: 'ord_12', amount: 49.9 })
    const ticket = { type: 'object', properties: { ticket_id: { type: 'string' } }, required: ['ticket_id'] }
    assert.equal(extract(ticket, 'what about ticket #12345?').args.ticket_id, '12345')
    assert.equal(extract(ticket, 'what about ticket ABC-778?').args.ticket_id, 'ABC-778')
    const coupon = { type: 'object', properties: { coupon: { type: 'string' } }, required: ['coupon'] }
    assert.equal(extract(coupon, 'my coupon is SAVE20.').args.coupon, 'SAVE20')
    assert.deepEqual(extract(tools[2].parameters, '{"order_id": "ord_5", "amount": 12}').args, { order_id: 'ord_5', amount: 12 })
    assert.deepEqual(extract(tools[0].parameters, 'where is my parcel?').missing, ['order_id'])
  })
})

describe('ai: the builtin engine responds with tool calls or grounded answers', () => {
  it('picks the tool whose description matches and whose arguments the message gives; deterministic', async () => {
    const step = await engine.respond(ask('Where is my order ord_123?'))
    assert.equal(step.kind, 'tool_calls')
    assert.equal(step.kind === 'tool_calls' && step.calls[0].name, 'lookup_order')
    assert.deepEqual(step.kind === 'tool_calls' && step.calls[0].arguments, { order_id: 'ord_123' })
    assert.deepEqual(await engine.respond(ask('Where is my order ord_123?')), step)
    const book = await engine.respond(ask('Can you book a table for 3 tomorrow at 8pm?'))
    assert.equal(book.kind === 'tool_calls' && book.calls[0].name, 'book_table')
  })

  it('does not call a tool when its required arguments are missing or the message is about something else', async () => {
    // "refund" matches refund_order, but no order id or amount: answered from the passages instead.
    const step = await engine.respond(ask('How long do refunds take?'))
    assert.equal(step.kind, 'answer')
    if (step.kind !== 'answer') return
    assert.equal(step.grounded, true)
    assert.match(step.content, /\[1\]/)
    assert.equal(step.sources[0].id, 'chk_refund')
    assert.ok(step.confidence! > 0.3)
    // A number alone does not pick the booking tool.
    assert.equal((await engine.respond(ask('I have 3 questions about 2 things'))).kind, 'answer')
  })

  it('says it does not know (grounded false, confidence 0) when nothing relevant is found', async () => {
    const step = await engine.respond(ask('Is the parrot asleep?', { tools: [] }))
    assert.deepEqual(step.kind === 'answer' && [step.content, step.grounded, step.confidence, step.sources], [DONT_KNOW, false, 0, []])
  })

  it('with tool results: states the outcome (or the failure), then any grounded passage', async () => {
    const call = { call_id: 'call_1', name: 'lookup_order', arguments: { order_id: 'ord_123' } }
    const ok = await engine.respond(ask('Where is my order ord_123?', { toolResults: [{ ...call, ok: true, output: { status: 'shipped', eta: '2026-11-26' } }] }))
    assert.equal(ok.kind, 'answer')
    assert.match(ok.kind === 'answer' ? ok.content : '', /^Lookup order: status: shipped, eta: 2026-11-26\./)
    assert.equal(ok.kind === 'answer' && ok.grounded, true)
    const failed = await engine.respond(
      ask('Where is my order ord_123?', { toolResults: [{ ...call, ok: false, output: null, error: { code: 'timeout', detail: 'The tool did not answer within 300 ms.' } }] }),
    )
    assert.match(failed.kind === 'answer' ? failed.content : '', /could not complete lookup order: The tool did not answer/)
    assert.equal(failed.kind === 'answer' && failed.confidence, 0.3)
  })
})
