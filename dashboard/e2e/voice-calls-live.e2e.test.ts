import assert from 'node:assert/strict'
import { after, before, describe, it } from 'node:test'
import { checkA11y, OWNER_EMAIL, screenshot, skip, startDashboard, type Dashboard } from './harness.js'

describe('dashboard live calls in Chromium: hang up a ringing or answered call, transfer one in progress', { skip }, () => {
  let d: Dashboard
  let numberId: string
  const api = async (method: 'GET' | 'POST', url: string, payload?: Record<string, unknown>) => {
    const res = await d.h.request({ method, url, payload })
    assert.ok(res.statusCode < 300, `${method} ${url}: ${res.statusCode} ${res.body}`)
    return JSON.parse(res.body)
  }
  // A scripted caller keeps an answered call going for half a minute.
  const script = ['Hello, who is this?', 'I see, and what is this call about?', 'Could you call me back tomorrow morning, after nine?', 'Thanks, goodbye.']
  const place = (to: string) => api('POST', '/v2/voice/calls', { from_number_id: numberId, to, script })
  const until = async (id: string, ok: (c: any) => boolean) => {
    for (let i = 0; i < 120; i++) {
      const c = await api('GET', `/v2/voice/calls/${id}`)
      if (ok(c)) return c
      await new Promise((r) => setTimeout(r, 100))
    }
    throw new Error(`call ${id} did not get there`)
  }

  before(async () => {
    // Realistic dialling and ringing times: a call can be caught ringing, and an answered one lasts.
    d = await startDashboard({ env: { VOICE_SIM_SETUP_SCALE: '1' } })
    numberId = (await api('POST', '/v2/voice/numbers', { country: 'US', friendly_name: 'Sales line' })).id
  })
  after(() => d?.close())

  it('hangs up a call still ringing after confirming: canceled, ended by the API, no more actions', async () => {
    // +15005550008 rings for 30 s before giving up: it is ringing (or still dialling) all through this test.
    const call = await place('+15005550008')
    const page = await d.open()
    await d.signIn(page, `/dashboard/voice/calls/${call.id}`)
    await page.getByRole('heading', { name: 'Call', exact: true }).waitFor()
    assert.equal(await page.getByRole('button', { name: 'Transfer' }).count(), 0, 'only a call in progress can be transferred')

    // Cancel changes nothing.
    await page.getByRole('button', { name: 'Hang up' }).click()
    const dialog = page.getByRole('dialog', { name: 'Hang up this call?' })
    assert.match((await dialog.textContent()) ?? '', /stops ringing and ends as canceled/)
    await checkA11y(page, 'hang up dialog')
    await dialog.getByRole('button', { name: 'Cancel' }).click()
    await dialog.waitFor({ state: 'hidden' })
    assert.match((await api('GET', `/v2/voice/calls/${call.id}`)).status, /^(queued|ringing)$/)

    await page.getByRole('button', { name: 'Hang up' }).click()
    await dialog.getByRole('button', { name: 'Hang up' }).click()
    await dialog.waitFor({ state: 'hidden' })
    await page.getByRole('status').getByText('Call canceled.').waitFor()
    await page.getByText('ended by api').waitFor()
    assert.equal(await page.getByRole('button', { name: 'Hang up' }).count(), 0, 'an ended call offers no actions')
    const ended = await api('GET', `/v2/voice/calls/${call.id}`)
    assert.equal(ended.status, 'canceled')
    assert.equal(ended.end_reason, 'ended_by_api')
    assert.equal(ended.answered_at, null)
    d.clean(page)
  })

  it('transfers a call in progress to a member, warm with an announcement; the API has the transfer', async () => {
    const call = await place('+15005550006')
    await until(call.id, (c) => c.status === 'in_progress')
    const ws = await api('GET', '/v2/workspaces/current')
    const owner = (await api('GET', `/v2/workspaces/${ws.id}/members?limit=100`)).data.find((m: any) => m.email === OWNER_EMAIL)
    const page = await d.open()
    await d.signIn(page, `/dashboard/voice/calls/${call.id}`)
    await page.getByRole('button', { name: 'Transfer' }).click()
    const dialog = page.getByRole('dialog', { name: 'Transfer the call' })
    await dialog.getByLabel('A member').check()
    const member = dialog.getByLabel('Member', { exact: true })
    await member.locator(`option[value="${owner.id}"]`).waitFor({ state: 'attached' })
    await member.selectOption(owner.id)
    await dialog.getByLabel('Mode').selectOption('warm')
    await dialog.getByLabel('Announcement').fill('A customer asking for a call back tomorrow.')
    await checkA11y(page, 'transfer dialog')
    await screenshot(page, 'voice-call-transfer')
    await dialog.getByRole('button', { name: 'Transfer' }).click()
    await dialog.waitFor({ state: 'hidden' })
    await page.getByRole('status').getByText('Call transferred.').waitFor()
    await page.getByText('warm transfer').waitFor()
    const moved = await api('GET', `/v2/voice/calls/${call.id}`)
    assert.equal(moved.transfers.length, 1)
    assert.deepEqual(
      { to: moved.transfers[0].to, mode: moved.transfers[0].mode, announcement: moved.transfers[0].announcement },
      { to: { type: 'member', phone_number: null, member_id: owner.id }, mode: 'warm', announcement: 'A customer asking for a call back tomorrow.' },
    )
    d.clean(page)
  })

  it('a transfer the API refuses shows its problem in the dialog; hanging up an answered call completes it now', async () => {
    const call = await place('+15005550006')
    await until(call.id, (c) => c.status === 'in_progress')
    const page = await d.open()
    await d.signIn(page, `/dashboard/voice/calls/${call.id}`)
    await page.getByRole('button', { name: 'Transfer' }).click()
    const transfer = page.getByRole('dialog', { name: 'Transfer the call' })
    // A number the browser accepts as E.164 but no country uses: the API's 422 is shown, the call unchanged.
    await transfer.getByLabel('Phone number', { exact: true }).fill('+999123456789')
    await transfer.getByRole('button', { name: 'Transfer' }).click()
    await transfer
      .getByRole('alert')
      .getByText(/Error 422/)
      .waitFor()
    await transfer.getByRole('button', { name: 'Cancel' }).click()
    await transfer.waitFor({ state: 'hidden' })
    assert.equal((await api('GET', `/v2/voice/calls/${call.id}`)).transfers.length, 0)

    await page.getByRole('button', { name: 'Hang up' }).click()
    const dialog = page.getByRole('dialog', { name: 'Hang up this call?' })
    assert.match((await dialog.textContent()) ?? '', /ends now for both sides/)
    await dialog.getByRole('button', { name: 'Hang up' }).click()
    await page.getByRole('status').getByText('Call ended.').waitFor()
    const ended = await api('GET', `/v2/voice/calls/${call.id}`)
    assert.equal(ended.status, 'completed')
    assert.equal(ended.end_reason, 'ended_by_api')
    assert.ok(Date.parse(ended.ended_at) >= Date.parse(ended.answered_at))
    d.clean(page)
  })
})
