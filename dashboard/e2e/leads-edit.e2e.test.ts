import assert from 'node:assert/strict'
import { after, before, describe, it } from 'node:test'
import { assertFitsPhone, checkA11y, screenshot, skip, startDashboard, type Dashboard } from './harness.js'

describe('dashboard leads in Chromium: create, edit, qualify (BANT), delete', { skip }, () => {
  let d: Dashboard
  const request = (method: 'GET' | 'POST' | 'DELETE', url: string, payload?: object) => d.h.request({ method, url: `/v2${url}`, ...(payload ? { payload } : {}) })
  const api = async (method: 'GET' | 'POST', url: string, payload?: object) => {
    const res = await request(method, url, payload)
    assert.ok(res.statusCode < 300, `${method} ${url}: ${res.statusCode} ${res.body}`)
    return JSON.parse(res.body)
  }
  const byEmail = async (email: string) => (await api('GET', `/leads?email=${encodeURIComponent(email)}`)).data
  before(async () => {
    d = await startDashboard()
  })
  after(async () => {
    await d?.close()
  })

  it('creates a lead in a dialog; the API refuses a bad phone and a taken email, and links the lead that has it', async () => {
    const taken = await api('POST', '/leads', { name: 'Taken', email: 'taken@example.com' })
    const page = await d.open()
    await d.signIn(page, '/dashboard/leads')
    await page.getByRole('button', { name: 'New lead' }).click()
    const dialog = page.getByRole('dialog', { name: 'New lead' })
    await dialog.getByLabel('Name').fill('Linus Pauling')
    await dialog.getByLabel('Email').fill('taken@example.com')
    await dialog.getByLabel('Phone').fill('12')
    await dialog.getByLabel('Company').fill('Caltech')
    await dialog.getByLabel('Job title').fill('Head of Research')
    await dialog.getByLabel('Tags').fill('chemistry, nobel')
    await dialog.getByLabel('Properties (JSON)').fill('{"seats": 40')
    await checkA11y(page, 'new lead dialog')
    await dialog.getByRole('button', { name: 'Create lead' }).click()
    await dialog.getByRole('alert').getByText('Properties are not valid JSON').waitFor()
    await dialog.getByLabel('Properties (JSON)').fill('{"seats": 40, "plan": "pro"}')
    await dialog.getByRole('button', { name: 'Create lead' }).click()
    await dialog.getByRole('alert').locator('code', { hasText: '/body/phone' }).waitFor()
    await dialog.getByLabel('Phone').fill('+1 626 395 6811')
    await dialog.getByRole('button', { name: 'Create lead' }).click()
    await dialog.getByRole('alert').getByText('Error 409').waitFor()
    await dialog.getByRole('link', { name: 'Open the lead that has this email' }).waitFor()
    assert.equal(await dialog.getByRole('link', { name: 'Open the lead that has this email' }).getAttribute('href'), `/dashboard/leads/${taken.id}`)
    assert.equal((await byEmail('taken@example.com')).length, 1)

    await dialog.getByLabel('Email').fill('linus@caltech.example')
    await dialog.getByRole('button', { name: 'Create lead' }).click()
    await page.getByRole('heading', { name: 'Linus Pauling' }).waitFor()
    const [lead] = await byEmail('linus@caltech.example')
    assert.equal(lead.name, 'Linus Pauling')
    assert.equal(lead.phone, '+16263956811')
    assert.equal(lead.company, 'Caltech')
    assert.equal(lead.title, 'Head of Research')
    assert.deepEqual(lead.tags, ['chemistry', 'nobel'])
    assert.deepEqual(lead.properties, { seats: 40, plan: 'pro' })
    assert.equal(lead.source, 'api')
    assert.ok(page.url().endsWith(`/dashboard/leads/${lead.id}`))
    d.clean(page)
  })

  it('edits a lead in a dialog, and the API has the change', async () => {
    const lead = await api('POST', '/leads', { name: 'Barbara McClintock', email: 'barbara@cshl.example', company: 'Cornell' })
    const page = await d.open()
    await d.signIn(page, `/dashboard/leads/${lead.id}`)
    await page.getByRole('heading', { name: 'Barbara McClintock' }).waitFor()
    await page.getByRole('button', { name: 'Edit', exact: true }).click()
    const dialog = page.getByRole('dialog', { name: 'Edit Barbara McClintock' })
    assert.equal(await dialog.getByLabel('Company').inputValue(), 'Cornell')
    await dialog.getByLabel('Company').fill('Cold Spring Harbor')
    await dialog.getByLabel('Job title').fill('Director of Genetics')
    await dialog.getByLabel('Tags').fill('maize')
    await checkA11y(page, 'edit lead dialog')
    await dialog.getByRole('button', { name: 'Save lead' }).click()
    await dialog.waitFor({ state: 'hidden' })
    await page.getByRole('region', { name: 'Contact' }).getByText('Cold Spring Harbor', { exact: true }).waitFor()
    const after = await api('GET', `/leads/${lead.id}`)
    assert.equal(after.company, 'Cold Spring Harbor')
    assert.equal(after.title, 'Director of Genetics')
    assert.deepEqual(after.tags, ['maize'])
    assert.equal(after.email, 'barbara@cshl.example', 'fields left alone stay')
    // The score follows the edit: a decision maker's title now counts.
    await page
      .getByRole('region', { name: 'Score factors' })
      .getByRole('row', { name: /title is a decision maker/ })
      .waitFor()
    d.clean(page)
  })

  it('qualifies a lead (BANT) with answers and applies the recommended status; shows score and evidence', async () => {
    const lead = await api('POST', '/leads', { name: 'Rosalind Franklin', email: 'rosalind@kings.example', company: "King's College", title: 'CTO' })
    const page = await d.open()
    await d.signIn(page, `/dashboard/leads/${lead.id}`)
    const panel = page.getByRole('region', { name: 'Qualification (BANT)' })
    await panel.getByText('Not evaluated yet.').waitFor()
    await panel.getByLabel('Budget').fill('$20k this year')
    await panel.getByLabel('Need').fill('replace our helpdesk')
    await panel.getByLabel('Move the lead to the recommended status').check()
    await panel.getByRole('button', { name: 'Qualify' }).click()
    await panel.getByRole('status').filter({ hasText: 'Evaluated: 75/100, recommended qualified, applied.' }).waitFor()
    const criteria = panel.getByRole('list', { name: 'BANT criteria' })
    await criteria.getByRole('listitem').filter({ hasText: 'budget' }).getByText('“$20k this year”').waitFor()
    await criteria.getByRole('listitem').filter({ hasText: 'authority' }).getByText('met', { exact: true }).waitFor()
    await criteria.getByRole('listitem').filter({ hasText: 'timeline' }).getByText('not met').waitFor()
    await page
      .getByRole('region', { name: /^Status/ })
      .getByText('qualified')
      .first()
      .waitFor()
    await page
      .getByRole('list', { name: 'Activities, newest first' })
      .getByText(/qualif/i)
      .first()
      .waitFor()
    await checkA11y(page, 'lead qualified')
    await assertFitsPhone(page, 'lead qualified')
    await screenshot(page, 'lead-qualify')
    const after = await api('GET', `/leads/${lead.id}`)
    assert.equal(after.status, 'qualified')
    assert.equal(after.qualification.score, 75)
    assert.equal(after.qualification.recommended_status, 'qualified')
    assert.equal(after.qualification.applied, true)
    assert.deepEqual(
      after.qualification.criteria.map((c: { name: string; met: boolean }) => [c.name, c.met]),
      [
        ['budget', true],
        ['authority', true],
        ['need', true],
        ['timeline', false],
      ],
    )
    d.clean(page)
  })

  it('deletes a lead only after the confirmation, and the API no longer has it', async () => {
    const lead = await api('POST', '/leads', { name: 'Dorothy Hodgkin', email: 'dorothy@oxford.example' })
    const page = await d.open()
    await d.signIn(page, `/dashboard/leads/${lead.id}`)
    await page.getByRole('heading', { name: 'Dorothy Hodgkin' }).waitFor()
    await page.getByRole('button', { name: 'Delete', exact: true }).click()
    const dialog = page.getByRole('dialog', { name: 'Delete this lead?' })
    await checkA11y(page, 'delete lead dialog')
    await dialog.getByRole('button', { name: 'Cancel' }).click()
    await dialog.waitFor({ state: 'hidden' })
    assert.equal((await request('GET', `/leads/${lead.id}`)).statusCode, 200, 'cancel keeps it')

    await page.getByRole('button', { name: 'Delete', exact: true }).click()
    await dialog.getByRole('button', { name: 'Delete lead' }).click()
    await page.waitForURL((u) => u.pathname === '/dashboard/leads')
    await page.getByRole('heading', { name: 'Leads', exact: true }).waitFor()
    assert.equal((await request('GET', `/leads/${lead.id}`)).statusCode, 404)
    assert.equal(await page.getByRole('link', { name: 'Dorothy Hodgkin' }).count(), 0)
    d.clean(page)
  })
})
