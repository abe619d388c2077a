import assert from 'node:assert/strict'
import { after, before, describe, it } from 'node:test'
import { get, ok, post } from './server.js'
import { checkA11y, skip, startDashboard, type Dashboard } from './harness.js'

// Issue 32, point 6: the guardrails, the business's own contact details among them, edited where the bot is.
describe('dashboard bot guardrails in Chromium', { skip }, () => {
  let d: Dashboard
  let bot: any
  before(async () => {
    d = await startDashboard()
    bot = await ok(post(d.h, '/bots', { name: 'Front desk', instructions: 'Answer questions about the hotel.' }), 201)
    // Live already: a guardrails change is then a draft change customers do not see until the next publish.
    await ok(post(d.h, `/bots/${bot.id}/publish`))
  })
  after(() => d?.close())

  it('edits topics, terms, masking with allowed contacts, languages and hand-off, saved to the draft', async () => {
    const page = await d.open()
    await d.signIn(page, `/dashboard/bots/${bot.id}`)
    const panel = page.getByRole('region', { name: 'Guardrails' })
    await panel.getByLabel('Blocked topics').waitFor()
    assert.equal(await panel.getByLabel('Phone number regions').inputValue(), 'US', 'the defaults are shown')
    assert.equal(await panel.getByLabel('E-mail addresses').isChecked(), true)

    await panel.getByLabel('Blocked topics').fill('Legal advice: lawsuit, attorney\nPolitics')
    await panel.getByLabel('Blocked terms').fill('cheaphotels.example\n\n')
    await panel.getByLabel('Prompt injection').selectOption('flag')
    await panel.getByLabel('Payment card numbers').uncheck()
    await panel.getByLabel('Phone number regions').fill('de, at')
    await panel.getByLabel('Your public contact details (never masked)').fill('+49 30 1234567\nfrontdesk@hotel-berlin.de\nhttps://hotel-berlin.de/contact')
    await panel.getByLabel('Allowed reply languages').fill('EN, de')
    await panel.getByLabel('Longest reply (characters)').fill('800')
    await panel.getByRole('button', { name: 'Save guardrails' }).click()
    await page.getByText('Guardrails saved to the draft.').waitFor()

    const g = await ok(get(d.h, `/bots/${bot.id}/guardrails`))
    assert.deepEqual(g.blocked_topics, [
      { name: 'Legal advice', keywords: ['lawsuit', 'attorney'] },
      { name: 'Politics', keywords: ['Politics'] },
    ])
    assert.deepEqual(g.blocked_terms, ['cheaphotels.example'])
    assert.equal(g.prompt_injection, 'flag')
    assert.deepEqual(g.pii_masking, {
      emails: true,
      phone_numbers: true,
      card_numbers: false,
      phone_regions: ['DE', 'AT'],
      allowed_contacts: ['+49 30 1234567', 'frontdesk@hotel-berlin.de', 'https://hotel-berlin.de/contact'],
    })
    assert.deepEqual(g.allowed_languages, ['en', 'de'])
    assert.equal(g.max_reply_length, 800)
    assert.equal((await ok(get(d.h, `/bots/${bot.id}`))).has_unpublished_changes, true, 'a draft change')

    // What the API refuses comes back as the problem, next to the form, and nothing is saved.
    await panel.getByLabel('Phone number regions').fill('Germany')
    await panel.getByRole('button', { name: 'Save guardrails' }).click()
    await panel.getByRole('alert').waitFor()
    assert.deepEqual((await ok(get(d.h, `/bots/${bot.id}/guardrails`))).pii_masking.phone_regions, ['DE', 'AT'])
    await checkA11y(page, 'bot guardrails')
    d.clean(page)
  })

  it('speaks German', async () => {
    const page = await d.open({ locale: 'de-DE' })
    await d.signIn(page, `/dashboard/bots/${bot.id}`)
    const panel = page.getByRole('region', { name: 'Leitplanken' })
    await panel.getByLabel('Ihre öffentlichen Kontaktdaten (nie unkenntlich)').waitFor()
    assert.equal(await panel.getByLabel('Ihre öffentlichen Kontaktdaten (nie unkenntlich)').inputValue(), '+49 30 1234567\nfrontdesk@hotel-berlin.de\nhttps://hotel-berlin.de/contact')
    await checkA11y(page, 'bot guardrails in German')
  })
})
