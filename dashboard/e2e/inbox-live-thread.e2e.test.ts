import assert from 'node:assert/strict'
import { after, before, describe, it } from 'node:test'
import { ok, post } from './server.js'
import { checkA11y, screenshot, skip, type Dashboard } from './harness.js'
import { BEA, inView, links, live, SECOND, twoMembers, type TwoMembers } from './live-support.js'

describe('dashboard inbox live in Chromium: long threads, presence, notifications', { skip }, () => {
  let m: TwoMembers
  let d: Dashboard
  let ownerId: string
  let beaId: string
  const conversation = (name: string, message?: string) => m.conversation(name, message)
  const customerWrites = (id: string, content: string) => m.customerWrites(id, content)
  const signedIn = (path: string, email?: string) => m.signedIn(path, email)
  before(async () => {
    m = await twoMembers()
    ;({ d, ownerId, beaId } = m)
  })
  after(() => d?.close())

  it("a long thread opens at the newest message, loads earlier ones above in place, and shows one's own reply at once", async () => {
    const conv = await conversation('Long Thread', 'Message 1')
    for (let i = 2; i <= 61; i++) await customerWrites(conv.id, `Message ${i}`)
    const a = await signedIn(`/dashboard/inbox/${conv.id}`)
    const messages = a.getByRole('list', { name: 'Messages' })
    await messages.getByText('Message 61', { exact: true }).waitFor()
    assert.equal(await inView(a, 'Message 61'), true, 'the newest message is in view')
    assert.equal(await messages.getByText('Message 1', { exact: true }).count(), 0)

    // Each "Load earlier" puts older messages above; the ones being read stay where they are on screen.
    const scroller = a.locator('.message-scroller')
    for (const [first, older] of [
      ['Message 32', 'Message 31'],
      ['Message 2', 'Message 1'],
    ] as const) {
      await scroller.evaluate((el) => (el.scrollTop = 0))
      const y0 = (await messages.getByText(first, { exact: true }).boundingBox())!.y
      await a.getByRole('button', { name: 'Load earlier messages' }).click()
      await messages.getByText(older, { exact: true }).waitFor()
      const y1 = (await messages.getByText(first, { exact: true }).boundingBox())!.y
      assert.ok(Math.abs(y1 - y0) <= 2, `${first} stays in place (${y0} → ${y1})`)
    }
    assert.equal(await a.getByRole('button', { name: 'Load earlier messages' }).count(), 0)
    assert.equal(await messages.getByRole('listitem').count(), 61)

    // The server is slow to answer: the reply is in the thread (and in view) before it does.
    let release!: () => void
    const held = new Promise<void>((r) => (release = r))
    await a.route('**/inbox/conversations/*/messages', async (route) => {
      if (route.request().method() !== 'POST') return route.continue()
      await held
      await route.continue()
    })
    await a.getByRole('textbox', { name: 'Reply', exact: true }).fill('Here is the answer you waited for.')
    await a.getByRole('button', { name: 'Send reply' }).click()
    const mine = messages.locator('li[data-author="member"]').filter({ hasText: 'Here is the answer you waited for.' })
    await mine.getByText('Sending…').waitFor({ timeout: 500 })
    assert.equal(await inView(a, 'Here is the answer you waited for.'), true, "one's own reply is in view")
    release()
    await a.getByText('Reply sent.').waitFor()
    await mine.locator('time').waitFor()
    assert.equal(await mine.count(), 1, 'the reply once, as the server stored it')
    await a.unroute('**/inbox/conversations/*/messages')
    await checkA11y(a, 'long thread')
    await screenshot(a, 'inbox-live-long-thread')
    d.clean(a)
  })

  it('presence: who is viewing and typing, and a warning when someone else types a reply too', async () => {
    const conv = await conversation('Presence Person', 'Can someone help?')
    await conversation('Elsewhere Ed')
    const a = await signedIn(`/dashboard/inbox/${conv.id}`)
    const b = await signedIn(`/dashboard/inbox/${conv.id}`, BEA)
    await a.locator('.presence-line').getByText('Bea is viewing').waitFor(SECOND)
    await b.locator('.presence-line').getByText('Olga is viewing').waitFor(SECOND)

    await b.getByRole('textbox', { name: 'Reply', exact: true }).pressSequentially('I will take this')
    await a.locator('.presence-line').getByText('Bea is typing…').waitFor(SECOND)
    await a.getByRole('textbox', { name: 'Reply', exact: true }).pressSequentially('Hello')
    await a.getByText(/Bea is also replying in this conversation/).waitFor(SECOND)
    await checkA11y(a, 'thread with presence and a collision warning')
    await screenshot(a, 'inbox-live-presence')

    await links(b).filter({ hasText: 'Elsewhere Ed' }).click()
    await a
      .locator('.presence-line')
      .getByText(/Bea/)
      .waitFor({ state: 'detached', ...SECOND })
    assert.equal(await a.getByText(/also replying/).count(), 0)
    d.clean(a)
    d.clean(b)
  })

  it('notifies (opt-in) when a conversation is assigned to oneself', async () => {
    const page = await d.open()
    await page.context().grantPermissions(['notifications'], { origin: d.url })
    // Records what the page shows, then lets the browser show it.
    await page.addInitScript(() => {
      const seen: { title: string; body?: string }[] = []
      ;(window as unknown as { __notes: typeof seen }).__notes = seen
      const Real = window.Notification
      window.Notification = class extends Real {
        constructor(title: string, opts?: NotificationOptions) {
          super(title, opts)
          seen.push({ title, body: opts?.body })
        }
      } as typeof Notification
    })
    await d.signIn(page, '/dashboard/inbox')
    await live(page)
    await page.getByLabel('Notify me about conversations assigned to me').check()
    const conv = await conversation('Notify Nora', 'Please call me back.')
    await ok(post(d.h, `/inbox/conversations/${conv.id}/assign`, { assignee_id: ownerId }))
    // Not one of the one-second claims (those are the list and the thread): a notification may take a little longer on a loaded machine.
    await page.waitForFunction(() => (window as unknown as { __notes: { title: string }[] }).__notes.some((n) => n.title === 'Assigned to you: Notify Nora'), undefined, { timeout: 5000 })
    // Someone else's assignment is not this member's business.
    const other = await conversation('Other Otto')
    await ok(post(d.h, `/inbox/conversations/${other.id}/assign`, { assignee_id: beaId }))
    await links(page).filter({ hasText: 'Other Otto' }).filter({ hasText: 'Bea' }).waitFor({ timeout: 5000 })
    assert.equal(await page.evaluate(() => (window as unknown as { __notes: unknown[] }).__notes.length), 1)
    d.clean(page)
  })
})
