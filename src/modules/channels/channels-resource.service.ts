import { iso } from '../../kernel/clock.js'
import { isUniqueViolation } from '../../kernel/db/database.js'
import { AppError, notFound } from '../../kernel/errors.js'
import type { PageResult } from '../../kernel/http/pagination.js'
import { newId } from '../../kernel/ids.js'
import { checkOutboundUrl, OutboundUrlRefused } from '../../kernel/outbound/address-policy.js'
import type { Kernel } from '../../kernel/kernel.js'
import { referenced } from '../../kernel/references.js'
import type { Services } from '../../kernel/services.js'
import type { Principal, Tenant } from '../../kernel/tenant.js'
import { businessHoursColumn } from './business-hours/business-hours.settings.js'
import * as repo from './channels.repository.js'
import { PHONE_CHANNEL_TYPES, type ChannelT, type CreateChannelBodyT, type DeletedChannelT, type ListChannelsQueryT, type UpdateChannelBodyT } from './channels.schemas.js'
import type { ChannelsTable } from './channels.tables.js'
import { channelView } from './channels.views.js'
import { newWidget, updatedWidget } from './web-chat/web-chat.settings.js'
import * as emails from './email/email.repository.js'
import { emailColumns } from './email/email.settings.js'
import type { ChannelEmailsTable } from './email/email.tables.js'
import { whatsappColumn } from './providers/whatsapp-window.js'
import { checkFollowupChannel } from './web-chat/web-chat-email-followup.js'

const TWILIO_API = 'https://api.twilio.com'

/** The context a channel's auth token is sealed under: a sealed value copied onto another row does not open. */
export const tokenContext = (channelId: string) => `${channelId}:auth_token`

export async function channelOr404(k: Kernel, tenant: Tenant, id: string): Promise<ChannelsTable> {
  const row = await repo.findChannel(k.db, tenant, id)
  if (!row) throw notFound('channel', id)
  return row
}

const invalid = (pointer: string, detail: string, message: string) => new AppError('validation_failed', message, { errors: [{ pointer, detail }] })

/** Channels: create, list, read, update, delete. Provider credentials are sealed at rest. */
export class ChannelsResourceService {
  constructor(
    private readonly k: Kernel,
    private readonly services: Services,
  ) {}

  list(tenant: Tenant, q: ListChannelsQueryT): Promise<PageResult<ChannelT>> {
    const { cursor: _c, limit: _l, ...filters } = q
    // Email channels' settings rows, read once per page.
    let settings = new Map<string, ChannelEmailsTable>()
    const fetch = async (page: { after: string | null; limit: number }) => {
      const rows = await repo.listChannels(this.k.db, tenant, q, page)
      settings = new Map(
        (
          await emails.emailsOf(
            this.k.db,
            tenant,
            rows.filter((r) => r.type === 'email').map((r) => r.id),
          )
        ).map((e) => [e.channel_id, e]),
      )
      return rows
    }
    return this.k.paginate({ list: 'listChannels', tenant, filters, query: q, fetch, key: (r) => r.id, view: (r) => channelView(this.k, r, null, settings.get(r.id) ?? null) })
  }

  async get(tenant: Tenant, id: string): Promise<ChannelT> {
    const row = await channelOr404(this.k, tenant, id)
    return channelView(this.k, row, null, await this.emailOf(tenant, row))
  }

  private async emailOf(tenant: Tenant, row: ChannelsTable): Promise<ChannelEmailsTable | null> {
    return row.type === 'email' ? ((await emails.findEmail(this.k.db, tenant, row.id)) ?? null) : null
  }

  async create(principal: Principal, body: CreateChannelBodyT): Promise<ChannelT> {
    const provider = body.type === 'web_chat' ? 'widget' : body.type === 'email' ? this.emailProvider(principal, body) : (body.provider ?? (body.credentials ? 'twilio' : 'simulated'))
    this.checkTypeFields(body)
    this.checkEmailFields(body)
    if (body.bot_id) await this.checkBot(principal, body.bot_id)
    await checkFollowupChannel(this.k, principal, body.web_chat?.email_followup)
    if (body.credentials?.base_url) await this.checkBaseUrl(body.credentials.base_url)
    const id = newId('chn')
    const now = iso(this.k.clock.now())
    const row: ChannelsTable = {
      id,
      workspace_id: principal.workspaceId,
      mode: principal.mode,
      type: body.type,
      name: body.name,
      phone_number: body.phone_number ?? null,
      bot_id: body.bot_id ?? null,
      provider,
      account_sid: null,
      auth_token_sealed: null,
      base_url: null,
      business_hours: body.business_hours ? businessHoursColumn(body.business_hours) : null,
      created_at: now,
      updated_at: now,
    }
    Object.assign(row, this.credentialsOf(principal, row, body.credentials))
    row.whatsapp_template = whatsappColumn(row, body.whatsapp)
    const widget = newWidget(this.k, id, row.type, body.web_chat)
    Object.assign(row, widget.columns)
    if (row.phone_number && (await repo.findChannelByNumber(this.k.db, principal, row.type, row.phone_number))) throw this.taken(row)
    const email = body.type === 'email' ? await emailColumns(this.k, principal, row, null, body.email!) : null
    if (email && (await emails.findEmailByAddress(this.k.db, email.address))) throw this.addressTaken(email.address)
    try {
      return await this.k.transaction(principal, async (tx) => {
        await repo.insertChannel(tx, row)
        if (email) await emails.insertEmail(tx, email)
        const view = channelView(this.k, row, null, email)
        await this.k.events.emit(tx, principal, 'channel.created', view)
        // The identity secret is shown once, to the caller; never in events or webhooks.
        return widget.secret ? channelView(this.k, row, widget.secret) : view
      })
    } catch (err) {
      // Taken meanwhile by a concurrent create (the unique index decides).
      throw isUniqueViolation(err) ? (email ? this.addressTaken(email.address) : this.taken(row)) : err
    }
  }

  async update(principal: Principal, id: string, body: UpdateChannelBodyT): Promise<ChannelT> {
    const row = await channelOr404(this.k, principal, id)
    if (body.bot_id && body.bot_id !== row.bot_id) await this.checkBot(principal, body.bot_id)
    await checkFollowupChannel(this.k, principal, body.web_chat?.email_followup)
    if (body.credentials?.base_url) await this.checkBaseUrl(body.credentials.base_url)
    const next: ChannelsTable = {
      ...row,
      name: body.name ?? row.name,
      bot_id: body.bot_id !== undefined ? body.bot_id : row.bot_id,
      business_hours: body.business_hours !== undefined ? businessHoursColumn(body.business_hours) : (row.business_hours ?? null),
      ...(body.credentials ? this.credentialsOf(principal, row, body.credentials) : {}),
      whatsapp_template: whatsappColumn(row, body.whatsapp),
    }
    const widget = updatedWidget(this.k, row, body.web_chat)
    Object.assign(next, widget.columns)
    if (body.email && row.type !== 'email') throw invalid('/body/email', 'only for type email', 'email settings belong to an email channel.')
    const emailBefore = await this.emailOf(principal, row)
    const email = body.email && emailBefore ? await emailColumns(this.k, principal, row, emailBefore, body.email) : emailBefore
    const emailChanged = JSON.stringify(email) !== JSON.stringify(emailBefore)
    if (email && emailBefore && email.address !== emailBefore.address && (await emails.findEmailByAddress(this.k.db, email.address))) throw this.addressTaken(email.address)
    const changed =
      next.name !== row.name ||
      next.bot_id !== row.bot_id ||
      next.account_sid !== row.account_sid ||
      next.auth_token_sealed !== row.auth_token_sealed ||
      next.base_url !== row.base_url ||
      next.messaging_service_sid !== (row.messaging_service_sid ?? null) ||
      next.whatsapp_template !== (row.whatsapp_template ?? null) ||
      next.widget_settings !== (row.widget_settings ?? null) ||
      next.widget_secret_sealed !== (row.widget_secret_sealed ?? null) ||
      emailChanged ||
      next.business_hours !== (row.business_hours ?? null)
    if (!changed) return channelView(this.k, row, null, email)
    next.updated_at = iso(this.k.clock.now())
    try {
      return await this.k.transaction(principal, async (tx) => {
        const { id: _id, workspace_id: _w, mode: _m, created_at: _c, ...patch } = next
        await repo.updateChannel(tx, principal, id, patch)
        if (email && emailChanged) {
          const { channel_id: _ci, workspace_id: _ew, mode: _em, ...emailPatch } = email
          await emails.updateEmail(tx, principal, id, emailPatch)
        }
        const view = channelView(this.k, next, null, email)
        await this.k.events.emit(tx, principal, 'channel.updated', view)
        return widget.secret ? channelView(this.k, next, widget.secret, email) : view
      })
    } catch (err) {
      throw isUniqueViolation(err) && email ? this.addressTaken(email.address) : err
    }
  }

  /** Forgets the channel and its customers' opt-outs; its conversations stay in the inbox, and replies in them no longer go out. */
  async delete(principal: Principal, id: string): Promise<DeletedChannelT> {
    const row = await channelOr404(this.k, principal, id)
    return this.k.transaction(principal, async (tx) => {
      const email = await emails.findEmail(tx, principal, id)
      await emails.deleteEmail(tx, principal, id)
      await repo.deleteChannel(tx, principal, id)
      await this.k.events.emit(tx, principal, 'channel.deleted', channelView(this.k, row, null, email ?? null))
      return { id, object: 'channel' as const, deleted: true as const }
    })
  }

  /** The channel's auth token, opened; null when none is stored. */
  authToken(row: ChannelsTable): string | null {
    return row.auth_token_sealed ? this.k.secrets.open(row.auth_token_sealed, tokenContext(row.id)) : null
  }

  /** Seals every channel token under the current server secret (`svc secrets reseal`); returns how many changed. */
  async reseal(): Promise<number> {
    let after: string | null = null
    let count = 0
    for (;;) {
      const page = await repo.sealedChannels(this.k.db, after, 500)
      if (page.length === 0) return count
      for (const row of page) {
        const sealed = row.auth_token_sealed!
        if (!this.k.secrets.isStale(sealed)) continue
        const again = this.k.secrets.seal(this.k.secrets.open(sealed, tokenContext(row.id)), tokenContext(row.id))
        if (await repo.resealChannel(this.k.db, row.id, sealed, again)) count++
      }
      after = page[page.length - 1].id
    }
  }

  /**
   * A Twilio channel's account (live mode only, as voice's carrier: the sandbox never reaches a real
   * provider); the token is required the first time and kept when left out for the same account.
   */
  private credentialsOf(tenant: Tenant, row: ChannelsTable, input: CreateChannelBodyT['credentials']): Pick<ChannelsTable, 'account_sid' | 'auth_token_sealed' | 'base_url' | 'messaging_service_sid'> {
    const none = { account_sid: null, auth_token_sealed: null, base_url: null, messaging_service_sid: null }
    if (row.provider === 'widget') {
      if (input) throw invalid('/body/credentials', 'not for web_chat', 'A web chat channel is served by this service: it takes no provider credentials.')
      return none
    }
    if (row.provider === 'simulated') {
      if (input) throw invalid('/body/credentials', 'only for provider twilio', 'The simulated provider takes no credentials.')
      return none
    }
    if (tenant.mode !== 'live') throw invalid('/body/provider', 'simulated only in the sandbox', 'The sandbox reaches no real provider: use the simulated provider there.')
    // An email channel's relay is in its email settings (email.settings.ts).
    if (row.provider === 'smtp') return none
    if (!input) throw invalid('/body/credentials', 'required for provider twilio', 'A Twilio channel needs its account: credentials.account_sid and credentials.auth_token.')
    const kept = row.account_sid === input.account_sid ? row.auth_token_sealed : null
    const sealed = input.auth_token !== undefined ? this.k.secrets.seal(input.auth_token, tokenContext(row.id)) : kept
    if (!sealed) throw invalid('/body/credentials/auth_token', 'required', 'A Twilio account needs its auth_token the first time.')
    // A Messaging Service belongs to its account: another account's starts without one unless it names its own.
    const service = input.messaging_service_sid !== undefined ? input.messaging_service_sid : row.account_sid === input.account_sid ? (row.messaging_service_sid ?? null) : null
    return { account_sid: input.account_sid, auth_token_sealed: sealed, base_url: (input.base_url ?? row.base_url ?? TWILIO_API).replace(/\/$/, ''), messaging_service_sid: service }
  }

  /** The kernel's address policy when the base URL is saved, as every send checks it again when used. */
  private async checkBaseUrl(raw: string): Promise<void> {
    const allowPrivateNetworks = this.k.config.outbound.allowPrivateNetworks
    try {
      await checkOutboundUrl(raw, { allowPrivateNetworks, allowedSchemes: allowPrivateNetworks ? ['http', 'https'] : ['https'] })
    } catch (err) {
      if (!(err instanceof OutboundUrlRefused)) throw err
      // A name that resolves only later (offline set-ups where private networks are allowed) is checked at send.
      if (err.reason === 'unresolvable' && allowPrivateNetworks) return
      throw invalid('/body/credentials/base_url', 'not an allowed destination', `${err.message} The Twilio base URL must be a public https address.`)
    }
  }

  /** A phone number belongs to sms and whatsapp channels (required there); a web chat channel is always on `widget`. */
  private checkTypeFields(body: CreateChannelBodyT): void {
    const phone = PHONE_CHANNEL_TYPES.includes(body.type)
    if (phone && !body.phone_number) throw invalid('/body/phone_number', 'required', `A ${body.type} channel needs its phone_number.`)
    if (body.type === 'web_chat') {
      if (body.phone_number) throw invalid('/body/phone_number', 'not for web_chat', 'A web chat channel has no phone number.')
      if (body.provider && body.provider !== 'widget') throw invalid('/body/provider', 'widget only', 'A web chat channel is served by this service: provider widget.')
    } else if (body.provider === 'widget') throw invalid('/body/provider', 'web_chat only', 'The widget provider serves web_chat channels only.')
  }

  /** An email channel: `smtp` (live mode, with a relay of its own or EMAIL_RELAY_URL) or `simulated`. */
  private emailProvider(tenant: Tenant, body: CreateChannelBodyT): ChannelsTable['provider'] {
    if (body.provider) return body.provider
    return tenant.mode === 'live' && (body.email?.relay || this.k.config.email.relayUrl) ? 'smtp' : 'simulated'
  }

  /** An email channel has an address (`email`), no phone number and no Twilio credentials; `smtp` is for email only. */
  private checkEmailFields(body: CreateChannelBodyT): void {
    if (body.type !== 'email') {
      if (body.email) throw invalid('/body/email', 'only for type email', 'email settings belong to an email channel.')
      if (body.provider === 'smtp') throw invalid('/body/provider', 'email only', 'The smtp provider sends email channels only.')
      return
    }
    if (!body.email) throw invalid('/body/email', 'required', 'An email channel needs its settings: email.address at least.')
    if (body.phone_number) throw invalid('/body/phone_number', 'not for email', 'An email channel has no phone number.')
    if (body.credentials) throw invalid('/body/credentials', 'not for email', 'An email channel takes its relay in email.relay, not Twilio credentials.')
    if (body.provider && body.provider !== 'smtp' && body.provider !== 'simulated')
      throw invalid('/body/provider', 'smtp or simulated', 'An email channel sends through smtp (or the simulated provider).')
  }

  private addressTaken(address: string): AppError {
    return new AppError('channel_address_taken', `Another channel already receives mail for ${address}.`, { errors: [{ pointer: '/body/email/address', detail: 'taken' }] })
  }

  private async checkBot(tenant: Tenant, botId: string): Promise<void> {
    await referenced('/body/bot_id', () => this.services.bots.replies.answering(tenant, botId))
  }

  private taken(row: ChannelsTable): AppError {
    return new AppError('channel_number_taken', `Another ${row.type} channel of this workspace already answers ${row.phone_number}.`, { errors: [{ pointer: '/body/phone_number', detail: 'taken' }] })
  }
}
