import { useState } from 'preact/hooks'
import { Field } from '../../ui/components.js'
import { formatLocale, t } from '../../i18n/index.js'
import { dayName, defaultHours, intervalProblems, timeZones, WEEKDAYS, type HoursForm, type Interval, type Weekday } from './hours-form.js'

const PROBLEM = {
  empty: () => t('channels.hours.problemEmpty'),
  order: () => t('channels.hours.problemOrder'),
  overlap: () => t('channels.hours.problemOverlap'),
}

/**
 * The business hours editor (a channel's `business_hours`): always open, or a time zone, opening intervals
 * per weekday, closed dates and the out-of-hours reply. `readOnly` shows the same controls disabled (a member
 * sees the hours; only admins change them). `hideLegend` when a heading above says "Business hours" already.
 */
export function HoursEditor({ value: f, onChange, readOnly = false, hideLegend = false }: { value: HoursForm; onChange: (f: HoursForm) => void; readOnly?: boolean; hideLegend?: boolean }) {
  const [date, setDate] = useState('')
  const problems = intervalProblems(f)
  const zones = timeZones(f.timezone)
  const lang = formatLocale()
  const setDay = (day: Weekday, xs: Interval[]) => onChange({ ...f, weekly: { ...f.weekly, [day]: xs } })
  const addDate = () => {
    if (!date || f.closed_dates.includes(date)) return
    onChange({ ...f, closed_dates: [...f.closed_dates, date].sort() })
    setDate('')
  }
  return (
    <fieldset class="hours" disabled={readOnly}>
      {/* Hidden under a heading that already says it (the channel page's panel), kept for assistive technology. */}
      <legend class={hideLegend ? 'visually-hidden' : undefined}>{t('channels.hours.businessHours')}</legend>
      <div class="checks" role="radiogroup" aria-label={t('channels.hours.whenAnswered')}>
        <label>
          <input type="radio" name="hours-enabled" checked={!f.enabled} onChange={() => onChange({ ...f, enabled: false })} /> {t('channels.hours.alwaysOpen')}
        </label>
        <label>
          <input type="radio" name="hours-enabled" checked={f.enabled} onChange={() => onChange(f.timezone ? { ...f, enabled: true } : { ...defaultHours(), enabled: true })} />{' '}
          {t('channels.hours.setHours')}
        </label>
      </div>
      {!f.enabled && <p class="hint">{t('channels.hours.alwaysOpenHint')}</p>}
      {f.enabled && (
        <>
          <Field label={t('channels.hours.timeZone')} hint={t('channels.hours.timeZoneHint')}>
            {(id, hint) => (
              <select id={id} aria-describedby={hint} value={f.timezone} onChange={(e) => onChange({ ...f, timezone: e.currentTarget.value })}>
                {zones.map((z) => (
                  <option value={z}>{z}</option>
                ))}
              </select>
            )}
          </Field>
          <p class="hint">{t('channels.hours.midnightHint')}</p>
          {WEEKDAYS.map((day) => {
            const name = dayName(day, lang)
            const xs = f.weekly[day]
            return (
              <fieldset class="hours-day">
                <legend>{name}</legend>
                {xs.length === 0 && <p class="hint">{t('channels.hours.closedAllDay')}</p>}
                {xs.map((i, index) => {
                  const problem = problems.find((p) => p.day === day && p.index === index)
                  const pid = `hours-${day}-${index}-problem`
                  // Opens and closes: the same time input, marked invalid (and described) with the interval's problem.
                  const end = (k: keyof Interval, label: string, ariaLabel: string) => (
                    <label>
                      {label}{' '}
                      <input
                        type="time"
                        required
                        aria-label={ariaLabel}
                        aria-invalid={problem ? true : undefined}
                        aria-describedby={problem ? pid : undefined}
                        value={i[k]}
                        onInput={(e) =>
                          setDay(
                            day,
                            xs.map((x, j) => (j === index ? { ...x, [k]: e.currentTarget.value } : x)),
                          )
                        }
                      />
                    </label>
                  )
                  return (
                    <div class="hours-interval">
                      {end('open', t('channels.hours.opens'), t('channels.hours.opensOn', { day: name }))}
                      {end('close', t('channels.hours.closes'), t('channels.hours.closesOn', { day: name }))}
                      <button
                        type="button"
                        aria-label={t('channels.hours.removeInterval', { day: name, n: index + 1 })}
                        onClick={() =>
                          setDay(
                            day,
                            xs.filter((_, j) => j !== index),
                          )
                        }
                      >
                        {t('channels.hours.remove')}
                      </button>
                      {problem && (
                        <p class="field-problem" id={pid}>
                          {PROBLEM[problem.problem]()}
                        </p>
                      )}
                    </div>
                  )
                })}
                <button
                  type="button"
                  aria-label={t('channels.hours.addHoursOn', { day: name })}
                  onClick={() => setDay(day, [...xs, xs.length ? { open: '', close: '' } : { open: '09:00', close: '17:00' }])}
                >
                  {t('channels.hours.addHours')}
                </button>
              </fieldset>
            )
          })}
          <fieldset class="hours-day">
            <legend>{t('channels.hours.closedDates')}</legend>
            {f.closed_dates.length === 0 ? (
              <p class="hint">{t('channels.hours.noClosedDates')}</p>
            ) : (
              <ul class="closed-dates" aria-label={t('channels.hours.closedDates')}>
                {f.closed_dates.map((d) => (
                  <li>
                    <span>{d}</span>{' '}
                    <button type="button" aria-label={t('channels.hours.removeDate', { date: d })} onClick={() => onChange({ ...f, closed_dates: f.closed_dates.filter((x) => x !== d) })}>
                      {t('channels.hours.remove')}
                    </button>
                  </li>
                ))}
              </ul>
            )}
            <div class="hours-interval">
              <label>
                {t('channels.hours.date')} <input type="date" value={date} onInput={(e) => setDate(e.currentTarget.value)} />
              </label>
              <button type="button" disabled={!date} onClick={addDate}>
                {t('channels.hours.addClosedDate')}
              </button>
            </div>
          </fieldset>
          <Field label={t('channels.hours.outOfHoursReply')} hint={t('channels.hours.outOfHoursReplyHint')}>
            {(id, hint) => <textarea id={id} maxLength={1000} aria-describedby={hint} value={f.out_of_hours_reply} onInput={(e) => onChange({ ...f, out_of_hours_reply: e.currentTarget.value })} />}
          </Field>
        </>
      )}
    </fieldset>
  )
}

/** Whether the form can be sent as it is (no interval the API would refuse). */
export const hoursValid = (f: HoursForm): boolean => !f.enabled || intervalProblems(f).length === 0
