import { ok } from '../../api/client.js'
import type { components } from '../../api/schema.js'
import type { Tone } from '../../ui/components.js'
import { useResource } from '../../ui/hooks.js'
import { useWorkspace } from '../../ui/workspace.js'

export type Conversation = components['schemas']['Conversation']
export type Message = components['schemas']['Message']
export type AiDraft = components['schemas']['AiDraft']
export type Member = components['schemas']['WorkspaceMember']
export type InboxTag = components['schemas']['InboxTag']
export type ConversationStatus = components['schemas']['ConversationStatus']

export const STATUSES: ConversationStatus[] = ['open', 'pending', 'snoozed', 'resolved']
export const CHANNELS: components['schemas']['ConversationChannel'][] = ['api', 'chat', 'email', 'sms', 'whatsapp', 'voice']

export const statusTone = (s: ConversationStatus): Tone => (s === 'open' ? 'info' : s === 'resolved' ? 'good' : s === 'pending' ? 'warn' : 'neutral')

/** Who a conversation is with, in a few words. */
export const contactLabel = (c: Conversation): string => c.contact.name ?? c.contact.email ?? c.contact.phone ?? c.contact.external_id ?? 'Unknown contact'

export const memberLabel = (m: Member): string => (m.name ? `${m.name} (${m.email})` : m.email)

/** The workspace's members and inbox tags: the assignee and tag choices of the filters and the thread. */
export function useInboxMeta() {
  const { membership } = useWorkspace()
  const members = useResource(
    async (api) => {
      const all: Member[] = []
      let cursor: string | undefined
      for (let i = 0; i < 10; i++) {
        const p = await ok(api.client.GET('/workspaces/{id}/members', { params: { path: { id: membership.workspace_id }, query: { limit: 100, cursor } } }))
        all.push(...p.data)
        if (!p.has_more || !p.next_cursor) break
        cursor = p.next_cursor
      }
      return all.filter((m) => m.status === 'active')
    },
    [membership.workspace_id],
  )
  const tags = useResource(async (api) => (await ok(api.client.GET('/inbox/tags', { params: { query: { limit: 100 } } }))).data)
  return { members, tags }
}
export type InboxMeta = ReturnType<typeof useInboxMeta>
