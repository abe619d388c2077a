import type { Executor } from '../../../kernel/db/database.js'
import { AppError } from '../../../kernel/errors.js'
import { type EventEnvelope, eventTenant } from '../../../kernel/events/events.js'
import * as repo from '../channels.repository.js'
import { newReplyToken } from './email-inbound.service.js'
import * as emails from './email.repository.js'

interface CreatedConversation {
  id: string
  channel: string
  subject: string | null
  contact: { email: string | null }
  metadata: Record<string, unknown>
  last_message: { direction: string } | null
}

const invalid = (pointer: string, detail: string, message: string) => new AppError('validation_failed', message, { errors: [{ pointer, detail }] })

/**
 * An email conversation started from our side (createConversation with `channel` `email` and
 * `metadata.channel_id` an email channel of the workspace): in the conversation's own transaction it gets
 * its channel link and its thread (a reply token, the subject, no Message-ID yet), so that its first
 * outbound message — in the same request or later — is sent to `contact.email`, and the customer's answer
 * (to the reply address, or In-Reply-To our Message-ID) lands in it. A conversation the inbound path starts
 * passes here too; its mail's ids are added to the thread right after. Anything else is left alone.
 */
export async function linkStartedConversation(tx: Executor, event: EventEnvelope): Promise<void> {
  if (event.type !== 'conversation.created') return
  const c = event.data.object as CreatedConversation
  const channelId = c.metadata?.channel_id
  if (c.channel !== 'email' || channelId === undefined) return
  const tenant = eventTenant(event)
  const channel = typeof channelId === 'string' && channelId.length <= 64 ? await repo.findChannel(tx, tenant, channelId) : undefined
  if (!channel || channel.type !== 'email') {
    throw invalid(
      '/body/metadata/channel_id',
      channel ? 'not an email channel' : 'no such channel',
      'An email conversation’s metadata.channel_id names the email channel it is sent through (GET /channels).',
    )
  }
  const to = c.contact.email?.trim().toLowerCase() ?? ''
  if (!to) throw invalid('/body/contact/email', 'required', 'An email conversation needs the customer’s address: contact.email.')
  // Started by the customer's mail: the channel's bot answers first. Started by us: people are on it already.
  const botState = c.last_message?.direction === 'inbound' ? 'active' : 'handed_off'
  await repo.insertConversationLink(tx, { conversation_id: c.id, workspace_id: tenant.workspaceId, mode: tenant.mode, channel_id: channel.id, contact_phone: to, bot_state: botState })
  await emails.insertEmailConversation(tx, {
    conversation_id: c.id,
    workspace_id: tenant.workspaceId,
    mode: tenant.mode,
    channel_id: channel.id,
    contact_email: to,
    reply_token: newReplyToken(),
    subject: (c.subject ?? '').trim().slice(0, 300),
    last_header_id: null,
    references_ids: '',
  })
}
