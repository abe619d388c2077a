import assert from 'node:assert/strict'
import { describe, it } from 'node:test'
import { dayName, daySummary, defaultHours, hoursFormOf, hoursOfForm, intervalProblems, timeZones } from './src/pages/channels/hours-form.js'

// The business hours editor's translation to and from the API's `business_hours` (the browser test:
// dashboard/e2e/channels.e2e.test.ts).
describe('dashboard channels: business hours form (pure rules)', { skip: process.env.TEST_DB === 'postgres' && 'no database involved: checked on SQLite' }, () => {
  it('null is always open; switched on it starts as weekdays 09:00–17:00', () => {
    const f = hoursFormOf(null)
    assert.equal(f.enabled, false)
    assert.equal(hoursOfForm(f), null)
    const on = hoursOfForm({ ...defaultHours('Europe/Berlin'), enabled: true })!
    assert.equal(on.timezone, 'Europe/Berlin')
    assert.deepEqual(
      on.weekly.map((i) => i.day),
      ['mon', 'tue', 'wed', 'thu', 'fri'],
    )
    assert.equal(on.out_of_hours_reply, null)
  })

  it('round-trips the API form: 24:00 shown as 00:00 and sent back as 24:00, dates sorted without repeats, reply trimmed', () => {
    const api = {
      timezone: 'America/New_York',
      weekly: [
        { day: 'mon' as const, open: '09:00', close: '12:00' },
        { day: 'mon' as const, open: '13:00', close: '24:00' },
        { day: 'sat' as const, open: '10:00', close: '14:00' },
      ],
      closed_dates: ['2026-12-25', '2026-12-24'],
      out_of_hours_reply: 'Back {next_open}',
    }
    const f = hoursFormOf(api)
    assert.deepEqual(f.weekly.mon, [
      { open: '09:00', close: '12:00' },
      { open: '13:00', close: '00:00' },
    ])
    f.closed_dates.push('2026-12-24')
    f.out_of_hours_reply = '  Back {next_open}  '
    assert.deepEqual(hoursOfForm(f), { ...api, closed_dates: ['2026-12-24', '2026-12-25'] })
    assert.equal(daySummary(f.weekly.mon), '09:00–12:00, 13:00–24:00')
    assert.equal(daySummary(f.weekly.sun), null)
  })

  it('finds empty, reversed and overlapping intervals before the API is asked', () => {
    const f = { ...defaultHours('UTC'), enabled: true }
    f.weekly.mon = [
      { open: '09:00', close: '17:00' },
      { open: '16:00', close: '18:00' },
    ]
    f.weekly.tue = [{ open: '18:00', close: '09:00' }]
    f.weekly.wed = [{ open: '', close: '12:00' }]
    f.weekly.thu = [{ open: '20:00', close: '00:00' }]
    assert.deepEqual(intervalProblems(f), [
      { day: 'mon', index: 0, problem: 'overlap' },
      { day: 'mon', index: 1, problem: 'overlap' },
      { day: 'tue', index: 0, problem: 'order' },
      { day: 'wed', index: 0, problem: 'empty' },
    ])
  })

  it('names weekdays in the language and lists the runtime’s zones with the current one kept', () => {
    assert.equal(dayName('mon', 'en'), 'Monday')
    assert.equal(dayName('sun', 'de'), 'Sonntag')
    const zones = timeZones('Mars/Olympus_Mons')
    assert.ok(zones.includes('Europe/Berlin') && zones.includes('UTC') && zones.includes('Mars/Olympus_Mons'))
  })
})
