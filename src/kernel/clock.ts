export interface Clock {
  now(): Date
}

export const systemClock: Clock = { now: () => new Date() }

/** A clock tests can move forward (24-hour purges, retry schedules). */
export class ManualClock implements Clock {
  private current: number
  constructor(start: Date | number = Date.now()) {
    this.current = typeof start === 'number' ? start : start.getTime()
  }
  now(): Date {
    return new Date(this.current)
  }
  advance(ms: number): void {
    this.current += ms
  }
}

export const iso = (d: Date): string => d.toISOString()

/**
 * A date-time from a caller as every timestamp is stored (ISO 8601 UTC, milliseconds: docs/architecture.md), so
 * that text order is time order whatever offset or precision they wrote. A value Date cannot read is kept as
 * written (a leap second, 23:59:60, is refused by the request's date-time check before it gets here).
 */
export function utc(value: string | undefined): string | undefined {
  const ms = value === undefined ? NaN : Date.parse(value)
  return Number.isFinite(ms) ? new Date(ms).toISOString() : value
}
