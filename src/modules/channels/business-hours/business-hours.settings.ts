import { AppError } from '../../../kernel/errors.js'
import { scheduleProblems, WEEKDAYS } from './business-hours.js'
import type { BusinessHoursT } from './business-hours.schemas.js'

/** The stored column for a client's business hours (null clears them), after the checks a schema cannot make. */
export function businessHoursColumn(input: BusinessHoursT | null): string | null {
  if (input === null) return null
  const problems = scheduleProblems(input, '/body/business_hours')
  if (problems.length > 0) throw new AppError('validation_failed', `business_hours: ${problems[0].detail}.`, { errors: problems })
  // Sorted, so an unchanged schedule stores the same text and the update changes nothing.
  const weekly = [...input.weekly].sort((a, b) => WEEKDAYS.indexOf(a.day) - WEEKDAYS.indexOf(b.day) || a.open.localeCompare(b.open))
  return JSON.stringify({ timezone: input.timezone, weekly, closed_dates: [...new Set(input.closed_dates)].sort(), out_of_hours_reply: input.out_of_hours_reply })
}
