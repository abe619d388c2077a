// A channel's business hours: weekly opening intervals in the business's own time zone, closed dates,
// and the reply a customer gets when they write while nobody is there. Everything is computed in the
// zone's local time with Intl (the IANA database the runtime ships), so daylight-saving changes need no
// table of our own.

export const WEEKDAYS = ['mon', 'tue', 'wed', 'thu', 'fri', 'sat', 'sun'] as const
export type Weekday = (typeof WEEKDAYS)[number]

export interface OpeningInterval {
  day: Weekday
  /** Local `HH:MM`, inclusive. */
  open: string
  /** Local `HH:MM` after `open`, exclusive; `24:00` is the end of the day. */
  close: string
}

export interface BusinessHours {
  timezone: string
  weekly: OpeningInterval[]
  /** Local dates (`YYYY-MM-DD`) closed all day: holidays. */
  closed_dates: string[]
  /** Sent once per closed period to a customer who writes while closed and no bot answers; null: none. */
  out_of_hours_reply: string | null
}

export interface Opening {
  /** The instant it opens. */
  at: Date
  /** Local date and time in the business's zone, as the reply shows them. */
  localDate: string
  localTime: string
  day: Weekday
}

const minutes = (hhmm: string): number => Number(hhmm.slice(0, 2)) * 60 + Number(hhmm.slice(3, 5))

/** Whether `tz` is an IANA zone this runtime knows. */
export function isTimeZone(tz: string): boolean {
  try {
    new Intl.DateTimeFormat('en-US', { timeZone: tz })
    return true
  } catch {
    return false
  }
}

/** The problems of a schedule a client sent, as JSON pointers under `base` (empty: fine). */
export function scheduleProblems(h: BusinessHours, base: string): { pointer: string; detail: string }[] {
  const out: { pointer: string; detail: string }[] = []
  if (!isTimeZone(h.timezone)) out.push({ pointer: `${base}/timezone`, detail: `not an IANA time zone: ${h.timezone}` })
  h.weekly.forEach((w, i) => {
    if (minutes(w.close) <= minutes(w.open)) out.push({ pointer: `${base}/weekly/${i}`, detail: 'close must be after open (24:00 ends the day; split an interval across midnight in two)' })
  })
  for (const day of WEEKDAYS) {
    const spans = h.weekly.filter((w) => w.day === day).sort((a, b) => minutes(a.open) - minutes(b.open))
    for (let i = 1; i < spans.length; i++) {
      if (minutes(spans[i].open) < minutes(spans[i - 1].close)) out.push({ pointer: `${base}/weekly`, detail: `intervals overlap on ${day}` })
    }
  }
  h.closed_dates.forEach((d, i) => {
    if (Number.isNaN(Date.parse(`${d}T00:00:00Z`))) out.push({ pointer: `${base}/closed_dates/${i}`, detail: `not a date: ${d}` })
  })
  return out
}

const formatters = new Map<string, Intl.DateTimeFormat>()
function formatter(tz: string): Intl.DateTimeFormat {
  let f = formatters.get(tz)
  if (!f) {
    f = new Intl.DateTimeFormat('en-US', { timeZone: tz, hourCycle: 'h23', year: 'numeric', month: '2-digit', day: '2-digit', hour: '2-digit', minute: '2-digit', second: '2-digit', weekday: 'short' })
    formatters.set(tz, f)
  }
  return f
}

interface Local {
  date: string
  minute: number
  day: Weekday
  /** The local wall clock read as if it were UTC, in ms: its difference to the instant is the zone's offset. */
  wallMs: number
}

function local(tz: string, at: Date): Local {
  const p: Record<string, string> = {}
  for (const part of formatter(tz).formatToParts(at)) p[part.type] = part.value
  const date = `${p.year}-${p.month}-${p.day}`
  const hour = Number(p.hour) % 24
  const wallMs = Date.UTC(Number(p.year), Number(p.month) - 1, Number(p.day), hour, Number(p.minute), Number(p.second))
  return { date, minute: hour * 60 + Number(p.minute), day: p.weekday.slice(0, 3).toLowerCase() as Weekday, wallMs }
}

/** The instant a local wall-clock time happens in `tz` (a time skipped by a DST change moves forward to when it exists). */
function instantOf(tz: string, date: string, minute: number): Date {
  const wall = Date.parse(`${date}T00:00:00Z`) + minute * 60_000
  // Two refinements find the offset in force at that instant (the offset itself depends on the instant).
  let guess = wall - (local(tz, new Date(wall)).wallMs - wall)
  guess = wall - (local(tz, new Date(guess)).wallMs - guess)
  const back = local(tz, new Date(guess))
  return back.date === date && back.minute >= minute ? new Date(guess) : new Date(guess + 3_600_000)
}

const nextDate = (date: string): string => new Date(Date.parse(`${date}T00:00:00Z`) + 86_400_000).toISOString().slice(0, 10)
const dayAfter = (day: Weekday): Weekday => WEEKDAYS[(WEEKDAYS.indexOf(day) + 1) % 7]

/** Whether the business is open at `at`. */
export function isOpen(h: BusinessHours, at: Date): boolean {
  const now = local(h.timezone, at)
  if (h.closed_dates.includes(now.date)) return false
  return h.weekly.some((w) => w.day === now.day && minutes(w.open) <= now.minute && now.minute < minutes(w.close))
}

/** When it opens next after `at` (within two weeks, past closed dates), or null when it never does. */
export function nextOpening(h: BusinessHours, at: Date): Opening | null {
  const now = local(h.timezone, at)
  let date = now.date
  let day = now.day
  for (let i = 0; i < 15 + h.closed_dates.length; i++) {
    if (!h.closed_dates.includes(date)) {
      const opens = h.weekly
        .filter((w) => w.day === day && (i > 0 || minutes(w.open) > now.minute))
        .map((w) => minutes(w.open))
        .sort((a, b) => a - b)
      if (opens.length > 0) {
        const minute = opens[0]
        const hh = String(Math.floor(minute / 60)).padStart(2, '0')
        const mm = String(minute % 60).padStart(2, '0')
        return { at: instantOf(h.timezone, date, minute), localDate: date, localTime: `${hh}:${mm}`, day }
      }
    }
    date = nextDate(date)
    day = dayAfter(day)
  }
  return null
}

/** When the current closed period began: the last close (or closed-date midnight) at or before `at`. */
export function closedSince(h: BusinessHours, at: Date): Date {
  const now = local(h.timezone, at)
  let date = now.date
  let day = now.day
  for (let i = 0; i < 15 + h.closed_dates.length; i++) {
    // A closed date closes at its first minute unless the day before ran into it.
    const closes = h.closed_dates.includes(date)
      ? []
      : h.weekly
          .filter((w) => w.day === day && (i > 0 || minutes(w.close) <= now.minute))
          .map((w) => minutes(w.close))
          .sort((a, b) => b - a)
    if (closes.length > 0) return instantOf(h.timezone, closes[0] === 1440 ? nextDate(date) : date, closes[0] % 1440)
    date = new Date(Date.parse(`${date}T00:00:00Z`) - 86_400_000).toISOString().slice(0, 10)
    day = WEEKDAYS[(WEEKDAYS.indexOf(day) + 6) % 7]
  }
  return new Date(0)
}

/** The out-of-hours reply with `{next_open}` filled in (e.g. "Monday 09:00 (Europe/Berlin)"). */
export function outOfHoursText(h: BusinessHours, at: Date, language = 'en'): string | null {
  if (!h.out_of_hours_reply) return null
  const next = nextOpening(h, at)
  const when = next ? `${new Intl.DateTimeFormat(language, { weekday: 'long', timeZone: 'UTC' }).format(new Date(`${next.localDate}T12:00:00Z`))} ${next.localTime} (${h.timezone})` : ''
  return h.out_of_hours_reply.replaceAll('{next_open}', when).trim()
}
