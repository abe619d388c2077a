import type { components } from '../../api/schema.js'

// The business hours editor's form and its translation to and from the API's `business_hours` (pure: tested
// in Node, dashboard/channels-hours.test.ts). The API's rules are the truth (docs/channels.md "Business
// hours"); the form only keeps people from typing what the API would refuse where that is easy to see.

export type BusinessHours = components['schemas']['BusinessHours']
export type Weekday = components['schemas']['OpeningInterval']['day']
export const WEEKDAYS: readonly Weekday[] = ['mon', 'tue', 'wed', 'thu', 'fri', 'sat', 'sun']

export interface Interval {
  open: string
  close: string
}

export interface HoursForm {
  /** false: always open (the API's null). */
  enabled: boolean
  timezone: string
  weekly: Record<Weekday, Interval[]>
  closed_dates: string[]
  out_of_hours_reply: string
}

const emptyWeek = (): Record<Weekday, Interval[]> => ({ mon: [], tue: [], wed: [], thu: [], fri: [], sat: [], sun: [] })

/** The browser's own zone: the likeliest for a business setting its hours up. */
export function browserTimeZone(): string {
  try {
    return Intl.DateTimeFormat().resolvedOptions().timeZone || 'UTC'
  } catch {
    return 'UTC'
  }
}

/**
 * The zones to choose from: the runtime's list (Intl.supportedValuesOf), with `current` kept when the list
 * lacks it (Chromium lists no `UTC`; a channel saved elsewhere may name a zone this browser does not have).
 */
export function timeZones(current?: string): string[] {
  let zones: string[] = []
  try {
    zones = (Intl as unknown as { supportedValuesOf(k: string): string[] }).supportedValuesOf('timeZone')
  } catch {
    zones = []
  }
  const all = new Set(zones)
  all.add('UTC')
  if (current) all.add(current)
  return [...all].sort()
}

/** Closed (the API's null) starts as Monday to Friday, 09:00–17:00, in the browser's zone, when switched on. */
export function defaultHours(timezone = browserTimeZone()): HoursForm {
  const weekly = emptyWeek()
  for (const day of WEEKDAYS.slice(0, 5)) weekly[day] = [{ open: '09:00', close: '17:00' }]
  return { enabled: false, timezone, weekly, closed_dates: [], out_of_hours_reply: '' }
}

/** The form for a channel's `business_hours` (null: always open, with the default week ready to switch on). */
export function hoursFormOf(hours: BusinessHours | null | undefined): HoursForm {
  if (!hours) return defaultHours()
  const weekly = emptyWeek()
  // The end of the day is 24:00 in the API; a time input cannot show it, so it reads 00:00 (see closeToApi).
  for (const i of hours.weekly) weekly[i.day].push({ open: i.open, close: i.close === '24:00' ? '00:00' : i.close })
  return { enabled: true, timezone: hours.timezone, weekly, closed_dates: [...hours.closed_dates], out_of_hours_reply: hours.out_of_hours_reply ?? '' }
}

/** A closing time of 00:00 is midnight at the end of the day (the API's 24:00): an interval never ends before it opens. */
const closeToApi = (close: string): string => (close === '00:00' ? '24:00' : close)

/** The API's `business_hours` for the form (null when always open). */
export function hoursOfForm(f: HoursForm): BusinessHours | null {
  if (!f.enabled) return null
  const weekly = WEEKDAYS.flatMap((day) => f.weekly[day].map((i) => ({ day, open: i.open, close: closeToApi(i.close) })))
  const reply = f.out_of_hours_reply.trim()
  return { timezone: f.timezone, weekly, closed_dates: [...new Set(f.closed_dates)].sort(), out_of_hours_reply: reply || null }
}

/** The intervals that would be refused before asking the API: empty times, a close not after the open, overlaps (per day, by index). */
export function intervalProblems(f: HoursForm): { day: Weekday; index: number; problem: 'empty' | 'order' | 'overlap' }[] {
  const out: { day: Weekday; index: number; problem: 'empty' | 'order' | 'overlap' }[] = []
  for (const day of WEEKDAYS) {
    const xs = f.weekly[day]
    xs.forEach((i, index) => {
      if (!i.open || !i.close) return void out.push({ day, index, problem: 'empty' })
      const close = closeToApi(i.close)
      if (close <= i.open) return void out.push({ day, index, problem: 'order' })
      const overlaps = xs.some((o, j) => j !== index && o.open && o.close && o.open < close && i.open < closeToApi(o.close))
      if (overlaps) out.push({ day, index, problem: 'overlap' })
    })
  }
  return out
}

/** The weekday's name in `locale` (2024-01-01 was a Monday). */
export function dayName(day: Weekday, locale: string): string {
  const date = new Date(Date.UTC(2024, 0, 1 + WEEKDAYS.indexOf(day), 12))
  return new Intl.DateTimeFormat(locale, { weekday: 'long', timeZone: 'UTC' }).format(date)
}

/** "09:00–17:00, 18:00–20:00" for a day, or null when closed all day. */
export function daySummary(xs: Interval[]): string | null {
  if (xs.length === 0) return null
  return [...xs]
    .sort((a, b) => a.open.localeCompare(b.open))
    .map((i) => `${i.open}–${i.close === '00:00' ? '24:00' : i.close}`)
    .join(', ')
}
