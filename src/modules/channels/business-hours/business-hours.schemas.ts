import { Type, type Static } from 'typebox'
import { Nullable } from '../../../kernel/http/schemas.js'
import { WEEKDAYS } from './business-hours.js'

const Time = Type.String({ pattern: '^([01][0-9]|2[0-3]):[0-5][0-9]$|^24:00$', description: 'Local `HH:MM` (24-hour); `24:00` ends the day.', examples: ['09:00'] })

const Interval = Type.Object(
  {
    day: Type.Unsafe<(typeof WEEKDAYS)[number]>({ type: 'string', enum: [...WEEKDAYS] }),
    open: Time,
    close: Time,
  },
  { title: 'OpeningInterval', additionalProperties: false },
)

export const BusinessHoursSchema = Type.Object(
  {
    timezone: Type.String({ minLength: 1, maxLength: 64, description: 'IANA time zone the intervals are in, e.g. `Europe/Berlin` (daylight-saving time followed).' }),
    weekly: Type.Array(Interval, { maxItems: 50, description: 'Opening intervals per weekday; several per day allowed (a lunch break), none overlapping. Empty: never open.' }),
    closed_dates: Type.Array(Type.String({ format: 'date' }), { maxItems: 100, description: 'Local dates closed all day (holidays), `YYYY-MM-DD`.' }),
    out_of_hours_reply: Nullable(
      Type.String({
        minLength: 1,
        maxLength: 1000,
        description:
          'Sent once per closed period in a conversation whose customer writes while closed and no bot is answering (none on the channel, or it handed off). `{next_open}` becomes the next opening, e.g. "Monday 09:00 (Europe/Berlin)". Null: no reply.',
      }),
    ),
  },
  { title: 'BusinessHours', additionalProperties: false, description: 'When people answer this channel. Null: always (no out-of-hours reply).' },
)
export type BusinessHoursT = Static<typeof BusinessHoursSchema>
