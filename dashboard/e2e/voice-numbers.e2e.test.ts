import assert from 'node:assert/strict'
import { after, before, describe, it } from 'node:test'
import { assertFitsPhone, checkA11y, screenshot, skip, startDashboard, type Dashboard } from './harness.js'

describe('dashboard voice numbers in Chromium: provision a number answered by a bot, edit it, release it', { skip }, () => {
  let d: Dashboard
  let bot: any
  const api = async (method: 'GET' | 'POST' | 'PATCH', url: string, payload?: Record<string, unknown>) => {
    const res = await d.h.request({ method, url, payload })
    assert.ok(res.statusCode < 300, `${method} ${url}: ${res.statusCode} ${res.body}`)
    return JSON.parse(res.body)
  }

  before(async () => {
    // Realistic dialling and ringing times, so a call can be watched before it ends.
    d = await startDashboard({ env: { VOICE_SIM_SETUP_SCALE: '1' } })
    bot = await api('POST', '/v2/bots', { name: 'Phone helper', instructions: 'Answer callers politely.' })
    await api('POST', `/v2/bots/${bot.id}/publish`, {})
  })
  after(() => d?.close())

  it('provisions a GB number from the Numbers page, shows it in the list, and the API has it', async () => {
    const page = await d.open()
    await d.signIn(page, '/dashboard/voice/numbers')
    await page.getByRole('heading', { name: 'Phone numbers' }).waitFor()
    await page.getByText('No numbers yet').waitFor()
    await checkA11y(page, 'voice numbers (empty)')

    await page.getByRole('button', { name: 'Provision number' }).click()
    const dialog = page.getByRole('dialog', { name: 'Provision a number' })
    await dialog.waitFor()
    await dialog.getByLabel('Country').fill('GB')
    await dialog.getByLabel('Friendly name (optional)').fill('London desk')
    await dialog.getByLabel('Answered by').selectOption('bot')
    await dialog.getByLabel('Bot', { exact: true }).locator(`option[value="${bot.id}"]`).waitFor({ state: 'attached' })
    await dialog.getByLabel('Bot', { exact: true }).selectOption(bot.id)
    await dialog.getByLabel('Greeting (optional)').fill('Thanks for calling the London desk.')
    await checkA11y(page, 'provision number dialog')
    await dialog.getByRole('button', { name: 'Provision number' }).click()
    await dialog.waitFor({ state: 'hidden' })

    const list = await api('GET', '/v2/voice/numbers')
    assert.equal(list.data.length, 1)
    const n = list.data[0]
    assert.equal(n.country, 'GB')
    assert.equal(n.friendly_name, 'London desk')
    assert.deepEqual(n.answer, { type: 'bot', id: bot.id, greeting: 'Thanks for calling the London desk.' })
    assert.match(n.phone_number, /^\+44/)

    await page.getByRole('status').getByText(`Provisioned ${n.phone_number} (London desk).`).waitFor()
    const row = page.getByRole('table', { name: 'Phone numbers' }).getByRole('row').filter({ hasText: n.phone_number })
    await row.waitFor()
    const text = (await row.textContent()) ?? ''
    assert.match(text, /London desk/)
    assert.match(text, new RegExp(`Bot ${bot.id}`))
    assert.match(text, /Thanks for calling the London desk\./)
    await checkA11y(page, 'voice numbers')
    await assertFitsPhone(page, 'voice numbers')
    await screenshot(page, 'voice-numbers')

    // After a reload the list comes from the API, not from the page's memory.
    await page.reload()
    await page.getByRole('table', { name: 'Phone numbers' }).getByRole('row').filter({ hasText: n.phone_number }).waitFor()
    d.clean(page)
  })

  it('shows the API’s problem for a country the carrier does not serve, and provisions nothing', async () => {
    const page = await d.open()
    await d.signIn(page, '/dashboard/voice/numbers')
    const before = (await api('GET', '/v2/voice/numbers')).data.length
    await page.getByRole('button', { name: 'Provision number' }).click()
    const dialog = page.getByRole('dialog', { name: 'Provision a number' })
    await dialog.getByLabel('Country').fill('FR')
    await dialog.getByRole('button', { name: 'Provision number' }).click()
    const problem = dialog.getByRole('alert')
    await problem.getByText(/Error 422/).waitFor()
    assert.match((await problem.textContent()) ?? '', /country_not_supported[\s\S]*request_id req_/)
    assert.equal((await api('GET', '/v2/voice/numbers')).data.length, before)
    await checkA11y(page, 'provision number problem')
    d.clean(page)
  })

  it('follows a call on its page while it is placed (polled, no reload)', async () => {
    const page = await d.open()
    await d.signIn(page, '/dashboard/voice/numbers')
    const from = (await api('GET', '/v2/voice/numbers')).data[0]
    // A real-looking destination: 1 s of dialling and 4 s of ringing before the answer.
    const call = await api('POST', '/v2/voice/calls', { from_number_id: from.id, to: '+14155550123', greeting: 'Hello from the test.' })
    let gets = 0
    page.on('request', (r) => r.method() === 'GET' && r.url().endsWith(`/voice/calls/${call.id}`) && gets++)
    await page.goto(`/dashboard/voice/calls/${call.id}`)
    const status = page.locator('dt:text-is("Status") + dd .badge')
    await status.waitFor()
    assert.match((await status.textContent()) ?? '', /^(queued|ringing)$/, 'the call is not answered yet when the page opens')
    await page.waitForFunction(() => !/^(queued|ringing)$/.test(document.querySelector('dt + dd .badge')?.textContent ?? ''), null, { timeout: 20_000 })
    const shown = (await status.textContent())!.replace(/ /g, '_')
    const now = JSON.parse((await d.h.request({ method: 'GET', url: `/v2/voice/calls/${call.id}` })).body)
    assert.ok(
      now.history.some((h: any) => h.status === shown),
      `the page shows ${shown}, a state the call went through`,
    )
    assert.ok(gets >= 2, `the page asked again (${gets} requests)`)
    d.clean(page)
  })

  it('edits a number on its page: renamed and answered by a bot with its own greeting, then by the greeting alone', async () => {
    const n = await api('POST', '/v2/voice/numbers', { country: 'US', friendly_name: 'Front desk', greeting: 'Hello from the front desk.' })
    const page = await d.open()
    await d.signIn(page, '/dashboard/voice/numbers')
    await page.getByRole('table', { name: 'Phone numbers' }).getByRole('link', { name: n.phone_number }).click()
    await page.waitForURL((u) => u.pathname === `/dashboard/voice/numbers/${n.id}`)
    await page.getByRole('heading', { name: n.phone_number, level: 1 }).waitFor()
    await page.getByRole('heading', { name: 'Front desk' }).waitFor()
    await page.getByText('No calls from or to this number yet').waitFor()
    await checkA11y(page, 'voice number')
    await assertFitsPhone(page, 'voice number')

    await page.getByRole('button', { name: 'Edit' }).click()
    const dialog = page.getByRole('dialog', { name: 'Edit the number' })
    await dialog.waitFor()
    // The form starts from the number as it is.
    assert.equal(await dialog.getByLabel('Friendly name').inputValue(), 'Front desk')
    assert.equal(await dialog.getByLabel('Answered by').inputValue(), 'greeting')
    assert.equal(await dialog.getByLabel('Greeting').inputValue(), 'Hello from the front desk.')
    await dialog.getByLabel('Friendly name').fill('Sales line')
    await dialog.getByLabel('Answered by').selectOption('bot')
    const botSelect = dialog.getByLabel('Bot', { exact: true })
    await botSelect.locator(`option[value="${bot.id}"]`).waitFor({ state: 'attached' })
    await botSelect.selectOption(bot.id)
    await dialog.getByLabel('Greeting').fill('')
    await checkA11y(page, 'edit number dialog')
    await dialog.getByRole('button', { name: 'Save changes' }).click()
    await dialog.waitFor({ state: 'hidden' })
    await page.getByRole('status').getByText('Number saved.').waitFor()

    let now = await api('GET', `/v2/voice/numbers/${n.id}`)
    assert.equal(now.friendly_name, 'Sales line')
    assert.deepEqual(now.answer, { type: 'bot', id: bot.id, greeting: null }, 'an empty greeting is the bot’s own')
    await page.getByRole('heading', { name: 'Sales line' }).waitFor()
    assert.equal((await page.locator('dt:text-is("Answered by") + dd').textContent())?.trim(), `Bot ${bot.id}`)
    assert.equal((await page.locator('dt:text-is("Greeting") + dd').textContent())?.trim(), "the answerer's own")
    await screenshot(page, 'voice-number')

    // Back to the greeting alone: the bot is dropped (bot_id: null), the greeting typed kept.
    await page.getByRole('button', { name: 'Edit' }).click()
    assert.equal(await dialog.getByLabel('Answered by').inputValue(), 'bot')
    assert.equal(await dialog.getByLabel('Bot', { exact: true }).inputValue(), bot.id)
    await dialog.getByLabel('Answered by').selectOption('greeting')
    await dialog.getByLabel('Greeting').fill('Sales is closed today.')
    await dialog.getByRole('button', { name: 'Save changes' }).click()
    await dialog.waitFor({ state: 'hidden' })
    now = await api('GET', `/v2/voice/numbers/${n.id}`)
    assert.deepEqual(now.answer, { type: 'greeting', id: null, greeting: 'Sales is closed today.' })
    assert.equal(now.friendly_name, 'Sales line')

    await page.getByRole('link', { name: '← All numbers' }).click()
    const row = page.getByRole('table', { name: 'Phone numbers' }).getByRole('row').filter({ hasText: n.phone_number })
    await row.waitFor()
    assert.match((await row.textContent()) ?? '', /Sales line.*Greeting.*Sales is closed today\./)
    d.clean(page)
  })

  it('refuses to release a number while a call from it is in progress: the API’s 409 in the dialog, the number kept', async () => {
    const busy = await api('POST', '/v2/voice/numbers', { country: 'US', friendly_name: 'Busy line' })
    // A scripted caller keeps the call going for half a minute (ringing, then the lines said in turn).
    const script = ['Hello, who is this?', 'I see, and what is this call about?', 'Could you call me back tomorrow morning?', 'Thanks, goodbye.']
    const call = await api('POST', '/v2/voice/calls', { from_number_id: busy.id, to: '+15005550006', script })
    const page = await d.open()
    await d.signIn(page, `/dashboard/voice/numbers/${busy.id}`)
    // Its calls are listed on its page, each linking to the call.
    const calls = page.getByRole('table', { name: 'Calls from and to this number' })
    assert.equal(await calls.getByRole('link', { name: /to \+15005550006$/ }).getAttribute('href'), `/dashboard/voice/calls/${call.id}`)

    await page.getByRole('button', { name: 'Release number' }).click()
    const dialog = page.getByRole('dialog', { name: 'Release this number?' })
    const text = (await dialog.textContent()) ?? ''
    assert.match(text, /given back to the carrier/)
    assert.match(text, /cannot be recovered/)
    assert.match(text, /past calls are kept/)
    await checkA11y(page, 'release number dialog')
    await dialog.getByRole('button', { name: 'Release number' }).click()
    const problem = dialog.getByRole('alert')
    await problem.getByText(/Error 409/).waitFor()
    assert.match((await problem.textContent()) ?? '', /still queued, ringing or in progress[\s\S]*number_in_use[\s\S]*request_id req_/)
    assert.match((await api('GET', `/v2/voice/calls/${call.id}`)).status, /^(queued|ringing|in_progress)$/)
    assert.equal((await api('GET', `/v2/voice/numbers/${busy.id}`)).id, busy.id)
    await checkA11y(page, 'release number refused')
    await dialog.getByRole('button', { name: 'Cancel' }).click()
    await dialog.waitFor({ state: 'hidden' })
    d.clean(page)
  })

  it('releases a number only after confirming: gone from the list, and 404 through the API', async () => {
    const spare = await api('POST', '/v2/voice/numbers', { country: 'CA', friendly_name: 'Spare line' })
    const page = await d.open()
    await d.signIn(page, '/dashboard/voice/numbers')
    const table = page.getByRole('table', { name: 'Phone numbers' })
    await table.getByRole('link', { name: spare.phone_number }).click()
    await page.getByRole('heading', { name: 'Spare line' }).waitFor()

    // Cancel keeps it.
    await page.getByRole('button', { name: 'Release number' }).click()
    const dialog = page.getByRole('dialog', { name: 'Release this number?' })
    await dialog.getByRole('button', { name: 'Cancel' }).click()
    await dialog.waitFor({ state: 'hidden' })
    assert.equal((await api('GET', `/v2/voice/numbers/${spare.id}`)).id, spare.id)

    await page.getByRole('button', { name: 'Release number' }).click()
    await dialog.getByRole('button', { name: 'Release number' }).click()
    await page.waitForURL((u) => u.pathname === '/dashboard/voice/numbers')
    await page.getByRole('status').getByText(`Released ${spare.phone_number}`).waitFor()
    await table.getByRole('row').first().waitFor()
    assert.equal(await table.getByRole('row').filter({ hasText: spare.phone_number }).count(), 0)
    assert.equal((await d.h.request({ method: 'GET', url: `/v2/voice/numbers/${spare.id}` })).statusCode, 404)
    assert.ok(!(await api('GET', '/v2/voice/numbers?limit=100')).data.some((x: any) => x.id === spare.id))
    await checkA11y(page, 'voice numbers after a release')
    d.clean(page)
  })
})
