import assert from 'node:assert/strict'
import { after, before, describe, it } from 'node:test'
import { memberWithPassword } from './server.js'
import { assertFitsPhone, checkA11y, PASSWORD, screenshot, skip, startDashboard, type Dashboard } from './harness.js'

describe('dashboard channels in Chromium: an SMS channel with business hours, edited and deleted; roles, German, the sandbox', { skip }, () => {
  let d: Dashboard
  let bot: any
  let sms: any
  const api = async (method: 'GET' | 'POST' | 'PATCH', url: string, payload?: Record<string, unknown>) => {
    const res = await d.h.request({ method, url, payload })
    assert.ok(res.statusCode < 300, `${method} ${url}: ${res.statusCode} ${res.body}`)
    return JSON.parse(res.body)
  }

  before(async () => {
    d = await startDashboard()
    bot = await api('POST', '/v2/bots', { name: 'Front door', instructions: 'Answer customers politely.' })
    await api('POST', `/v2/bots/${bot.id}/publish`, {})
    await memberWithPassword(d.h, 'mia@example.com', PASSWORD, { role: 'member' })
  })
  after(() => d?.close())

  it('creates a simulated SMS channel with its bot and business hours, and lists it (filter by type)', async () => {
    const page = await d.open()
    await d.signIn(page, '/dashboard/channels')
    await page.getByRole('heading', { name: 'Channels', level: 1 }).waitFor()
    await page.getByText('No channels yet').waitFor()
    await checkA11y(page, 'channels (empty)')

    await page.getByRole('button', { name: 'New channel' }).click()
    const dialog = page.getByRole('dialog', { name: 'New channel' })
    assert.equal(await dialog.getByLabel('Type').inputValue(), 'sms')
    await dialog.getByLabel('Name', { exact: true }).fill('Support line')
    await dialog.getByLabel('Phone number').fill('+14155550100')
    assert.equal(await dialog.getByLabel('Provider').inputValue(), 'simulated')
    await dialog.getByLabel('Bot', { exact: true }).locator(`option[value="${bot.id}"]`).waitFor({ state: 'attached' })
    await dialog.getByLabel('Bot', { exact: true }).selectOption(bot.id)

    await dialog.getByLabel('Open at set hours').check()
    await dialog.getByLabel('Time zone').selectOption('Europe/Berlin')
    // Weekdays start 09:00–17:00: Friday closes early, Saturday opens late morning, a holiday is added.
    await dialog.getByLabel('Closes, Friday').fill('15:00')
    await dialog.getByRole('button', { name: 'Add hours on Saturday' }).click()
    await dialog.getByLabel('Opens, Saturday').fill('10:00')
    await dialog.getByLabel('Closes, Saturday').fill('14:00')
    await dialog.getByLabel('Date', { exact: true }).fill('2026-12-24')
    await dialog.getByRole('button', { name: 'Add closed date' }).click()
    await dialog.getByLabel('Out-of-hours reply').fill('Thanks! We are back {next_open}.')
    // An interval that closes before it opens is shown, and the form is not sent.
    await dialog.getByLabel('Closes, Monday').fill('08:00')
    await dialog.getByText('The closing time must be after the opening time.').waitFor()
    assert.equal(await dialog.getByRole('button', { name: 'Create channel' }).isDisabled(), true)
    await dialog.getByLabel('Closes, Monday').fill('17:00')
    await checkA11y(page, 'new channel dialog')
    await dialog.getByRole('button', { name: 'Create channel' }).click()
    await dialog.waitFor({ state: 'hidden' })
    await page.getByRole('status').getByText('Channel “Support line” created.').waitFor()

    const list = await api('GET', '/v2/channels')
    assert.equal(list.data.length, 1)
    sms = list.data[0]
    assert.equal(sms.type, 'sms')
    assert.equal(sms.provider, 'simulated')
    assert.equal(sms.phone_number, '+14155550100')
    assert.equal(sms.bot_id, bot.id)
    assert.deepEqual(sms.business_hours, {
      timezone: 'Europe/Berlin',
      weekly: [
        { day: 'mon', open: '09:00', close: '17:00' },
        { day: 'tue', open: '09:00', close: '17:00' },
        { day: 'wed', open: '09:00', close: '17:00' },
        { day: 'thu', open: '09:00', close: '17:00' },
        { day: 'fri', open: '09:00', close: '15:00' },
        { day: 'sat', open: '10:00', close: '14:00' },
      ],
      closed_dates: ['2026-12-24'],
      out_of_hours_reply: 'Thanks! We are back {next_open}.',
    })

    const table = page.getByRole('table', { name: 'Channels' })
    const row = table.getByRole('row').filter({ hasText: 'Support line' })
    await row.waitFor()
    assert.match((await row.textContent()) ?? '', /Support line.*SMS.*\+14155550100.*Front door.*simulated.*Europe\/Berlin/)
    await checkA11y(page, 'channels')
    await assertFitsPhone(page, 'channels')
    await screenshot(page, 'channels-list')

    // A second SMS channel for the same number: the API's 409 in the dialog, nothing made.
    await page.getByRole('button', { name: 'New channel' }).click()
    await dialog.getByLabel('Name', { exact: true }).fill('Same number')
    await dialog.getByLabel('Phone number').fill('+14155550100')
    await dialog.getByRole('button', { name: 'Create channel' }).click()
    const problem = dialog.getByRole('alert')
    await problem.getByText(/Error 409/).waitFor()
    assert.match((await problem.textContent()) ?? '', /\/body\/phone_number[\s\S]*channel_number_taken[\s\S]*request_id req_/)
    await checkA11y(page, 'new channel refused')
    await dialog.getByRole('button', { name: 'Cancel' }).click()
    await dialog.waitFor({ state: 'hidden' })
    assert.equal((await api('GET', '/v2/channels')).data.length, 1)

    // The type filter is in the URL; a type with no channels says so.
    await page.getByLabel('Type').selectOption('web_chat')
    await page.waitForURL(/\?type=web_chat$/)
    await page.getByText('No Web chat channels').waitFor()
    await page.reload()
    await page.getByText('No Web chat channels').waitFor()
    await page.getByLabel('Type').selectOption('sms')
    await table.getByRole('row').filter({ hasText: 'Support line' }).waitFor()
    d.clean(page)
  })

  it('edits the SMS channel: the Twilio webhook URLs shown to copy, renamed, its business hours changed', async () => {
    const page = await d.open()
    await d.signIn(page, '/dashboard/channels')
    await page.getByRole('table', { name: 'Channels' }).getByRole('link', { name: 'Support line' }).click()
    await page.waitForURL((u) => u.pathname === `/dashboard/channels/${sms.id}`)
    await page.getByRole('heading', { name: 'Support line', level: 1 }).waitFor()
    const twilio = page.getByRole('region', { name: 'Twilio' })
    await twilio.getByText(sms.webhooks.messages_url).waitFor()
    await twilio.getByText(sms.webhooks.status_url).waitFor()
    assert.equal(await twilio.getByRole('button', { name: 'Copy' }).count(), 2)
    await checkA11y(page, 'SMS channel')
    await assertFitsPhone(page, 'SMS channel')

    await page.getByRole('button', { name: 'Edit' }).click()
    const dialog = page.getByRole('dialog', { name: 'Edit the SMS channel' })
    assert.equal(await dialog.getByLabel('Name', { exact: true }).inputValue(), 'Support line')
    assert.equal(await dialog.getByLabel('Bot', { exact: true }).inputValue(), bot.id)
    await dialog.getByLabel('Name', { exact: true }).fill('Support SMS')
    await dialog.getByLabel('Bot', { exact: true }).selectOption('')
    await checkA11y(page, 'edit channel dialog')
    await dialog.getByRole('button', { name: 'Save changes' }).click()
    await dialog.waitFor({ state: 'hidden' })
    await page.getByRole('status').getByText('Channel saved.').waitFor()
    let now = await api('GET', `/v2/channels/${sms.id}`)
    assert.equal(now.name, 'Support SMS')
    assert.equal(now.bot_id, null)
    assert.deepEqual(now.business_hours, sms.business_hours, 'the edit leaves the hours alone')

    // The hours panel starts from the stored hours: a lunch break on Monday, open until midnight on Thursday, the holiday removed.
    const hours = page.getByRole('region', { name: 'Business hours' })
    assert.equal(await hours.getByLabel('Time zone').inputValue(), 'Europe/Berlin')
    assert.equal(await hours.getByLabel('Closes, Friday').inputValue(), '15:00')
    await hours.getByLabel('Closes, Monday').fill('12:00')
    await hours.getByRole('button', { name: 'Add hours on Monday' }).click()
    await hours.getByLabel('Opens, Monday').nth(1).fill('13:00')
    await hours.getByLabel('Closes, Monday').nth(1).fill('18:00')
    await hours.getByLabel('Closes, Thursday').fill('00:00')
    await hours.getByRole('button', { name: 'Remove 2026-12-24' }).click()
    await hours.getByRole('button', { name: 'Remove hours 1 on Saturday' }).click()
    await checkA11y(page, 'business hours editor')
    await screenshot(page, 'channels-hours')
    await hours.getByRole('button', { name: 'Save business hours' }).click()
    await page.getByRole('status').getByText('Business hours saved.').waitFor()
    now = await api('GET', `/v2/channels/${sms.id}`)
    assert.deepEqual(now.business_hours.weekly, [
      { day: 'mon', open: '09:00', close: '12:00' },
      { day: 'mon', open: '13:00', close: '18:00' },
      { day: 'tue', open: '09:00', close: '17:00' },
      { day: 'wed', open: '09:00', close: '17:00' },
      { day: 'thu', open: '09:00', close: '24:00' },
      { day: 'fri', open: '09:00', close: '15:00' },
    ])
    assert.deepEqual(now.business_hours.closed_dates, [])
    assert.equal(now.name, 'Support SMS')

    // Always open is null; after a reload the page reads the API again.
    await hours.getByLabel('Always open').check()
    await hours.getByRole('button', { name: 'Save business hours' }).click()
    await page.getByRole('status').getByText('Business hours saved.').waitFor()
    assert.equal((await api('GET', `/v2/channels/${sms.id}`)).business_hours, null)
    await page.reload()
    assert.equal(await page.getByRole('region', { name: 'Business hours' }).getByLabel('Always open').isChecked(), true)
    d.clean(page)
  })

  it('a member sees channels read-only: no New channel, no Edit or Delete, the hours disabled', async () => {
    const page = await d.open()
    await d.signIn(page, '/dashboard/channels', 'mia@example.com')
    await page.getByRole('table', { name: 'Channels' }).getByRole('link', { name: 'Support SMS' }).waitFor()
    await page.getByText('Only owners and admins change channels').waitFor()
    assert.equal(await page.getByRole('button', { name: 'New channel' }).count(), 0)
    await page.getByRole('link', { name: 'Support SMS' }).click()
    await page.getByRole('heading', { name: 'Support SMS', level: 1 }).waitFor()
    for (const name of ['Edit', 'Delete channel', 'Save business hours']) assert.equal(await page.getByRole('button', { name }).count(), 0, name)
    assert.equal(await page.getByRole('region', { name: 'Business hours' }).getByLabel('Always open').isDisabled(), true)
    await checkA11y(page, 'channel read-only')
    d.clean(page)
  })

  it('speaks German: the navigation, the list and the new-channel form (in the dark theme, axe clean)', async () => {
    const page = await d.open({ locale: 'de-DE', colorScheme: 'dark' })
    await d.signIn(page, '/dashboard/channels')
    await page.getByRole('heading', { name: 'Kanäle', level: 1 }).waitFor()
    await page.getByRole('navigation').getByRole('link', { name: 'Kanäle' }).first().waitFor()
    await page.getByRole('button', { name: 'Neuer Kanal' }).click()
    const dialog = page.getByRole('dialog', { name: 'Neuer Kanal' })
    await dialog.getByLabel('Zu festen Zeiten geöffnet').check()
    await dialog.getByLabel('Schließt, Montag').waitFor()
    await dialog.getByRole('button', { name: 'Zeiten am Samstag hinzufügen' }).waitFor()
    await dialog.getByText('Abwesenheitsantwort', { exact: true }).waitFor()
    await checkA11y(page, 'new channel dialog (German, dark)')
    await dialog.getByRole('button', { name: 'Abbrechen' }).click()
    await page.getByRole('table', { name: 'Kanäle' }).getByRole('link', { name: 'Support SMS' }).click()
    await page.getByRole('region', { name: 'Geschäftszeiten' }).getByLabel('Immer geöffnet').waitFor()
    await checkA11y(page, 'SMS channel (German, dark)')
    d.clean(page)
  })

  it('offers only the simulated provider in the sandbox (the API refuses Twilio and SMTP there)', async () => {
    const page = await d.open()
    await d.signIn(page, '/dashboard/channels')
    await page.getByTestId('mode-sandbox').click()
    await page.getByTestId('sandbox-banner').waitFor()
    await page.getByText('No channels yet').waitFor()
    await page.getByRole('button', { name: 'New channel' }).click()
    const dialog = page.getByRole('dialog', { name: 'New channel' })
    const options = async () =>
      dialog
        .getByLabel('Provider')
        .locator('option')
        .evaluateAll((xs) => xs.map((x) => (x as HTMLOptionElement).value))
    assert.deepEqual(await options(), ['simulated'])
    await dialog.getByLabel('Type').selectOption('email')
    assert.deepEqual(await options(), ['', 'simulated'])
    d.clean(page)
  })

  it('deletes a channel only after confirming, saying its conversations stay', async () => {
    const page = await d.open()
    await d.signIn(page, `/dashboard/channels/${sms.id}`)
    await page.getByRole('heading', { name: 'Support SMS', level: 1 }).waitFor()
    await page.getByRole('button', { name: 'Delete channel' }).click()
    const dialog = page.getByRole('dialog', { name: 'Delete this channel?' })
    await dialog.getByText('Its conversations stay in the inbox').waitFor()
    await dialog.getByRole('button', { name: 'Cancel' }).click()
    await dialog.waitFor({ state: 'hidden' })
    assert.equal((await api('GET', `/v2/channels/${sms.id}`)).id, sms.id)

    await page.getByRole('button', { name: 'Delete channel' }).click()
    await checkA11y(page, 'delete channel dialog')
    await dialog.getByRole('button', { name: 'Delete channel' }).click()
    await page.waitForURL((u) => u.pathname === '/dashboard/channels')
    await page.getByRole('status').getByText('Channel “Support SMS” deleted. Its conversations stay in the inbox.').waitFor()
    await page.getByText('No channels yet').waitFor()
    assert.equal((await d.h.request({ method: 'GET', url: `/v2/channels/${sms.id}` })).statusCode, 404)
    d.clean(page)
  })
})
