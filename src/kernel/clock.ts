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
