import assert from 'node:assert/strict'
import { after, before, describe, it } from 'node:test'
import { assertFitsPhone, checkA11y, screenshot, skip, startDashboard, type Dashboard } from './harness.js'

describe('dashboard voice numbers in Chromium: provision a number answered by a bot', { skip }, () => {
  let d: Dashboard
  let bot: any
  const api = async (method: 'GET' | 'POST', url: string, payload?: Record<string, unknown>) => {
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
    assert.ok(now.history.some((h: any) => h.status === shown), `the page shows ${shown}, a state the call went through`)
    assert.ok(gets >= 2, `the page asked again (${gets} requests)`)
    d.clean(page)
  })
})
