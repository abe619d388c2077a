import type { MessageKey } from '../../i18n/index.js'

/** The snooze presets, in the browser's time zone: in an hour, tomorrow at 9:00, next Monday at 9:00. */
export function snoozePresets(now = new Date()): { label: MessageKey; until: Date }[] {
  const at9 = (d: Date) => {
    const x = new Date(d)
    x.setHours(9, 0, 0, 0)
    return x
  }
  const tomorrow = at9(new Date(now.getFullYear(), now.getMonth(), now.getDate() + 1))
  const days = (8 - now.getDay()) % 7 || 7
  const monday = at9(new Date(now.getFullYear(), now.getMonth(), now.getDate() + days))
  return [
    { label: 'inbox.snooze.hour', until: new Date(now.getTime() + 3600_000) },
    { label: 'inbox.snooze.tomorrow', until: tomorrow },
    { label: 'inbox.snooze.nextWeek', until: monday },
  ]
}

/** A datetime-local value (the browser's local time, to the minute) for `d`. */
export const localInput = (d: Date) => {
  const p = (n: number) => String(n).padStart(2, '0')
  return `${d.getFullYear()}-${p(d.getMonth() + 1)}-${p(d.getDate())}T${p(d.getHours())}:${p(d.getMinutes())}`
}
