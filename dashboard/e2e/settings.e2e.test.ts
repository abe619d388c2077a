import assert from 'node:assert/strict'
import { after, before, describe, it } from 'node:test'
import { memberWithPassword } from './server.js'
import { assertFitsPhone, checkA11y, OWNER_EMAIL, PASSWORD, screenshot, skip, startDashboard, type Dashboard } from './harness.js'

const INVITEE = 'new.person@example.com'

describe('dashboard settings in Chromium: workspace, members, integrations', { skip }, () => {
  let d: Dashboard
  const api = async (method: 'GET', url: string) => {
    const res = await d.h.request({ method, url: `/v2${url}` })
    assert.equal(res.statusCode, 200, res.body)
    return JSON.parse(res.body)
  }
  const members = async (): Promise<{ id: string; email: string; role: string; status: string }[]> => (await api('GET', `/workspaces/${d.h.a.workspaceId}/members?limit=100`)).data
  before(async () => {
    d = await startDashboard()
  })
  after(() => d?.close())

  it('shows the workspace id and mode, renames it and saves its settings; an unknown time zone shows the API’s problem', async () => {
    const page = await d.open()
    await d.signIn(page, '/dashboard/settings')
    await page.waitForURL(/\/dashboard\/settings\/workspace$/)
    await page.getByRole('heading', { name: 'Workspace', level: 1 }).waitFor()
    assert.equal(await page.getByTestId('workspace-id').textContent(), d.h.a.workspaceId)
    await page.getByRole('button', { name: 'Copy id' }).waitFor()
    assert.equal(await page.getByLabel('Name').inputValue(), 'Acme')
    await checkA11y(page, 'settings workspace')

    // A refused change: the API's 422 with its pointer, and nothing saved.
    await page.getByLabel('Time zone').fill('Mars/Olympus_Mons')
    await page.getByRole('button', { name: 'Save settings' }).click()
    const problem = page.getByRole('alert')
    await problem.getByText(/not an IANA time zone/).waitFor()
    assert.match((await problem.textContent()) ?? '', /Error 422.*\/body\/timezone/s)
    assert.equal((await api('GET', '/workspaces/current')).timezone, 'UTC')

    await page.getByLabel('Name').fill('Acme Renamed')
    await page.getByLabel('Time zone').fill('Europe/Berlin')
    await page.getByLabel('Lead auto-create score').fill('70')
    await page.getByLabel('Default region').fill('gb')
    await page.getByRole('button', { name: 'Add pair' }).click()
    await page.getByLabel('Metadata key 1').fill('region')
    await page.getByLabel('Metadata value 1').fill('eu-central')
    await page.getByRole('button', { name: 'Save settings' }).click()
    await page.getByText('Workspace settings saved.').waitFor()
    assert.equal(await page.getByRole('alert').count(), 0, 'the earlier problem is gone')
    const ws = await api('GET', '/workspaces/current')
    assert.equal(ws.name, 'Acme Renamed')
    assert.equal(ws.timezone, 'Europe/Berlin')
    assert.equal(ws.lead_auto_create_score, 70)
    assert.equal(ws.default_region, 'GB')
    assert.deepEqual(ws.metadata, { region: 'eu-central' })
    // The header's workspace switcher follows the rename without a reload.
    await page.waitForFunction(() => document.querySelector('#workspace-select option:checked')?.textContent === 'Acme Renamed')

    // Saving again with nothing changed sends nothing (the API refuses an empty PATCH).
    await page.getByRole('button', { name: 'Save settings' }).click()
    await page.getByText('Nothing changed.').waitFor()
    // Read back after a reload: the form shows what the API stores.
    await page.reload()
    await page.getByLabel('Name').waitFor()
    await page.waitForFunction(() => (document.querySelector('#meta-v-0') as HTMLInputElement | null)?.value === 'eu-central')
    assert.equal(await page.getByLabel('Name').inputValue(), 'Acme Renamed')
    assert.equal(await page.getByLabel('Default region').inputValue(), 'GB')
    await checkA11y(page, 'settings workspace (saved)')
    await assertFitsPhone(page, 'settings workspace')
    await screenshot(page, 'settings-workspace')
    d.clean(page)
  })

  it('invites a member, changes their role and removes them; demoting the last owner shows the API’s 409', async () => {
    const page = await d.open()
    await d.signIn(page, '/dashboard/settings/members')
    await page.getByRole('heading', { name: 'Members', level: 1 }).waitFor()
    const table = page.getByRole('table', { name: 'Workspace members' })
    const own = table.getByRole('row').filter({ hasText: OWNER_EMAIL })
    await own.getByText('you', { exact: true }).waitFor()
    assert.match((await own.textContent()) ?? '', /owner.*active/s)

    // Invite.
    await page.getByRole('button', { name: 'Invite member' }).click()
    const invite = page.getByRole('dialog', { name: 'Invite a member' })
    await invite.getByLabel('Email').fill(INVITEE)
    await invite.getByLabel('Name').fill('New Person')
    await invite.getByLabel('Role').selectOption('admin')
    await checkA11y(page, 'invite dialog')
    await invite.getByRole('button', { name: 'Send invitation' }).click()
    const made = page.getByRole('dialog', { name: 'Invitation created' })
    const link = (await made.getByTestId('invitation-url').textContent()) ?? ''
    let m = (await members()).find((x) => x.email === INVITEE)
    assert.ok(m, 'the API lists the invitee')
    assert.equal(m.role, 'admin')
    assert.equal(m.status, 'invited')
    assert.match(link, /^http/)
    await made.getByRole('button', { name: 'Done' }).click()
    const row = table.getByRole('row').filter({ hasText: INVITEE })
    assert.match((await row.textContent()) ?? '', /admin.*invited/s)
    await row.getByRole('button', { name: 'Copy invitation link' }).waitFor()
    await page.getByText(`Invited ${INVITEE} as admin.`).waitFor()

    // Inviting the same email again: the API's 409, shown in the dialog.
    await page.getByRole('button', { name: 'Invite member' }).click()
    const again = page.getByRole('dialog', { name: 'Invite a member' })
    await again.getByLabel('Email').fill(INVITEE)
    await again.getByRole('button', { name: 'Send invitation' }).click()
    await again
      .getByRole('alert')
      .getByText(/already a member/)
      .first()
      .waitFor()
    assert.match((await again.getByRole('alert').textContent()) ?? '', /Error 409/)
    await again.getByRole('button', { name: 'Cancel' }).click()
    await again.waitFor({ state: 'hidden' })

    // Change the role.
    await row.getByRole('button', { name: 'Change role of New Person' }).click()
    const roleDialog = page.getByRole('dialog', { name: 'Change role' })
    await roleDialog.getByLabel('Role').selectOption('member')
    await roleDialog.getByRole('button', { name: 'Save role' }).click()
    await page.getByText(`${INVITEE} is now member.`).waitFor()
    m = (await members()).find((x) => x.email === INVITEE)
    assert.equal(m?.role, 'member')
    await row.getByText('member', { exact: true }).waitFor()

    // Refused: the signed-in owner is the only owner, so the API will not demote them.
    await own.getByRole('button', { name: /^Change role of/ }).click()
    await roleDialog.getByText('This is you').waitFor()
    await roleDialog.getByLabel('Role').selectOption('admin')
    await roleDialog.getByRole('button', { name: 'Save role' }).click()
    const refused = roleDialog.getByRole('alert')
    await refused.getByText(/last owner/).waitFor()
    assert.match((await refused.textContent()) ?? '', /Error 409.*last_owner/s)
    await checkA11y(page, 'role dialog with a problem')
    assert.equal((await members()).find((x) => x.email === OWNER_EMAIL)?.role, 'owner')
    await page.keyboard.press('Escape')
    await roleDialog.waitFor({ state: 'hidden' })

    await checkA11y(page, 'settings members')
    await assertFitsPhone(page, 'settings members')
    await screenshot(page, 'settings-members')

    // Remove, after confirming; cancelling first removes nothing.
    await row.getByRole('button', { name: 'Remove New Person' }).click()
    const confirm = page.getByRole('dialog', { name: 'Remove member' })
    await confirm.getByText(INVITEE).waitFor()
    await checkA11y(page, 'remove dialog')
    await confirm.getByRole('button', { name: 'Cancel' }).click()
    assert.ok(
      (await members()).some((x) => x.email === INVITEE),
      'cancel removed nothing',
    )
    await row.getByRole('button', { name: 'Remove New Person' }).click()
    await confirm.getByRole('button', { name: 'Remove member' }).click()
    await page.getByText(`Removed ${INVITEE}.`).waitFor()
    await row.waitFor({ state: 'detached' })
    assert.ok(!(await members()).some((x) => x.email === INVITEE), 'the API no longer lists them')
    d.clean(page)
  })

  it('sets a webhook CRM with a write-only secret and removes it after confirming', async () => {
    const page = await d.open()
    await d.signIn(page, '/dashboard/settings/integrations')
    await page.getByRole('heading', { name: 'Integrations', level: 1 }).waitFor()
    await page.getByLabel('Provider').selectOption('webhook')
    await page.getByLabel('Webhook URL').fill('https://crm.example.com/leads')
    await page.getByLabel('Signing secret').fill('whsec_dashboard_test_secret')
    await page.getByRole('button', { name: 'Save CRM' }).click()
    await page.getByText('CRM saved.').waitFor()
    let ws = await api('GET', '/workspaces/current')
    assert.equal(ws.crm.provider, 'webhook')
    assert.equal(ws.crm.url, 'https://crm.example.com/leads')
    assert.equal(ws.crm.signing_secret_set, true)
    assert.equal(await page.getByLabel('Signing secret').inputValue(), '', 'the secret is not kept in the form')
    assert.ok(!(await page.content()).includes('whsec_dashboard_test_secret'))
    await page.getByText('A secret is stored; leave empty to keep it.').waitFor()
    await checkA11y(page, 'settings integrations')
    await assertFitsPhone(page, 'settings integrations')

    await page.getByRole('button', { name: 'Remove CRM' }).click()
    const confirm = page.getByRole('dialog', { name: 'Remove the CRM' })
    await confirm.getByRole('button', { name: 'Remove CRM' }).click()
    await page.getByText('CRM removed.').waitFor()
    ws = await api('GET', '/workspaces/current')
    assert.equal(ws.crm, null)
    d.clean(page)
  })
  it('a member (role member) reads the team and the settings but is offered no change the API would refuse', async () => {
    await memberWithPassword(d.h, 'reader@example.com', PASSWORD, { role: 'member' })
    const page = await d.open()
    await d.signIn(page, '/dashboard/settings/members', 'reader@example.com')
    await page.getByRole('heading', { name: 'Members', level: 1 }).waitFor()
    await page.getByRole('table').getByText('reader@example.com').waitFor()
    assert.equal(await page.getByRole('button', { name: 'Invite member' }).count(), 0)
    assert.equal(await page.getByRole('button', { name: /^Change role/ }).count(), 0)
    assert.equal(await page.getByRole('button', { name: /^Remove/ }).count(), 0)
    await page.goto(`${d.url}/dashboard/settings/workspace`)
    await page.getByText("Only owners and admins change the workspace's settings").waitFor()
    assert.equal(await page.getByRole('button', { name: 'Save settings' }).isDisabled(), true)
    await checkA11y(page, 'settings as a member')
    d.clean(page)
  })
})
