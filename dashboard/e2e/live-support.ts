import type { Page } from 'playwright-core'
import { get, memberWithPassword, ok, patch, post } from './server.js'
import { OWNER_EMAIL, PASSWORD, startDashboard, type Dashboard } from './harness.js'

/** The live inbox's browser tests (inbox-live*.e2e.test.ts): two members of one workspace, Olga (owner) and Bea (member). */
export const BEA = 'bea@acme.example'
/** Issue 31: what one member does shows on the other's screen within a second (asserted with this timeout, after the action). */
export const SECOND = { timeout: 1000 }

/** Waits until the page follows the event stream (its "Live" badge). */
export const live = (page: Page) => page.locator('.live-state[data-state="live"]').waitFor({ timeout: 15_000 })
export const links = (page: Page) => page.getByRole('list', { name: 'Conversations' }).getByRole('link')
export const unreadInTitle = async (page: Page) => Number(/^\((\d+)\) /.exec(await page.title())?.[1] ?? 0)

/** Whether the element is inside the message box's visible part (and the window's). */
export const inView = (page: Page, text: string) =>
  page
    .getByRole('list', { name: 'Messages' })
    .getByText(text, { exact: true })
    .evaluate((el) => {
      const box = el.closest('.message-scroller')!.getBoundingClientRect()
      const r = el.getBoundingClientRect()
      return r.top >= box.top - 1 && r.bottom <= box.bottom + 1 && r.bottom <= window.innerHeight
    })

export interface TwoMembers {
  d: Dashboard
  ownerId: string
  beaId: string
  /** A chat conversation with `name` as its contact, its first message from the customer. */
  conversation(name: string, message?: string): Promise<{ id: string }>
  customerWrites(id: string, content: string): Promise<unknown>
  /** A new browser context signed in as the owner (or `email`) on `path`, following the stream. */
  signedIn(path: string, email?: string): Promise<Page>
}

export async function twoMembers(): Promise<TwoMembers> {
  const d = await startDashboard()
  await memberWithPassword(d.h, BEA, PASSWORD, { role: 'member' })
  const members = (await ok(get(d.h, `/workspaces/${d.h.a.workspaceId}/members`))).data as { id: string; email: string }[]
  const ownerId = members.find((m) => m.email === OWNER_EMAIL)!.id
  const beaId = members.find((m) => m.email === BEA)!.id
  await ok(patch(d.h, `/workspaces/${d.h.a.workspaceId}/members/${ownerId}`, { name: 'Olga' }))
  await ok(patch(d.h, `/workspaces/${d.h.a.workspaceId}/members/${beaId}`, { name: 'Bea' }))
  return {
    d,
    ownerId,
    beaId,
    conversation: (name, message = `Hello from ${name}`) => ok(post(d.h, '/inbox/conversations', { channel: 'chat', subject: `About ${name}`, contact: { name }, message: { content: message } }), 201),
    customerWrites: (id, content) => ok(post(d.h, `/inbox/conversations/${id}/messages`, { content, direction: 'inbound' }), 201),
    async signedIn(path, email = OWNER_EMAIL) {
      const page = await d.open()
      await d.signIn(page, path, email)
      await live(page)
      return page
    },
  }
}
