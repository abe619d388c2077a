import assert from 'node:assert/strict'
import { after, before, describe, it } from 'node:test'
import { checkA11y, screenshot, skip, type Dashboard } from './harness.js'
import { BEA, links, live, SECOND, twoMembers, unreadInTitle, type TwoMembers } from './live-support.js'
import { ok, post } from './server.js'

describe('dashboard inbox live in Chromium: two members see each other within a second', { skip }, () => {
  let m: TwoMembers
  let d: Dashboard
  let ownerId: string
  const conversation = (name: string, message?: string) => m.conversation(name, message)
  const customerWrites = (id: string, content: string) => m.customerWrites(id, content)
  const signedIn = (path: string, email?: string) => m.signedIn(path, email)
  before(async () => {
    m = await twoMembers()
    ;({ d, ownerId } = m)
  })
  after(() => d?.close())

  it('list and thread follow the other member within a second, both ways: new conversation, replies, customer, assignment, status', async () => {
    const a = await signedIn('/dashboard/inbox')
    const b = await signedIn('/dashboard/inbox', BEA)

    const conv = await conversation('Grace Hopper', 'My invoice is wrong.')
    await links(a).filter({ hasText: 'Grace Hopper' }).waitFor(SECOND)
    await links(b).filter({ hasText: 'Grace Hopper' }).waitFor(SECOND)

    await links(a).filter({ hasText: 'Grace Hopper' }).click()
    await links(b).filter({ hasText: 'Grace Hopper' }).click()
    for (const p of [a, b]) await p.getByRole('list', { name: 'Messages' }).getByText('My invoice is wrong.').waitFor()

    await b.getByRole('textbox', { name: 'Reply', exact: true }).fill('Checking the invoice now.')
    await b.getByRole('button', { name: 'Send reply' }).click()
    await a.getByRole('list', { name: 'Messages' }).getByText('Checking the invoice now.').waitFor(SECOND)

    await a.getByRole('textbox', { name: 'Reply', exact: true }).fill('The credit note is on its way.')
    await a.getByRole('button', { name: 'Send reply' }).click()
    await b.getByRole('list', { name: 'Messages' }).getByText('The credit note is on its way.').waitFor(SECOND)

    await customerWrites(conv.id, 'Thanks, both of you!')
    await a.getByRole('list', { name: 'Messages' }).getByText('Thanks, both of you!').waitFor(SECOND)
    await b.getByRole('list', { name: 'Messages' }).getByText('Thanks, both of you!').waitFor(SECOND)
    assert.equal(await a.getByRole('list', { name: 'Messages' }).getByText('The credit note is on its way.').count(), 1, 'each message once')

    await b.locator('.conversation-actions').getByLabel('Assignee').selectOption(ownerId)
    await b.locator('.conversation-actions').getByRole('button', { name: 'Assign' }).click()
    await links(a).filter({ hasText: 'Grace Hopper' }).filter({ hasText: 'Olga' }).waitFor(SECOND)
    await a.waitForFunction((id) => (document.querySelector('.conversation-actions select') as HTMLSelectElement | null)?.value === id, ownerId, SECOND)

    await b.locator('.conversation-actions').getByRole('button', { name: 'Resolve' }).click()
    await a
      .getByRole('heading', { level: 2, name: /Grace Hopper/ })
      .getByText('resolved')
      .waitFor(SECOND)
    await links(a).filter({ hasText: 'Grace Hopper' }).getByText('resolved').waitFor(SECOND)
    await a.locator('.conversation-actions').getByRole('button', { name: 'Reopen' }).click()
    await b
      .getByRole('heading', { level: 2, name: /Grace Hopper/ })
      .getByText('open')
      .waitFor(SECOND)
    await checkA11y(a, 'live inbox thread')
    d.clean(a)
    d.clean(b)
  })

  it('unread markers and the count in the tab title; the list in last-activity order; opening reads', async () => {
    const older = await conversation('Ada Older')
    await conversation('Ben Newer')
    const a = await signedIn('/dashboard/inbox')
    await links(a).first().filter({ hasText: 'Ben Newer' }).waitFor()
    const before = await unreadInTitle(a)
    assert.ok(before >= 2, `the title counts unread conversations: ${await a.title()}`)

    await customerWrites(older.id, 'Are you there?')
    await links(a).first().filter({ hasText: 'Ada Older' }).getByText('2 unread').waitFor(SECOND)
    await checkA11y(a, 'inbox with unread conversations')
    await screenshot(a, 'inbox-live-unread')

    await links(a).first().click()
    await a.getByRole('list', { name: 'Messages' }).getByText('Are you there?').waitFor()
    await a.waitForFunction((n) => document.title.startsWith(n ? `(${n}) Inbox` : 'Inbox'), before - 1, SECOND)
    assert.equal(
      await links(a)
        .filter({ hasText: 'Ada Older' })
        .getByText(/unread/)
        .count(),
      0,
    )

    // Read while open: a new customer message in the open conversation is marked read too.
    await customerWrites(older.id, 'Still there?')
    await a.getByRole('list', { name: 'Messages' }).getByText('Still there?').waitFor(SECOND)
    await a.reload()
    await links(a).filter({ hasText: 'Ada Older' }).waitFor()
    await live(a)
    assert.equal(
      await links(a)
        .filter({ hasText: 'Ada Older' })
        .getByText(/unread/)
        .count(),
      0,
      'read for this member, stored',
    )
    assert.equal(await unreadInTitle(a), before - 1)

    // Another member's unread state is their own.
    const b = await signedIn('/dashboard/inbox', BEA)
    await links(b).filter({ hasText: 'Ada Older' }).getByText('3 unread').waitFor()
    d.clean(a)
    d.clean(b)
  })

  it('a conversation an erasure deletes leaves the list, and its open thread says it is gone', async () => {
    const page = await signedIn('/dashboard/inbox')
    await ok(
      post(d.h, '/inbox/conversations', { channel: 'chat', subject: 'About Erin', contact: { name: 'Erin Erased', email: 'erin@example.net' }, message: { content: 'Forget me, please.' } }),
      201,
    )
    await links(page).filter({ hasText: 'Erin Erased' }).click()
    await page.getByRole('list', { name: 'Messages' }).getByText('Forget me, please.').waitFor(SECOND)
    await ok(post(d.h, '/compliance/dsar', { type: 'erasure', subject: { email: 'erin@example.net' } }), 201)
    await d.h.drainJobs()
    await links(page)
      .filter({ hasText: 'Erin Erased' })
      .waitFor({ state: 'detached', ...SECOND })
    await page.getByRole('heading', { level: 2, name: /Erin Erased/ }).waitFor({ state: 'detached', ...SECOND })
    await page.locator('.thread').getByRole('alert').getByText('404').waitFor(SECOND)
    d.clean(page)
  })

  it('after a dropped connection, reconnects and resumes after the last event seen (Last-Event-ID)', async () => {
    const page = await signedIn('/dashboard/inbox')
    const opened: (string | undefined)[] = []
    page.on('request', (r) => r.url().includes('/events/stream') && opened.push(r.headers()['last-event-id']))
    await conversation('Before Drop')
    await links(page).filter({ hasText: 'Before Drop' }).waitFor(SECOND)
    // The server drops every connection (a restart, a proxy timing out); a conversation is made meanwhile.
    await d.h.step('close-connections')
    await page.locator('.live-state[data-state="reconnecting"]').waitFor({ timeout: 5000 })
    await conversation('During Drop')
    await live(page)
    await links(page).filter({ hasText: 'During Drop' }).waitFor({ timeout: 5000 })
    assert.ok(opened.length >= 1, 'a new stream was opened')
    assert.match(opened.at(-1) ?? '', /^evt_/, 'the reconnect resumes after the last event seen')
    d.clean(page)
  })
})
