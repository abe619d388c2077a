import assert from 'node:assert/strict'
import { readFile } from 'node:fs/promises'
import { after, before, describe, it } from 'node:test'
import JSZip from 'jszip'
import { assertFitsPhone, checkA11y, screenshot, skip, startDashboard, type Dashboard } from './harness.js'

const SUBJECT = 'dana.subject@example.com'

describe('dashboard compliance in Chromium: DSAR export downloaded, audit log, retention dry run', { skip }, () => {
  let d: Dashboard
  let leadId: string
  before(async () => {
    d = await startDashboard()
    const res = await d.h.request({ method: 'POST', url: '/v2/leads', payload: { email: SUBJECT, name: 'Dana Subject', company: 'Subject Co' } })
    assert.equal(res.statusCode, 201, res.body)
    leadId = JSON.parse(res.body).id
  })
  after(() => d?.close())

  it('creates an access request, exports it and downloads the ZIP with the subject’s data; the audit log shows the member', async () => {
    const page = await d.open()
    await d.signIn(page, '/dashboard/compliance/dsar')
    await page.getByRole('heading', { name: 'Data-subject requests' }).waitFor()
    await page.getByText('No requests').waitFor()
    await checkA11y(page, 'compliance dsar list (empty)')
    await page.getByLabel('Request type').selectOption('access')
    await page.getByLabel('Subject email').fill(SUBJECT)
    await page.getByLabel('Notes').fill('Asked by email on Monday')
    await page.getByRole('button', { name: 'Create request' }).click()
    await page.waitForURL(/\/dashboard\/compliance\/dsar\/dsar_/)
    const dsarId = new URL(page.url()).pathname.split('/').pop()!
    await page.getByText('Request created.').waitFor()
    // The request is processed by a job; the page follows it until it completes.
    await page.getByTestId('dsar-status').getByText('completed').waitFor()
    await page.getByRole('table', { name: 'Progress by module' }).getByRole('row').filter({ hasText: 'leads' }).getByText('done').waitFor()

    await page.getByRole('button', { name: 'Export data' }).click()
    const downloadButton = page.getByRole('button', { name: 'Download export' })
    await downloadButton.waitFor()
    await page.getByText('The export is ready.').waitFor()
    await checkA11y(page, 'compliance dsar detail')
    await screenshot(page, 'compliance-dsar')
    const downloading = page.waitForEvent('download')
    await downloadButton.click()
    const download = await downloading
    assert.equal(download.suggestedFilename(), `${dsarId}.zip`)
    const zip = await JSZip.loadAsync(await readFile((await download.path())!))
    const leads = await zip.file('leads.json')!.async('string')
    assert.ok(leads.includes(SUBJECT) && leads.includes(leadId), 'the export holds the subject’s lead')
    assert.match(await zip.file('summary.txt')!.async('string'), /dana\.subject@example\.com/)
    await page.getByText(`Saved ${dsarId}.zip.`).waitFor()

    // The list shows it, completed, and fits a phone.
    await page.getByRole('link', { name: '← All requests' }).click()
    const row = page.getByRole('table', { name: 'Data-subject requests' }).getByRole('row').filter({ hasText: SUBJECT })
    await row.getByText('completed').waitFor()
    await checkA11y(page, 'compliance dsar list')
    await assertFitsPhone(page, 'compliance dsar list')

    // The audit log: the creation by the member who used the dashboard.
    await page.getByRole('navigation', { name: 'Compliance' }).getByRole('link', { name: 'Audit log' }).click()
    await page.getByRole('heading', { name: 'Audit log' }).waitFor()
    const table = page.getByRole('table', { name: 'Audit log entries' })
    await table.getByRole('row').nth(1).waitFor()
    await page.getByLabel('Action').fill('createDsarRequest')
    await page.getByLabel('Actor type').selectOption('member')
    await page.getByRole('button', { name: 'Apply filters' }).click()
    const entry = table.getByRole('row').filter({ hasText: 'createDsarRequest' })
    await entry.waitFor()
    await page.waitForFunction(() => document.querySelectorAll('table tbody tr').length === 1)
    assert.match((await entry.textContent()) ?? '', /member/)
    assert.match((await entry.textContent()) ?? '', new RegExp(dsarId))
    await checkA11y(page, 'compliance audit log')
    await assertFitsPhone(page, 'compliance audit log')
    await screenshot(page, 'compliance-audit-log')
    await entry.getByRole('button', { name: /^Details of createDsarRequest/ }).click()
    const dialog = page.getByRole('dialog', { name: 'Audit entry' })
    await dialog.waitFor()
    const facts = (await dialog.getByTestId('audit-entry').textContent()) ?? ''
    assert.match(facts, /dsar\.created/)
    assert.match(facts, /subject/)
    assert.doesNotMatch(facts, /dana\.subject/, 'fields are names, never values')
    await checkA11y(page, 'audit entry dialog')
    await page.keyboard.press('Escape')
    await dialog.waitFor({ state: 'hidden' })

    // A filter that matches nothing says so.
    await page.getByLabel('Target id').fill('lead_nothing')
    await page.getByRole('button', { name: 'Apply filters' }).click()
    await page.getByText('No entries').waitFor()
    d.clean(page)
  })

  it('previews what a retention policy would delete (dry run, nothing saved), then saves it; a value below the minimum is refused', async () => {
    const page = await d.open()
    await d.signIn(page, '/dashboard/compliance/retention')
    await page.getByRole('heading', { name: 'Retention' }).waitFor()
    const messages = page.getByLabel('messages (days)')
    await messages.waitFor()
    assert.equal(await messages.inputValue(), '', 'kept forever by default')
    await messages.fill('30')
    await page.getByLabel('webhook deliveries (days)').fill('7')
    await page.getByRole('button', { name: 'Preview deletions' }).click()
    const preview = page.getByRole('table', { name: 'Records each class would delete now' })
    await preview.waitFor()
    await page.getByText('Dry run: nothing was saved or deleted.').waitFor()
    const row = preview.getByRole('row').filter({ hasText: 'webhook deliveries' })
    assert.match((await row.textContent()) ?? '', /7 days/)
    assert.match((await row.getByTestId('dry-run-count').textContent()) ?? '', /^\d+$/)
    assert.ok((await preview.getByTestId('dry-run-count').count()) >= 7, 'a count per class')
    let stored = JSON.parse((await d.h.request({ method: 'GET', url: '/v2/compliance/retention' })).body)
    assert.equal(stored.policies.messages, 'keep', 'the dry run saved nothing')
    await checkA11y(page, 'compliance retention')
    await assertFitsPhone(page, 'compliance retention')
    await screenshot(page, 'compliance-retention')

    await page.getByRole('button', { name: 'Save policies' }).click()
    await page.getByText('Retention policies saved.').waitFor()
    stored = JSON.parse((await d.h.request({ method: 'GET', url: '/v2/compliance/retention' })).body)
    assert.equal(stored.policies.messages, 30)
    assert.equal(stored.policies.webhook_deliveries, 7)

    await page.getByLabel('audit log (days)').fill('10')
    await page.getByRole('button', { name: 'Save policies' }).click()
    const problem = page.getByRole('alert')
    await problem
      .getByText(/at least 365 days/)
      .first()
      .waitFor()
    assert.match((await problem.textContent()) ?? '', /\/body\/policies\/audit_log[\s\S]*request_id req_/)
    stored = JSON.parse((await d.h.request({ method: 'GET', url: '/v2/compliance/retention' })).body)
    assert.equal(stored.policies.audit_log, 'keep')
    await checkA11y(page, 'compliance retention with a problem')
    d.clean(page)
  })
})
