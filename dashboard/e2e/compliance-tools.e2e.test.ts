import assert from 'node:assert/strict'
import { createHash } from 'node:crypto'
import { readFile } from 'node:fs/promises'
import { after, before, describe, it } from 'node:test'
import { assertFitsPhone, checkA11y, screenshot, skip, startDashboard, type Dashboard } from './harness.js'

const TEXT = 'Mail ada@example.com or call +44 20 7946 0123, card 4242 4242 4242 4242, from 192.168.10.4.'

describe('dashboard compliance tools in Chromium: PII redaction (preview and apply), evidence reports (listed, downloaded, generated)', { skip }, () => {
  let d: Dashboard
  const api = async (method: 'GET' | 'POST', url: string, payload?: Record<string, unknown>) => {
    const res = await d.h.request({ method, url, payload })
    assert.ok(res.statusCode < 300, `${method} ${url}: ${res.statusCode} ${res.body}`)
    return JSON.parse(res.body)
  }
  before(async () => {
    d = await startDashboard()
  })
  after(() => d?.close())

  it('previews a text’s redaction with the entities the API finds, in mask and in hash mode with one type', async () => {
    const page = await d.open()
    await d.signIn(page, '/dashboard/compliance/pii')
    await page.getByRole('heading', { name: 'PII redaction' }).waitFor()
    await checkA11y(page, 'pii redaction (empty)')
    await page.getByLabel('Text to check').fill(TEXT)
    await page.getByRole('button', { name: 'Preview redaction' }).click()
    const expected = (await api('POST', '/v2/compliance/pii-redaction', { text: TEXT })).items[0]
    assert.ok(expected.entities.length >= 4, 'email, phone, card and IP')
    const redacted = page.getByTestId('pii-redacted')
    await redacted.waitFor()
    assert.equal(await redacted.textContent(), expected.redacted)
    assert.doesNotMatch(expected.redacted, /ada@example\.com/)
    await page.getByText(`Preview (mask): ${expected.entities.length} entities found; nothing was changed.`).waitFor()
    const table = page.getByRole('table', { name: 'Entities found in the text' })
    assert.equal(await table.locator('tbody tr').count(), expected.entities.length)
    for (const e of expected.entities) {
      const row = table.locator('tbody tr').filter({ hasText: `${e.start}–${e.end}` })
      const text = (await row.textContent()) ?? ''
      assert.ok(text.includes(e.type) && text.includes(e.replacement) && text.includes(TEXT.slice(e.start, e.end)), `row of ${e.type}: ${text}`)
      assert.ok(text.includes(`${e.redacted_start}–${e.redacted_end}`))
    }
    assert.equal(await redacted.locator('mark').count(), expected.entities.length)
    await checkA11y(page, 'pii redaction preview')
    await assertFitsPhone(page, 'pii redaction preview')
    await screenshot(page, 'compliance-pii')

    await page.getByLabel('Mode').selectOption('hash')
    await page.getByRole('checkbox', { name: 'Email' }).check()
    await page.getByRole('button', { name: 'Preview redaction' }).click()
    const hashed = (await api('POST', '/v2/compliance/pii-redaction', { text: TEXT, mode: 'hash', types: ['email'] })).items[0]
    await page.getByText('Preview (hash): 1 entity found; nothing was changed.').waitFor()
    assert.equal(await redacted.textContent(), hashed.redacted)
    assert.match(hashed.redacted, /\[EMAIL:[0-9a-f]{12}\]/)
    assert.match(hashed.redacted, /\+44 20 7946 0123/, 'only emails were asked for')
    d.clean(page)
  })

  it('applies a redaction to a conversation’s stored messages only after confirming; an unknown message is the API’s 422 invalid_reference', async () => {
    const conv = await api('POST', '/v2/inbox/conversations', { contact: { name: 'Ada' }, message: { content: 'Please write to ada@example.com about it.' } })
    await api('POST', `/v2/inbox/conversations/${conv.id}/messages`, { content: 'We will, Ada. Call +44 20 7946 0123 meanwhile.' })
    const contents = async () => (await api('GET', `/v2/inbox/conversations/${conv.id}/messages`)).data.map((m: any) => m.content).join('\n')
    const page = await d.open()
    await d.signIn(page, '/dashboard/compliance/pii')
    await page.getByLabel('Source').selectOption('conversation_id')
    await page.getByLabel('Conversation id').fill(conv.id)

    // Cancel leaves the messages as they were.
    await page.getByRole('button', { name: 'Apply to stored messages…' }).click()
    const dialog = page.getByRole('dialog', { name: 'Apply the redaction?' })
    await dialog.getByText(conv.id).waitFor()
    await checkA11y(page, 'apply redaction dialog')
    await dialog.getByRole('button', { name: 'Cancel' }).click()
    await dialog.waitFor({ state: 'hidden' })
    assert.match(await contents(), /ada@example\.com/)

    await page.getByRole('button', { name: 'Apply to stored messages…' }).click()
    await dialog.getByRole('button', { name: 'Apply redaction' }).click()
    await page.getByText(/^Applied: 2 entities redacted in 2 stored messages\.$/).waitFor()
    const now = await contents()
    assert.doesNotMatch(now, /ada@example\.com|7946 0123/)
    assert.match(now, /write to \[EMAIL\] about/)
    assert.match(now, /Call \[PHONE\] meanwhile/)
    assert.equal(await page.getByRole('region', { name: /^Redaction of message msg_/ }).count(), 2)
    await checkA11y(page, 'pii redaction applied')

    await page.getByLabel('Source').selectOption('message_id')
    await page.getByLabel('Message id').fill('msg_00000000000000000000000000')
    await page.getByRole('button', { name: 'Preview redaction' }).click()
    const problem = page.getByRole('alert')
    await problem.getByText(/Error 422/).waitFor()
    assert.match((await problem.textContent()) ?? '', /request_id req_/)
    d.clean(page)
  })

  it('lists the evidence reports as the API does, downloads one as JSON (checksum verified) and as PDF with the member token', async () => {
    const page = await d.open()
    await d.signIn(page, '/dashboard/compliance/evidence')
    await page.getByRole('heading', { name: 'Evidence' }).waitFor()
    const table = page.getByRole('table', { name: 'Evidence reports' })
    await table.locator('tbody tr').first().waitFor()
    const listed = (await api('GET', '/v2/compliance/evidence?limit=100')).data
    assert.equal(listed.length, 4, 'one daily report of each kind')
    assert.equal(await table.locator('tbody tr').count(), listed.length)
    const chain = listed.find((e: any) => e.kind === 'audit_chain')
    const row = table.locator('tbody tr').filter({ hasText: 'Audit chain' })
    const text = (await row.textContent()) ?? ''
    assert.ok(text.includes(chain.sha256.slice(0, 12)) && text.includes('schedule'), text)
    for (const [k, v] of Object.entries(chain.summary)) assert.ok(text.includes(`${k}: ${String(v)}`), `summary ${k}`)
    await checkA11y(page, 'compliance evidence')
    await assertFitsPhone(page, 'compliance evidence')
    await screenshot(page, 'compliance-evidence')

    const fetched = page.waitForResponse((r) => r.url().includes(`/compliance/evidence/${chain.id}/download?format=json`))
    let downloading = page.waitForEvent('download')
    await row.getByRole('button', { name: /as JSON$/ }).click()
    const res = await fetched
    assert.equal(res.status(), 200)
    assert.match(res.request().headers()['authorization'] ?? '', /^Bearer /)
    let download = await downloading
    const json = await readFile((await download.path())!)
    assert.equal(createHash('sha256').update(json).digest('hex'), chain.sha256)
    assert.equal(JSON.parse(json.toString('utf8')).kind, 'audit_chain')
    const name = download.suggestedFilename()
    assert.match(name, /^audit_chain-\d{4}-\d\d-\d\d\.json$/)
    await page.getByText(`Saved ${name}. Its SHA-256 matches the listing.`).waitFor()

    downloading = page.waitForEvent('download')
    await row.getByRole('button', { name: /as PDF$/ }).click()
    download = await downloading
    assert.match(download.suggestedFilename(), /^audit_chain-.*\.pdf$/)
    assert.equal((await readFile((await download.path())!)).subarray(0, 5).toString('latin1'), '%PDF-')
    await page.getByText(`Saved ${download.suggestedFilename()}.`).waitFor()

    await page.getByLabel('Kind').selectOption('retention')
    await table.locator('tbody tr').filter({ hasText: 'Audit chain' }).waitFor({ state: 'detached' })
    assert.equal(await table.locator('tbody tr').count(), 1)
    assert.match((await table.locator('tbody tr').textContent()) ?? '', /Retention/)
    d.clean(page)
  })

  it('generates a report of one kind over a chosen period: the API has it (trigger manual, that period), shown first with its downloads; a backwards period is the API’s 422 under the form', async () => {
    const dayOf = (daysAgo: number) => new Date(Date.now() - daysAgo * 86_400_000).toISOString().slice(0, 10)
    const [first, last] = [dayOf(10), dayOf(3)]
    const page = await d.open()
    await d.signIn(page, '/dashboard/compliance/evidence')
    const table = page.getByRole('table', { name: 'Evidence reports' })
    await table.locator('tbody tr').first().waitFor()
    const before = (await api('GET', '/v2/compliance/evidence?limit=100')).data.length

    await page.getByRole('button', { name: 'Generate report' }).click()
    const dialog = page.getByRole('dialog', { name: 'Generate an evidence report' })
    await dialog.getByLabel('Report kind').selectOption('access_review')
    // Backwards: the form keeps what was typed and shows the API's problem under it.
    await dialog.getByLabel('First day (optional)').fill(last)
    await dialog.getByLabel('Last day (optional)').fill(first)
    await dialog.getByRole('button', { name: 'Generate report' }).click()
    const problem = dialog.getByRole('alert')
    await problem.getByText(/Error 422/).waitFor()
    assert.match((await problem.textContent()) ?? '', /request_id req_/)
    assert.equal(await dialog.getByLabel('Report kind').inputValue(), 'access_review')
    assert.equal(await dialog.getByLabel('First day (optional)').inputValue(), last)
    await checkA11y(page, 'generate evidence problem')
    assert.equal((await api('GET', '/v2/compliance/evidence?limit=100')).data.length, before, 'nothing was made')

    await dialog.getByLabel('First day (optional)').fill(first)
    await dialog.getByLabel('Last day (optional)').fill(last)
    await dialog.getByRole('button', { name: 'Generate report' }).click()
    await dialog.waitFor({ state: 'hidden' })

    const listed = (await api('GET', '/v2/compliance/evidence?limit=100')).data
    assert.equal(listed.length, before + 1)
    const made = listed[0]
    assert.equal(made.kind, 'access_review')
    assert.equal(made.trigger, 'manual')
    assert.equal(Date.parse(made.period.from), Date.parse(`${first}T00:00:00Z`))
    assert.equal(Date.parse(made.period.to), Date.parse(`${last}T00:00:00Z`) + 86_400_000, 'the last day is included')

    await page.getByRole('status').getByText(`Generated the Access review report of ${first} – ${last}`).waitFor()
    const top = table.locator('tbody tr').first()
    const text = (await top.textContent()) ?? ''
    assert.ok(text.includes('Access review') && text.includes('manual') && text.includes(`${first} – ${last}`) && text.includes(made.sha256.slice(0, 12)), text)
    await checkA11y(page, 'compliance evidence generated')
    await screenshot(page, 'compliance-evidence-generated')

    const downloading = page.waitForEvent('download')
    await top.getByRole('button', { name: `Download Access review report of ${first} – ${last} as JSON` }).click()
    const json = await readFile((await (await downloading).path())!)
    assert.equal(createHash('sha256').update(json).digest('hex'), made.sha256)
    assert.equal(JSON.parse(json.toString('utf8')).kind, 'access_review')

    // After a reload the list comes from the API: the new report is still first.
    await page.reload()
    await table.locator('tbody tr').first().filter({ hasText: 'manual' }).waitFor()
    d.clean(page)
  })
})
