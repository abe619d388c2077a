import assert from 'node:assert/strict'
import { after, before, describe, it } from 'node:test'
import type { Page } from 'playwright-core'
import { get, ok, post } from './server.js'
import { checkA11y, OWNER_EMAIL, screenshot, skip, startDashboard, type Dashboard } from './harness.js'

/**
 * The inbox as a place to work in (issue 31), the list side: bulk actions, search, "mine", filters and
 * mode in the URL (a link opened elsewhere shows the same; back and forward), the phone layout.
 */
describe('dashboard inbox in Chromium: bulk actions, search, Mine, the view in the URL, the phone', { skip }, () => {
  let d: Dashboard
  let grace: any
  let alan: any
  let ownerId: string
  const conv = (name: string, subject: string, content: string) =>
    ok(post(d.h, '/inbox/conversations', { channel: 'chat', subject, contact: { name, email: `${name.split(' ')[0]!.toLowerCase()}@example.com` }, message: { content } }), 201)
  const read = (id: string) => ok(get(d.h, `/inbox/conversations/${id}`))
  const list = (page: Page) => page.getByRole('list', { name: 'Conversations' })
  /** Moves the focus out of any field (letter shortcuts are ignored while typing). */
  const blur = (page: Page) => page.evaluate(() => (document.activeElement as HTMLElement | null)?.blur())

  before(async () => {
    d = await startDashboard()
    await ok(post(d.h, '/inbox/tags', { name: 'VIP' }), 201)
    // Created oldest first: the list shows Alan, Grace, Ada (newest first).
    await conv('Ada Lovelace', 'Question about plans', 'How much does the Pro plan cost?')
    grace = await conv('Grace Hopper', 'Invoice missing', 'I need my invoice for October, the quarterly one.')
    alan = await conv('Alan Turing', 'Login trouble', 'I cannot sign in since yesterday.')
    const members = await ok(get(d.h, `/workspaces/${d.h.a.workspaceId}/members`))
    ownerId = members.data.find((m: any) => m.email === OWNER_EMAIL).id
  })
  after(() => d?.close())

  it('selects conversations (shift-click for a range) and assigns, tags and resolves them together', async () => {
    const page = await d.open()
    await d.signIn(page, '/dashboard/inbox?status=open')
    await list(page).getByRole('link').first().waitFor()
    const extra = []
    for (let i = 0; i < 3; i++) extra.push(await conv(`Bulk contact ${i}`, `Bulk ${i}`, 'Hello'))
    await page.reload()
    await list(page)
      .getByRole('link', { name: /Bulk contact 2/ })
      .waitFor()
    // Newest first: Bulk contact 2, 1, 0 — a click on the first and a shift-click on the third select all three.
    await page.getByRole('checkbox', { name: /Select Bulk contact 2/ }).click()
    await page.getByRole('checkbox', { name: /Select Bulk contact 0/ }).click({ modifiers: ['Shift'] })
    const bar = page.getByRole('group', { name: 'Bulk actions' })
    await bar.getByText('3 selected').waitFor()
    assert.ok(await page.getByRole('checkbox', { name: /Select Bulk contact 1/ }).isChecked())
    await checkA11y(page, 'inbox with a selection')
    await screenshot(page, 'inbox-bulk')

    await bar.getByLabel('Assign selected to').selectOption(ownerId)
    await bar.getByRole('button', { name: 'Assign' }).click()
    await page.getByText('Assigned 3 of 3 conversations.').waitFor()
    for (const c of extra) assert.equal((await read(c.id)).assignee_id, ownerId)

    await page.getByRole('checkbox', { name: /Select Bulk contact 2/ }).click()
    await page.getByRole('checkbox', { name: /Select Bulk contact 0/ }).click({ modifiers: ['Shift'] })
    await bar.getByLabel('Tag selected with').selectOption('VIP')
    await bar.getByRole('button', { name: 'Add tag' }).click()
    await page.getByText('Tagged VIP: 3 of 3 conversations.').waitFor()
    for (const c of extra) assert.deepEqual((await read(c.id)).tags, ['VIP'])

    await page.getByRole('checkbox', { name: /Select Bulk contact 2/ }).click()
    await page.getByRole('checkbox', { name: /Select Bulk contact 0/ }).click({ modifiers: ['Shift'] })
    await bar.getByRole('button', { name: 'Resolve selected' }).click()
    await page.getByText('Resolved 3 of 3 conversations.').waitFor()
    for (const c of extra) assert.equal((await read(c.id)).status, 'resolved')
    d.clean(page)
  })

  it('searches messages from "/" with snippets, opens a hit, and filters on "Mine"', async () => {
    await ok(post(d.h, `/inbox/conversations/${alan.id}/assign`, { assignee_id: ownerId }))
    const page = await d.open()
    await d.signIn(page, '/dashboard/inbox')
    await list(page).getByRole('link').first().waitFor()
    await blur(page)
    await page.keyboard.press('/')
    assert.equal(await page.evaluate(() => document.activeElement?.id), 'inbox-search')
    await page.keyboard.type('quarterly')
    await page.keyboard.press('Enter')
    await page.waitForURL(/[?&]q=quarterly/)
    const results = page.getByRole('list', { name: 'Search results' })
    const hit = results.getByRole('link', { name: /Grace Hopper/ })
    await hit.waitFor()
    assert.equal(await results.getByRole('link').count(), 1)
    assert.match(await hit.locator('.snippet').innerText(), /quarterly/i)
    // The matching word is marked (the API's <mark>, drawn as an element, its text escaped).
    assert.equal((await hit.locator('.snippet mark').first().innerText()).toLowerCase(), 'quarterly')
    await checkA11y(page, 'inbox search')
    await screenshot(page, 'inbox-search')
    await hit.click()
    await page.waitForURL(`**/dashboard/inbox/${grace.id}?**`)
    await page.getByRole('heading', { name: /Grace Hopper/, level: 2 }).waitFor()
    await page.getByRole('button', { name: 'Clear search' }).click()
    await list(page).waitFor()

    // Mine: only conversations assigned to the signed-in member (Alan's and the bulk ones).
    const mine = page.getByRole('button', { name: 'Mine', exact: true })
    await mine.click()
    await page.waitForURL(/[?&]assignee=me/)
    assert.equal(await mine.getAttribute('aria-pressed'), 'true')
    assert.equal(await page.getByRole('search', { name: 'Filter conversations' }).getByLabel('Assignee').inputValue(), 'me')
    await list(page)
      .getByRole('link', { name: /Alan Turing/ })
      .waitFor()
    await page.waitForFunction(() => !document.querySelector('[aria-label="Conversations"] a[href*="conv_"]')?.textContent?.includes('Grace'))
    const names = await list(page).getByRole('link').allInnerTexts()
    assert.ok(
      names.every((n) => !/Grace Hopper|Ada Lovelace/.test(n)),
      names.join(' | '),
    )
    await mine.click()
    await page.waitForURL((u) => !u.searchParams.has('assignee'))
    await list(page)
      .getByRole('link', { name: /Grace Hopper/ })
      .waitFor()
    d.clean(page)
  })

  it('keeps filters and mode in the URL: a link opened in a new tab shows the same view, back and forward work', async () => {
    const page = await d.open()
    await d.signIn(page, '/dashboard/inbox')
    await list(page).getByRole('link').first().waitFor()
    const filters = page.getByRole('search', { name: 'Filter conversations' })
    await filters.getByLabel('Status').selectOption('resolved')
    await page.waitForURL(/status=resolved/)
    await filters.getByLabel('Channel').selectOption('chat')
    await page.waitForURL(/channel=chat/)
    assert.match(page.url(), /mode=live/)
    await list(page)
      .getByRole('link', { name: /Alan Turing|Bulk contact/ })
      .first()
      .waitFor()

    const copy = await page.context().newPage()
    await copy.goto(page.url())
    const copyFilters = copy.getByRole('search', { name: 'Filter conversations' })
    await copyFilters.waitFor()
    assert.equal(await copyFilters.getByLabel('Status').inputValue(), 'resolved')
    assert.equal(await copyFilters.getByLabel('Channel').inputValue(), 'chat')
    await copy.close()

    await page.goBack()
    await page.waitForURL((u) => !u.search.includes('channel='))
    assert.equal(await filters.getByLabel('Channel').inputValue(), '')
    assert.equal(await filters.getByLabel('Status').inputValue(), 'resolved')
    await page.goForward()
    await page.waitForURL(/channel=chat/)
    assert.equal(await filters.getByLabel('Channel').inputValue(), 'chat')

    // The sandbox: its conversation's link opens in the sandbox in a new tab (not a 404 from live).
    await page.goto('/dashboard/inbox?mode=live')
    await list(page).getByRole('link').first().waitFor()
    const sandboxConv = await ok(
      d.h.request({ method: 'POST', url: '/sandbox/v2/inbox/conversations', key: d.h.a.test, payload: { channel: 'chat', contact: { name: 'Sandy Sandbox' }, message: { content: 'Test message' } } }),
      201,
    )
    await page.getByTestId('mode-sandbox').click()
    await page.getByTestId('sandbox-banner').waitFor()
    await page.waitForURL(/mode=sandbox/)
    await list(page)
      .getByRole('link', { name: /Sandy Sandbox/ })
      .click()
    await page.getByRole('heading', { name: /Sandy Sandbox/, level: 2 }).waitFor()
    const link = page.url()
    assert.match(link, new RegExp(`/dashboard/inbox/${sandboxConv.id}\\?.*mode=sandbox`))
    const tab = await page.context().newPage()
    await tab.goto(link)
    await tab.getByRole('heading', { name: /Sandy Sandbox/, level: 2 }).waitFor()
    await tab.getByTestId('sandbox-banner').waitFor()
    assert.equal(await tab.getByText(/Error 404/).count(), 0)
    await tab.close()

    // Back to live with the toggle: the sandbox conversation is not asked for in live.
    await page.getByRole('button', { name: 'Live', exact: true }).click()
    await page.waitForURL((u) => u.searchParams.get('mode') === 'live' && u.pathname === '/dashboard/inbox')
    await list(page).getByRole('link').first().waitFor()
    assert.equal(await page.getByText(/Error 404/).count(), 0)
    d.clean(page)
  })

  it('on a phone opens the thread full screen with a way back to the list', async () => {
    const page = await d.open({ viewport: { width: 375, height: 800 } })
    await d.signIn(page, '/dashboard/inbox')
    await list(page)
      .getByRole('link', { name: /Ada Lovelace/ })
      .click()
    await page.getByRole('heading', { name: /Ada Lovelace/, level: 2 }).waitFor()
    assert.equal(await list(page).isVisible(), false, 'the list is hidden while a conversation is open')
    assert.equal(await page.getByRole('navigation', { name: 'Main' }).isVisible(), false)
    const top = await page.evaluate(() => document.getElementById('thread-title')!.getBoundingClientRect().top + window.scrollY)
    assert.ok(top < 450, `the thread starts at the top of the page (at ${top}px), not below the list`)
    const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth)
    assert.ok(overflow <= 1, `the thread is ${overflow}px wider than the phone`)
    await checkA11y(page, 'inbox thread on a phone')
    await screenshot(page, 'inbox-phone-thread')
    await page.getByRole('link', { name: '← All conversations' }).click()
    await list(page)
      .getByRole('link', { name: /Ada Lovelace/ })
      .waitFor()
    assert.equal(await page.getByRole('heading', { name: /Ada Lovelace/, level: 2 }).count(), 0)
    d.clean(page)
  })

  it('j past the last conversation loaded loads the next page and goes on', async () => {
    const made = []
    for (let i = 0; i < 21; i++) made.push(await ok(post(d.h, '/inbox/conversations', { channel: 'voice', contact: { name: `Caller ${i}` } }), 201))
    // Newest first: the 20th row is made[1], the first of the next page made[0].
    const page = await d.open()
    await d.signIn(page, `/dashboard/inbox/${made[1].id}?channel=voice&mode=live`)
    await page.getByRole('heading', { name: /Caller 1\b/, level: 2 }).waitFor()
    await list(page).getByRole('link').nth(19).waitFor()
    assert.equal(await list(page).getByRole('link').count(), 20)
    await blur(page)
    await page.keyboard.press('j')
    await list(page).getByRole('link').nth(20).waitFor()
    await page.keyboard.press('j')
    await page.waitForURL(`**/dashboard/inbox/${made[0].id}?**`)
    await page.getByRole('heading', { name: /Caller 0\b/, level: 2 }).waitFor()
    d.clean(page)
  })
})
