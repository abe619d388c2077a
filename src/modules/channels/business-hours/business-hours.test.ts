// test-engines: sqlite (no database involved: one pass is enough; scripts/test.mjs leaves it out of PostgreSQL's)
import assert from 'node:assert/strict'
import { describe, it } from 'node:test'
import { closedSince, isOpen, nextOpening, outOfHoursText, scheduleProblems, type BusinessHours } from './business-hours.js'

const weekdays = (open: string, close: string) => (['mon', 'tue', 'wed', 'thu', 'fri'] as const).map((day) => ({ day, open, close }))
const berlin: BusinessHours = {
  timezone: 'Europe/Berlin',
  weekly: [...weekdays('09:00', '17:00'), { day: 'sat', open: '10:00', close: '12:00' }],
  closed_dates: ['2026-12-25'],
  out_of_hours_reply: 'We are away. Back {next_open}.',
}
const at = (s: string) => new Date(s)

describe('business hours', () => {
  it('is open inside an interval of the local day, closed at its end and outside', () => {
    // 2026-11-30 is a Monday; Berlin is UTC+1 in winter.
    assert.equal(isOpen(berlin, at('2026-11-30T08:00:00Z')), true) // 09:00 local
    assert.equal(isOpen(berlin, at('2026-11-30T07:59:00Z')), false) // 08:59
    assert.equal(isOpen(berlin, at('2026-11-30T15:59:00Z')), true) // 16:59
    assert.equal(isOpen(berlin, at('2026-11-30T16:00:00Z')), false) // 17:00: the close is exclusive
    assert.equal(isOpen(berlin, at('2026-12-05T09:30:00Z')), true) // Saturday 10:30
    assert.equal(isOpen(berlin, at('2026-12-06T09:30:00Z')), false) // Sunday
  })

  it('follows the zone across daylight saving time', () => {
    // Summer: UTC+2, so 09:00 local is 07:00Z.
    assert.equal(isOpen(berlin, at('2026-06-01T07:00:00Z')), true)
    assert.equal(isOpen(berlin, at('2026-06-01T06:59:00Z')), false)
  })

  it('a closed date is closed all day, and the next opening skips it', () => {
    assert.equal(isOpen(berlin, at('2026-12-25T10:00:00Z')), false) // a Friday
    const next = nextOpening(berlin, at('2026-12-25T10:00:00Z'))
    assert.deepEqual(next && { ...next, at: next.at.toISOString() }, { at: '2026-12-26T09:00:00.000Z', localDate: '2026-12-26', localTime: '10:00', day: 'sat' })
  })

  it('the next opening: later today, tomorrow, or after the weekend', () => {
    assert.equal(nextOpening(berlin, at('2026-11-30T06:00:00Z'))?.at.toISOString(), '2026-11-30T08:00:00.000Z')
    assert.equal(nextOpening(berlin, at('2026-11-30T17:00:00Z'))?.at.toISOString(), '2026-12-01T08:00:00.000Z')
    // Saturday after noon → Monday 09:00.
    assert.equal(nextOpening(berlin, at('2026-12-05T12:00:00Z'))?.at.toISOString(), '2026-12-07T08:00:00.000Z')
    // An opening on the day DST starts (2026-03-29, 02:00 → 03:00 in Berlin).
    const sunday: BusinessHours = { ...berlin, weekly: [{ day: 'sun', open: '09:00', close: '10:00' }], closed_dates: [] }
    assert.equal(nextOpening(sunday, at('2026-03-28T12:00:00Z'))?.at.toISOString(), '2026-03-29T07:00:00.000Z')
    assert.equal(nextOpening({ ...berlin, weekly: [] }, at('2026-11-30T06:00:00Z')), null)
  })

  it('the closed period began at the last close', () => {
    assert.equal(closedSince(berlin, at('2026-11-30T20:00:00Z')).toISOString(), '2026-11-30T16:00:00.000Z')
    assert.equal(closedSince(berlin, at('2026-12-01T06:00:00Z')).toISOString(), '2026-11-30T16:00:00.000Z')
    // Monday morning: closed since Saturday noon.
    assert.equal(closedSince(berlin, at('2026-12-07T07:00:00Z')).toISOString(), '2026-12-05T11:00:00.000Z')
    const allDay: BusinessHours = { ...berlin, weekly: [{ day: 'mon', open: '00:00', close: '24:00' }] }
    assert.equal(closedSince(allDay, at('2026-12-01T12:00:00Z')).toISOString(), '2026-11-30T23:00:00.000Z')
  })

  it('fills {next_open} in the reply, in the requested language', () => {
    assert.equal(outOfHoursText(berlin, at('2026-12-05T12:00:00Z')), 'We are away. Back Monday 09:00 (Europe/Berlin).')
    assert.equal(outOfHoursText(berlin, at('2026-12-05T12:00:00Z'), 'de'), 'We are away. Back Montag 09:00 (Europe/Berlin).')
    assert.equal(outOfHoursText({ ...berlin, out_of_hours_reply: null }, at('2026-12-05T12:00:00Z')), null)
  })

  it('reports an unknown zone, an interval that closes before it opens, and overlaps', () => {
    const bad: BusinessHours = {
      timezone: 'Mars/Olympus',
      weekly: [
        { day: 'mon', open: '10:00', close: '09:00' },
        { day: 'tue', open: '09:00', close: '12:00' },
        { day: 'tue', open: '11:00', close: '13:00' },
      ],
      closed_dates: [],
      out_of_hours_reply: null,
    }
    assert.deepEqual(
      scheduleProblems(bad, '/business_hours').map((p) => p.pointer),
      ['/business_hours/timezone', '/business_hours/weekly/0', '/business_hours/weekly'],
    )
    assert.deepEqual(scheduleProblems(berlin, '/business_hours'), [])
  })
})
