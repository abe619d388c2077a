import assert from 'node:assert/strict'
import { after, before, describe, it } from 'node:test'
import type { Page } from 'playwright-core'
import { get, ok, post } from './server.js'
import { checkA11y, OWNER_EMAIL, screenshot, skip, startDashboard, type Dashboard } from './harness.js'

/**
 * The inbox as a place to work in (issue 31), the reply side: drafts kept per conversation, the AI draft
 * that never replaces typed text, the template picker, keyboard shortcuts and their help, snooze. The
 * list side (bulk actions, search, "mine", the view in the URL, the phone) is inbox-list-work.e2e.test.ts.
 */
describe('dashboard inbox in Chromium: drafts, AI draft, templates, shortcuts, snooze', { skip }, () => {
  let d: Dashboard
  let ada: any
  let grace: any
  let ownerId: string
  const conv = (name: string, subject: string, content: string) =>
    ok(post(d.h, '/inbox/conversations', { channel: 'chat', subject, contact: { name, email: `${name.split(' ')[0]!.toLowerCase()}@example.com` }, message: { content } }), 201)
  const read = (id: string) => ok(get(d.h, `/inbox/conversations/${id}`))
  const box = (page: Page) => page.getByRole('textbox', { name: /^(Reply|Private note)$/ })
  const list = (page: Page) => page.getByRole('list', { name: 'Conversations' })
  const openConv = async (page: Page, name: RegExp) => {
    await list(page).getByRole('link', { name }).click()
    await page.getByRole('heading', { name, level: 2 }).waitFor()
  }
  /** Moves the focus out of any field (letter shortcuts are ignored while typing). */
  const blur = (page: Page) => page.evaluate(() => (document.activeElement as HTMLElement | null)?.blur())

  before(async () => {
    d = await startDashboard()
    await ok(post(d.h, '/inbox/templates', { name: 'Pricing', shortcut: 'price', content: 'Hi {{contact.name}}, the Pro plan costs 49 EUR per seat and month.' }), 201)
    await ok(post(d.h, '/inbox/templates', { name: 'Refund policy', shortcut: 'refund', content: 'Dear {{contact.name}}, refunds are possible within 30 days.' }), 201)
    await ok(post(d.h, '/inbox/tags', { name: 'VIP' }), 201)
    // Created oldest first: the list shows Alan, Grace, Ada (newest first).
    ada = await conv('Ada Lovelace', 'Question about plans', 'How much does the Pro plan cost?')
    grace = await conv('Grace Hopper', 'Invoice missing', 'I need my invoice for October, the quarterly one.')
    await conv('Alan Turing', 'Login trouble', 'I cannot sign in since yesterday.')
    const members = await ok(get(d.h, `/workspaces/${d.h.a.workspaceId}/members`))
    ownerId = members.data.find((m: any) => m.email === OWNER_EMAIL).id
  })
  after(() => d?.close())

  it('keeps a draft per conversation across switches, a reload and signing out and in; sending clears it', async () => {
    const page = await d.open()
    await d.signIn(page, '/dashboard/inbox')
    await openConv(page, /Ada Lovelace/)
    await box(page).fill('Dear Ada, about the Pro plan')
    await openConv(page, /Grace Hopper/)
    assert.equal(await box(page).inputValue(), '')
    await box(page).fill('Dear Grace, your invoice')
    await openConv(page, /Ada Lovelace/)
    assert.equal(await box(page).inputValue(), 'Dear Ada, about the Pro plan')
    await page.getByText('Your unsent draft was kept.').waitFor()

    await page.reload()
    await page.getByRole('heading', { name: /Ada Lovelace/, level: 2 }).waitFor()
    assert.equal(await box(page).inputValue(), 'Dear Ada, about the Pro plan')

    await page.getByRole('button', { name: 'Sign out' }).click()
    await page.waitForURL((u) => !u.pathname.startsWith('/dashboard'))
    await d.signIn(page, `/dashboard/inbox/${grace.id}`)
    await page.getByRole('heading', { name: /Grace Hopper/, level: 2 }).waitFor()
    assert.equal(await box(page).inputValue(), 'Dear Grace, your invoice')

    await page.getByRole('button', { name: 'Send reply' }).click()
    await page.getByText('Reply sent.').waitFor()
    assert.equal(await box(page).inputValue(), '')
    assert.equal((await ok(get(d.h, `/inbox/conversations/${grace.id}/messages?order=asc`))).data.at(-1).content, 'Dear Grace, your invoice')
    await page.reload()
    await page.getByRole('heading', { name: /Grace Hopper/, level: 2 }).waitFor()
    assert.equal(await box(page).inputValue(), '', 'a sent draft is gone for good')
    // Ada's draft is still there: the drafts are kept per conversation.
    await openConv(page, /Ada Lovelace/)
    assert.equal(await box(page).inputValue(), 'Dear Ada, about the Pro plan')
    d.clean(page)
  })

  it('inserts an AI draft below typed text (never replacing it), and Undo takes it out', async () => {
    const page = await d.open()
    await d.signIn(page, `/dashboard/inbox/${ada.id}`)
    await page.getByRole('heading', { name: /Ada Lovelace/, level: 2 }).waitFor()
    await box(page).fill('Thanks for asking!')
    await page.getByRole('button', { name: 'Insert AI draft' }).click()
    await page.getByText('AI draft added below your text').waitFor()
    const both = await box(page).inputValue()
    assert.match(both, /^Thanks for asking!\n\nHi Ada Lovelace, the Pro plan costs 49 EUR/)
    await page.getByRole('button', { name: 'Undo AI draft' }).click()
    assert.equal(await box(page).inputValue(), 'Thanks for asking!')
    d.clean(page)
  })

  it('opens the template picker on "/" and filters it by shortcut; keys choose, placeholders are filled', async () => {
    const page = await d.open()
    await d.signIn(page, `/dashboard/inbox/${ada.id}`)
    await page.getByRole('heading', { name: /Ada Lovelace/, level: 2 }).waitFor()
    await box(page).fill('')
    await box(page).press('/')
    const picker = page.getByRole('listbox', { name: 'Reply templates' })
    await picker.waitFor()
    assert.equal(await picker.getByRole('option').count(), 2)
    await checkA11y(page, 'inbox template picker')
    await screenshot(page, 'inbox-templates')
    await box(page).press('ArrowDown')
    assert.equal(await picker.getByRole('option', { selected: true }).locator('strong').innerText(), 'Refund policy')
    assert.equal(await box(page).getAttribute('aria-activedescendant'), await picker.getByRole('option', { selected: true }).getAttribute('id'))
    await box(page).press('Enter')
    assert.equal(await box(page).inputValue(), 'Dear Ada Lovelace, refunds are possible within 30 days.')
    assert.equal(await picker.count(), 0)

    await box(page).fill('')
    await box(page).pressSequentially('/pri')
    await picker.getByRole('option').first().waitFor()
    assert.equal(await picker.getByRole('option').count(), 1)
    await box(page).press('Enter')
    assert.equal(await box(page).inputValue(), 'Hi Ada Lovelace, the Pro plan costs 49 EUR per seat and month.')

    // Escape closes it and leaves the text as typed ("/" starting a message of one's own).
    await box(page).fill('')
    await box(page).pressSequentially('/shrug')
    await page.getByText('No template matches.').waitFor()
    await box(page).press('Escape')
    assert.equal(await page.locator('.template-picker').count(), 0)
    assert.equal(await box(page).inputValue(), '/shrug')
    await box(page).fill('')
    d.clean(page)
  })

  it('drives the inbox from the keyboard: j/k, ? help, r, a, e, s, Ctrl+Enter; letters typed in a field stay letters', async () => {
    const page = await d.open()
    await d.signIn(page, '/dashboard/inbox')
    await list(page).getByRole('link').nth(2).waitFor()
    // The list's order (newest activity first) decides what j and k reach.
    const [first, second] = (await list(page)
      .getByRole('link')
      .evaluateAll((as) => as.map((a) => /conv_\w+/.exec(a.getAttribute('href') ?? '')?.[0]))) as string[]
    await blur(page)
    await page.keyboard.press('j')
    await page.waitForURL(`**/dashboard/inbox/${first}?**`)
    await page.keyboard.press('j')
    await page.waitForURL(`**/dashboard/inbox/${second}?**`)
    await page.keyboard.press('k')
    await page.waitForURL(`**/dashboard/inbox/${first}?**`)
    const target = await read(first!)
    const name = new RegExp(target.contact.name)
    await page.getByRole('heading', { name, level: 2 }).waitFor()

    await page.keyboard.press('?')
    const help = page.getByRole('dialog', { name: 'Keyboard shortcuts' })
    await help.waitFor()
    for (const k of ['j', 'k', 'r', 'e', 'a', 's', '/', '?']) await help.getByRole('cell', { name: k, exact: true }).waitFor()
    await help.getByRole('cell', { name: /^(Ctrl|⌘)\+Enter$/ }).waitFor()
    await checkA11y(page, 'inbox shortcuts help')
    await screenshot(page, 'inbox-shortcuts')
    await page.keyboard.press('Escape')
    await help.waitFor({ state: 'hidden' })

    await page.keyboard.press('r')
    assert.equal(await page.evaluate(() => document.activeElement?.id), 'reply-text')
    await page.keyboard.type('see you')
    assert.equal(await box(page).inputValue(), 'see you')
    assert.equal((await read(target.id)).status, 'open', '"e" typed in the reply box resolved nothing')
    assert.equal((await read(target.id)).assignee_id, null, '"a" typed in the reply box assigned nothing')

    await blur(page)
    await page.keyboard.press('a')
    await page.getByText('Assigned to you.').waitFor()
    assert.equal((await read(target.id)).assignee_id, ownerId)
    await page.keyboard.press('s')
    const snooze = page.getByRole('dialog', { name: 'Snooze conversation' })
    await snooze.waitFor()
    await checkA11y(page, 'inbox snooze dialog')
    await screenshot(page, 'inbox-snooze')
    const t0 = Date.now()
    await snooze.getByRole('button', { name: 'In 1 hour' }).click()
    await page
      .getByText(/^Snoozed until /)
      .first()
      .waitFor()
    const snoozed = await read(target.id)
    assert.equal(snoozed.status, 'snoozed')
    const until = Date.parse(snoozed.snoozed_until)
    assert.ok(Math.abs(until - (t0 + 3600_000)) < 60_000, `snoozed until ${snoozed.snoozed_until}`)

    // A chosen time: tomorrow 15:30 local time.
    await page.getByRole('button', { name: 'Snooze…' }).click()
    const when = new Date(Date.now() + 24 * 3600_000)
    when.setHours(15, 30, 0, 0)
    const p = (n: number) => String(n).padStart(2, '0')
    await snooze.getByLabel('Until (your local time)').fill(`${when.getFullYear()}-${p(when.getMonth() + 1)}-${p(when.getDate())}T15:30`)
    await snooze.getByRole('button', { name: 'Snooze until then' }).click()
    await snooze.waitFor({ state: 'hidden' })
    assert.equal(Date.parse((await read(target.id)).snoozed_until), when.getTime())

    await blur(page)
    await page.keyboard.press('e')
    await page.getByRole('heading', { name: new RegExp(`${target.contact.name} resolved`), level: 2 }).waitFor()
    assert.equal((await read(target.id)).status, 'resolved')

    await box(page).focus()
    await page.keyboard.press('Control+Enter')
    await page.getByText('Reply sent.').waitFor()
    assert.equal((await ok(get(d.h, `/inbox/conversations/${target.id}/messages?order=asc`))).data.at(-1).content, 'see you')
    d.clean(page)
  })
})
