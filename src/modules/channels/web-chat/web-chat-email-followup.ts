import { inheritAudit } from '../../../kernel/audit/audit.js'
import { iso } from '../../../kernel/clock.js'
import type { Executor } from '../../../kernel/db/database.js'
import { AppError } from '../../../kernel/errors.js'
import { type EventEnvelope, eventTenant } from '../../../kernel/events/events.js'
import { defineJob, enqueue, type JobContext, type JobDefinition } from '../../../kernel/jobs/jobs.js'
import type { Kernel } from '../../../kernel/kernel.js'
import type { Services } from '../../../kernel/services.js'
import type { Tenant } from '../../../kernel/tenant.js'
import type { MessageT } from '../../inbox/inbox.schemas.js'
import * as channelsRepo from '../channels.repository.js'
import type { ChannelsTable } from '../channels.tables.js'
import { newReplyToken, replyAddress } from '../email/email-inbound.service.js'
import { messageIdOf, replySubject, sendSmtp, simulatedOutbox, textToHtml, type OutboundEmail, type SendOutcome } from '../email/email-outbound.js'
import * as emails from '../email/email.repository.js'
import { relayOf } from '../email/email.settings.js'
import type { ChannelEmailConversationsTable, ChannelEmailsTable } from '../email/email.tables.js'
import * as fr from './web-chat-followup.repository.js'
import type { ChannelWebFollowupsTable } from './web-chat-followup.tables.js'
import * as webRepo from './web-chat.repository.js'
import { widgetSettingsOf } from './web-chat.settings.js'

export interface FollowupPayload {
  workspace_id: string
  mode: Tenant['mode']
  message_id: string
}

/** A relay that refused for now (4xx, no connection) is asked again after these seconds. */
const RETRIES = [30, 120, 600]

const TEXT = {
  en: { subject: (name: string) => `Your chat with ${name}`, outro: 'Answer this e-mail to continue the conversation', link: 'or go back to the chat' },
  de: { subject: (name: string) => `Ihr Chat mit ${name}`, outro: 'Antworten Sie auf diese E-Mail, um das Gespräch fortzusetzen', link: 'oder kehren Sie zum Chat zurück' },
}

/** A web chat channel's `email_followup` may only name an email channel of the same workspace and mode (422 otherwise). */
export async function checkFollowupChannel(k: Kernel, tenant: Tenant, followup: { email_channel_id: string } | null | undefined): Promise<void> {
  if (!followup) return
  const channel = await channelsRepo.findChannel(k.db, tenant, followup.email_channel_id)
  if (channel?.type === 'email') return
  throw new AppError('validation_failed', 'email_followup.email_channel_id must name an email channel of this workspace: the mail goes from its address, and the visitor’s answer comes back to it.', {
    errors: [{ pointer: '/body/web_chat/email_followup/email_channel_id', detail: 'not an email channel here' }],
  })
}

/**
 * The conversation continued by e-mail once the visitor has left (docs/channels.md "Continued by e-mail").
 * A reply written to a web chat visitor who gave an address gets a row and a job in the reply's own
 * transaction (the in-transaction subscriber, as the send job is queued), due `after_minutes` later. When
 * it is due and the visitor has not read it in the widget (read receipts cancel it), every waiting reply
 * of the conversation goes in one mail from the configured email channel, whose reply address threads the
 * visitor's answer into the same conversation. Never twice: the rows are moved to `sending` by a guarded
 * update before the relay is asked, and a run that finds `sending` (the worker died mid-send) does not
 * ask again.
 */
export class WebChatEmailFollowup {
  readonly job: JobDefinition<FollowupPayload>

  constructor(
    private readonly k: Kernel,
    private readonly services: Services,
  ) {
    this.job = defineJob<FollowupPayload>({ name: 'channels.web-chat-email-followup', retrySchedule: RETRIES, run: (p, ctx) => this.run(p, ctx) })
  }

  /** In the transaction of every `message.created`: one indexed read for messages of conversations no channel talks to. */
  readonly subscriber = async (tx: Executor, event: EventEnvelope): Promise<void> => {
    if (event.type !== 'message.created') return
    const m = event.data.object as Pick<MessageT, 'id' | 'conversation_id' | 'direction' | 'private' | 'author'>
    // The bot answers while the visitor is there; a person's answer is what may come after they left.
    if (m.direction !== 'outbound' || m.private || m.author.type === 'bot') return
    const tenant = eventTenant(event)
    const link = await channelsRepo.findConversationLink(tx, tenant, m.conversation_id)
    if (!link) return
    const channel = await channelsRepo.findChannel(tx, tenant, link.channel_id)
    const settings = channel?.type === 'web_chat' ? widgetSettingsOf(channel).email_followup : null
    if (!channel || !settings) return
    const visitor = await webRepo.findVisitor(tx, tenant, channel.id, link.contact_phone)
    if (!visitor?.email) return
    const now = this.k.clock.now()
    const due = new Date(now.getTime() + settings.after_minutes * 60_000)
    await fr.insertFollowup(tx, {
      message_id: m.id,
      workspace_id: tenant.workspaceId,
      mode: tenant.mode,
      channel_id: channel.id,
      conversation_id: m.conversation_id,
      visitor_id: visitor.id,
      status: 'pending',
      due_at: iso(due),
      outcome: null,
      created_at: iso(now),
      updated_at: iso(now),
    })
    await enqueue(tx, this.k.clock, this.job, { workspace_id: tenant.workspaceId, mode: tenant.mode, message_id: m.id }, { runAt: due })
  }

  private async run(p: FollowupPayload, ctx: JobContext): Promise<void> {
    const { attempt } = ctx
    const tenant: Tenant = inheritAudit(ctx, { workspaceId: p.workspace_id, mode: p.mode })
    const db = this.k.db
    const now = iso(this.k.clock.now())
    const row = await fr.findFollowup(db, tenant, p.message_id)
    // A run that finds its row mid-send: the worker died while the relay had it. It may have gone; never again.
    if (row?.status === 'sending') return void (await fr.moveFollowups(db, tenant, [row.message_id], 'sending', 'failed', 'outcome_unknown', now))
    if (!row || row.status !== 'pending') return
    const due = await fr.dueFollowups(db, tenant, row.conversation_id, now)
    const read: string[] = []
    for (const f of due) if ((await channelsRepo.findDelivery(db, tenant, f.message_id))?.status === 'read') read.push(f.message_id)
    await fr.moveFollowups(db, tenant, read, 'pending', 'cancelled', 'read', now)
    const waiting = due.filter((f) => !read.includes(f.message_id))
    if (waiting.length === 0) return
    const ids = waiting.map((f) => f.message_id)
    const channel = await channelsRepo.findChannel(db, tenant, row.channel_id)
    const settings = channel?.type === 'web_chat' ? widgetSettingsOf(channel).email_followup : null
    if (!channel || !settings) return void (await fr.moveFollowups(db, tenant, ids, 'pending', 'cancelled', 'followup_off', now))
    const visitor = await webRepo.findVisitor(db, tenant, channel.id, row.visitor_id)
    if (!visitor?.email) return void (await fr.moveFollowups(db, tenant, ids, 'pending', 'cancelled', 'no_email', now))
    const emailChannel = await channelsRepo.findChannel(db, tenant, settings.email_channel_id)
    const email = emailChannel?.type === 'email' ? await emails.findEmail(db, tenant, emailChannel.id) : undefined
    if (!emailChannel || !email) return void (await fr.moveFollowups(db, tenant, ids, 'pending', 'failed', 'email_channel_missing', now))
    const messages = (await Promise.all(ids.map((id) => this.services.inbox.messages.find(tenant, id)))).filter((m): m is MessageT => m !== null)
    if (messages.length === 0) return void (await fr.moveFollowups(db, tenant, ids, 'pending', 'cancelled', 'message_deleted', now))
    // Taken by this run, or by none: a concurrent run of another reply's job sends the rows it took.
    const mine = await fr.moveFollowups(db, tenant, ids, 'pending', 'sending', null, now)
    if (mine.length === 0) return
    const taken = messages.filter((m) => mine.includes(m.id))
    if (taken.length === 0) return void (await fr.moveFollowups(db, tenant, mine, 'sending', 'cancelled', 'message_deleted', now))
    const thread = await this.threadOf(tenant, channel, emailChannel, visitor.email, row)
    const mail = this.compose(channel, emailChannel, email, thread, visitor.email, taken)
    // Recorded before it leaves: the visitor's answer (In-Reply-To our Message-ID) finds the conversation.
    await emails.insertThreadHeader(db, tenant, emailChannel.id, mail.messageId, row.conversation_id)
    const outcome = await this.deliver(emailChannel, email, mail)
    const at = iso(this.k.clock.now())
    if (outcome.kind === 'sent') {
      await fr.moveFollowups(db, tenant, mine, 'sending', 'sent', mail.messageId, at)
      const refs = [...mail.references, mail.messageId].slice(-20)
      await emails.updateEmailConversation(db, tenant, row.conversation_id, { last_header_id: mail.messageId, references_ids: refs.join(' ') })
      return
    }
    if (outcome.kind === 'retry' && attempt <= RETRIES.length) {
      // Nothing was taken: back to waiting (a read meanwhile still cancels it), and asked again on the schedule.
      await fr.moveFollowups(db, tenant, mine, 'sending', 'pending', null, at)
      throw new Error(`${outcome.code}: ${outcome.message}`)
    }
    await fr.moveFollowups(db, tenant, mine, 'sending', 'failed', outcome.kind === 'unknown' ? 'outcome_unknown' : outcome.code, at)
  }

  /** The conversation's e-mail thread (its reply address), made on the first follow-up. */
  private async threadOf(tenant: Tenant, channel: ChannelsTable, emailChannel: ChannelsTable, address: string, row: ChannelWebFollowupsTable): Promise<ChannelEmailConversationsTable> {
    const found = await emails.findEmailConversation(this.k.db, tenant, row.conversation_id)
    if (found && found.channel_id === emailChannel.id) return found
    if (found) {
      // The channel's follow-up address changed: the thread moves to it (its reply address is the new channel's).
      await emails.updateEmailConversation(this.k.db, tenant, row.conversation_id, { channel_id: emailChannel.id })
      return { ...found, channel_id: emailChannel.id }
    }
    const thread: ChannelEmailConversationsTable = {
      conversation_id: row.conversation_id,
      workspace_id: tenant.workspaceId,
      mode: tenant.mode,
      channel_id: emailChannel.id,
      contact_email: address,
      reply_token: newReplyToken(),
      subject: TEXT[widgetSettingsOf(channel).locale].subject(channel.name).slice(0, 300),
      last_header_id: null,
      references_ids: '',
    }
    await emails.insertEmailConversation(this.k.db, thread)
    return thread
  }

  private compose(channel: ChannelsTable, emailChannel: ChannelsTable, email: ChannelEmailsTable, thread: ChannelEmailConversationsTable, to: string, messages: MessageT[]): OutboundEmail {
    const settings = widgetSettingsOf(channel)
    const t = TEXT[settings.locale]
    const chat = settings.email_followup?.chat_url ?? settings.allowed_origins[0] ?? null
    const body = messages.map((m) => [m.content, ...m.attachments.map((a) => `${a.filename ?? 'Attachment'}: ${a.url}`)].filter((x) => x.trim()).join('\n\n'))
    const text = [...body, '—', chat ? `${t.outro}, ${t.link}: ${chat}#svc-chat` : `${t.outro}.`].join('\n\n')
    return {
      from: { name: email.from_name ?? emailChannel.name, address: email.address },
      to,
      replyTo: replyAddress(email.address, thread.reply_token),
      subject: thread.last_header_id ? replySubject(thread.subject) : thread.subject,
      text,
      html: textToHtml(text),
      messageId: messageIdOf(this.k, messages[0].id),
      inReplyTo: thread.last_header_id,
      references: thread.references_ids.split(' ').filter(Boolean),
      automatic: false,
      // The files go as links in the text (a visitor's chat files are served by the widget's file URLs).
      attachments: [],
    }
  }

  private async deliver(emailChannel: ChannelsTable, email: ChannelEmailsTable, mail: OutboundEmail): Promise<SendOutcome> {
    if (emailChannel.provider === 'simulated') {
      simulatedOutbox.push({ ...mail, attachments: [] })
      if (simulatedOutbox.length > 1000) simulatedOutbox.shift()
      return { kind: 'sent', sid: mail.messageId }
    }
    const relay = relayOf(this.k, email)
    if (!relay) return { kind: 'failed', code: 'provider_not_configured', message: 'No relay: set email.relay on the email channel or EMAIL_RELAY_URL.' }
    return sendSmtp(this.k, relay, mail)
  }
}
