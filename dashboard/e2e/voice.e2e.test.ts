import assert from 'node:assert/strict'
import { after, before, describe, it } from 'node:test'
import { assertFitsPhone, checkA11y, screenshot, skip, startDashboard, type Dashboard } from './harness.js'

const FINAL = new Set(['completed', 'busy', 'no_answer', 'failed', 'canceled'])

describe('dashboard voice in Chromium: calls, a recording played from a blob URL, the timed transcript', { skip }, () => {
  let d: Dashboard
  let answered: any
  let busy: any
  // A call on the simulated carrier (answered at once: VOICE_SIM_SETUP_SCALE=0), spoken by espeak-ng into a WAV.
  const place = async (body: Record<string, unknown>) => {
    const res = await d.h.request({ method: 'POST', url: '/v2/voice/calls', payload: body })
    assert.equal(res.statusCode, 201, res.body)
    return JSON.parse(res.body)
  }
  const settle = async (id: string) => {
    for (let i = 0; i < 240; i++) {
      const call = JSON.parse((await d.h.request({ method: 'GET', url: `/v2/voice/calls/${id}` })).body)
      const media = call.recording.status !== 'pending' && call.recording.status !== 'processing' && call.transcript.status !== 'pending' && call.transcript.status !== 'processing'
      if (FINAL.has(call.status) && media) return call
      await new Promise((r) => setTimeout(r, 250))
    }
    throw new Error(`call ${id} did not settle`)
  }

  before(async () => {
    d = await startDashboard({ env: { VOICE_SIM_SETUP_SCALE: '0' } })
    const num = await d.h.request({ method: 'POST', url: '/v2/voice/numbers', payload: { country: 'US', friendly_name: 'Support line', greeting: 'Hello, this is Acme calling about your delivery.' } })
    assert.equal(num.statusCode, 201, num.body)
    const numberId = JSON.parse(num.body).id
    const a = await place({ from_number_id: numberId, to: '+14155550123', record: true, script: ['Hi, when will my parcel arrive?', 'Thank you, goodbye.'] })
    const b = await place({ from_number_id: numberId, to: '+15005550007' })
    answered = await settle(a.id)
    busy = await settle(b.id)
    assert.equal(answered.status, 'completed')
    assert.equal(answered.recording.status, 'ready', 'espeak-ng rendered the recording')
    assert.equal(busy.status, 'busy')
  })
  after(() => d?.close())

  it('lists the calls with direction, numbers, status and duration, filters them, and fits a phone', async () => {
    const page = await d.open()
    await d.signIn(page, '/dashboard/voice/calls')
    await page.getByRole('heading', { name: 'Calls' }).waitFor()
    const table = page.getByRole('table', { name: 'Calls' })
    await table.getByRole('row').nth(2).waitFor()
    const answeredRow = table.getByRole('row').filter({ hasText: '+14155550123' })
    await answeredRow.getByText('completed').waitFor()
    assert.match((await answeredRow.textContent()) ?? '', /Outbound/)
    assert.match((await answeredRow.textContent()) ?? '', /\d+:\d\d/)
    await table.getByRole('row').filter({ hasText: '+15005550007' }).getByText('busy').waitFor()
    await checkA11y(page, 'voice calls')
    await assertFitsPhone(page, 'voice calls')
    await screenshot(page, 'voice-calls')

    await page.getByLabel('Status').selectOption('busy')
    await table.getByRole('row').filter({ hasText: '+14155550123' }).waitFor({ state: 'detached' })
    assert.equal(await table.getByRole('row').count(), 2, 'the header and the busy call')

    await page.getByRole('link', { name: 'Numbers' }).click()
    await page.getByRole('heading', { name: 'Phone numbers' }).waitFor()
    await page.getByRole('cell', { name: 'Support line' }).waitFor()
    await checkA11y(page, 'voice numbers')
    await assertFitsPhone(page, 'voice numbers')
    d.clean(page)
  })

  it('plays the recording from a blob: URL, and a transcript segment seeks the audio and is highlighted', async () => {
    const page = await d.open()
    await d.signIn(page, '/dashboard/voice/calls')
    const recordingCall = page.waitForResponse((r) => r.url().includes(`/voice/calls/${answered.id}/recording`) && r.status() === 200)
    await page.getByRole('link', { name: /to \+14155550123/ }).click()
    await page.getByRole('heading', { name: 'Call', exact: true }).waitFor()
    const res = await recordingCall
    assert.equal(res.request().headers()['authorization']?.startsWith('Bearer '), true, 'the WAV is fetched with the member token')
    assert.match(res.headers()['content-type'] ?? '', /audio\/wav/)

    const audio = page.getByLabel('Call recording')
    await audio.waitFor()
    assert.match((await audio.getAttribute('src')) ?? '', /^blob:/)
    await page.waitForFunction(() => {
      const a = document.querySelector('audio')
      return !!a && a.readyState >= 1 && a.duration > 0
    })
    const seconds = await audio.evaluate((a: HTMLAudioElement) => a.duration)
    assert.ok(Math.abs(seconds - answered.duration_seconds) <= 1.5, `the recording lasts ${seconds}s, the call ${answered.duration_seconds}s`)

    // Play (muted: headless Chromium has no audio device to wait on), and time moves.
    await audio.evaluate((a: HTMLAudioElement) => {
      a.muted = true
      return a.play()
    })
    await page.waitForFunction(() => (document.querySelector('audio')?.currentTime ?? 0) > 0.2)
    await audio.evaluate((a: HTMLAudioElement) => a.pause())

    const segments = page.getByTestId('transcript-segment')
    await segments.filter({ hasText: 'when will my parcel arrive' }).waitFor()
    assert.ok((await segments.count()) >= 3, 'the greeting and the two caller lines')
    const transcript = JSON.parse((await d.h.request({ method: 'GET', url: `/v2/voice/calls/${answered.id}/transcript` })).body)
    const target = transcript.segments.find((s: any) => s.text.includes('Thank you, goodbye'))
    assert.equal(target.speaker, 'caller')
    const row = segments.filter({ hasText: 'Thank you, goodbye' })
    assert.match((await row.textContent()) ?? '', /Caller/)
    await row.getByRole('button', { name: /^Play from/ }).click()
    await page.waitForFunction((ms) => {
      const a = document.querySelector('audio')!
      return a.currentTime * 1000 >= ms - 50
    }, target.start_ms)
    await audio.evaluate((a: HTMLAudioElement) => a.pause())
    await page.locator('[data-testid="transcript-segment"][aria-current="true"]').filter({ hasText: 'Thank you, goodbye' }).waitFor()
    await checkA11y(page, 'voice call')
    await assertFitsPhone(page, 'voice call')
    await screenshot(page, 'voice-call')
    d.clean(page)
  })

  it('says why an unanswered call has no recording or transcript', async () => {
    const page = await d.open()
    await d.signIn(page, `/dashboard/voice/calls/${busy.id}`)
    await page.getByText('This call was not recorded.').waitFor()
    await page.getByText(/No transcript/).waitFor()
    await checkA11y(page, 'unanswered call')
    await page.goto('/dashboard/voice/calls/call_00000000000000000000000000')
    await page
      .getByRole('alert')
      .getByText(/Error 404/)
      .waitFor()
    assert.match((await page.getByRole('alert').textContent()) ?? '', /request_id req_/)
    d.clean(page)
  })
})
