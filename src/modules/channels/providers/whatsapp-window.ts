import { AppError } from '../../../kernel/errors.js'
import type { ChannelContactsTable, ChannelsTable } from '../channels.tables.js'
import type { WhatsAppInputT, WhatsAppSettingsT, WhatsAppTemplateT } from './messaging.schemas.js'

// WhatsApp's customer-service window: a business may answer freely for 24 hours after the customer's last
// message; after that only an approved template goes out (Twilio accepts a free-form message and then fails
// it with 63016, so we decide before asking).

export const WINDOW_MS = 24 * 60 * 60_000

/** Whether a free-form message may go to this customer now. Rows from before `last_inbound_at` existed count from their last update (an inbound message wrote it). */
export function windowOpen(contact: (Pick<ChannelContactsTable, 'updated_at'> & { last_inbound_at?: string | null }) | undefined, now: Date): boolean {
  const last = contact ? (contact.last_inbound_at ?? contact.updated_at) : null
  return last !== null && now.getTime() - Date.parse(last) < WINDOW_MS
}

export function templateOf(row: ChannelsTable): WhatsAppTemplateT | null {
  return row.type === 'whatsapp' && row.whatsapp_template ? (JSON.parse(row.whatsapp_template) as WhatsAppTemplateT) : null
}

export function whatsappView(row: ChannelsTable): WhatsAppSettingsT | null {
  return row.type === 'whatsapp' ? { template: templateOf(row) } : null
}

/** The column after a create or update's `whatsapp` input (undefined: unchanged). */
export function whatsappColumn(row: ChannelsTable, input: WhatsAppInputT | undefined): string | null {
  if (input === undefined) return row.whatsapp_template ?? null
  if (row.type !== 'whatsapp') throw new AppError('validation_failed', 'whatsapp settings belong to a WhatsApp channel.', { errors: [{ pointer: '/body/whatsapp', detail: 'only for type whatsapp' }] })
  if (input.template === undefined) return row.whatsapp_template ?? null
  return input.template ? JSON.stringify({ content_sid: input.template.content_sid, variables: input.template.variables ?? {} }) : null
}

/** The template's variables for one reply: `{message}` is its text (WhatsApp caps a variable at 1,024 characters), `{channel}` the channel's name. */
export function templateVariables(t: WhatsAppTemplateT, ctx: { message: string; channel: string }): Record<string, string> {
  const out: Record<string, string> = {}
  for (const [k, v] of Object.entries(t.variables ?? {})) {
    const text = v.replaceAll('{message}', ctx.message).replaceAll('{channel}', ctx.channel)
    out[k] = text.length > 1024 ? `${text.slice(0, 1023)}…` : text
  }
  return out
}
