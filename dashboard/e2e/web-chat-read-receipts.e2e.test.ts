import assert from 'node:assert/strict'
import { after, before, describe, it } from 'node:test'
import { get, ok, post } from './server.js'
import { startWidgetHost, type WidgetHost } from './widget-host.js'
import { checkA11y, skip, startDashboard, type Dashboard } from './harness.js'

/**
 * Web chat read receipts in Chromium (docs/channels.md "Read receipts"): the agent opening the conversation
 * in the dashboard shows "Seen" under the visitor's message, live; the agent's reply shown in the open chat
 * of a visible page becomes `read` in the inbox, and one that arrives while the chat is closed only once it
 * is opened. The link of a reply sent by e-mail (`#svc-chat`) opens the chat.
 */
describe('web chat read receipts in Chromium, on a site of another origin', { skip }, () => {
  let d: Dashboard
  let site: WidgetHost
  let siteUrl: string
  let channel: any

  before(async () => {
    d = await startDashboard()
    site = await startWidgetHost(d.url, () => channel.web_chat.public_key)
    siteUrl = site.url
    channel = await ok(post(d.h, '/channels', { type: 'web_chat', name: 'Shop chat', web_chat: { allowed_origins: [siteUrl] } }), 201)
  })
  after(async () => {
    await d?.close()
    await site?.close()
  })

  const deliveryOf = async (conv: string, text: string) => {
    const messages = (await ok(get(d.h, `/inbox/conversations/${conv}/messages?order=asc`))).data as any[]
    return messages.find((m) => m.content === text)?.delivery?.status
  }
  const until = async (what: string, check: () => Promise<boolean>) => {
    for (let i = 0; i < 100; i++) {
      if (await check()) return
      await new Promise((r) => setTimeout(r, 100))
    }
    assert.fail(`timed out waiting for ${what}`)
  }

  it('"Seen" when the agent opens the conversation; the agent’s reply is read once the visitor has the chat open', async () => {
    const visitor = await d.open()
    await visitor.goto(siteUrl)
    await visitor.getByRole('button', { name: 'Open chat' }).click()
    const chat = visitor.getByRole('dialog', { name: 'Chat with us' })
    const box = chat.getByRole('textbox', { name: 'Your message' })
    await box.fill('Where is my parcel?')
    await box.press('Enter')
    await chat.getByText('Where is my parcel?').waitFor()
    await until('the conversation', async () => (await ok(get(d.h, '/inbox/conversations?channel=chat'))).data.length === 1)
    const conv = (await ok(get(d.h, '/inbox/conversations?channel=chat'))).data[0].id
    assert.equal(await chat.getByText('Seen').count(), 0, 'nobody has read it yet')

    // The agent opens it in the dashboard (a visible tab marks it read): the visitor sees "Seen", live.
    const agent = await d.open()
    await d.signIn(agent, `/dashboard/inbox/${conv}`)
    await agent.getByText('Where is my parcel?').first().waitFor()
    await chat.getByText('Seen').waitFor({ timeout: 10_000 })
    await checkA11y(visitor, 'the chat with a read receipt')

    // The reply appears in the open chat of the visible page: read.
    await agent.getByRole('textbox', { name: 'Reply', exact: true }).fill('It is on its way, arriving tomorrow.')
    await agent.getByRole('button', { name: 'Send reply' }).click()
    await chat.getByText('It is on its way, arriving tomorrow.').waitFor({ timeout: 10_000 })
    await until('the reply read', async () => (await deliveryOf(conv, 'It is on its way, arriving tomorrow.')) === 'read')

    // With the chat closed, a reply is shown to nobody: delivered (the widget has it), not read, until it is opened.
    await chat.getByRole('button', { name: 'Close chat' }).click()
    await agent.getByRole('textbox', { name: 'Reply', exact: true }).fill('Anything else I can do?')
    await agent.getByRole('button', { name: 'Send reply' }).click()
    await until('the second reply delivered', async () => (await deliveryOf(conv, 'Anything else I can do?')) === 'delivered')
    await new Promise((r) => setTimeout(r, 500))
    assert.equal(await deliveryOf(conv, 'Anything else I can do?'), 'delivered')
    await visitor.getByRole('button', { name: 'Open chat' }).click()
    await until('the second reply read', async () => (await deliveryOf(conv, 'Anything else I can do?')) === 'read')
    d.clean(visitor)
    d.clean(agent)
  })

  it('the link of a reply sent by e-mail opens the chat', async () => {
    const page = await d.open()
    await page.goto(`${siteUrl}/#svc-chat`)
    await page.getByRole('dialog', { name: 'Chat with us' }).getByRole('textbox', { name: 'Your message' }).waitFor()
    d.clean(page)
  })
})
