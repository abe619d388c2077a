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
import * as repo from './channels.repository.js'
import { PHONE_CHANNEL_TYPES, type ChannelT, type CreateChannelBodyT, type DeletedChannelT, type ListChannelsQueryT, type UpdateChannelBodyT } from './channels.schemas.js'
import type { ChannelsTable } from './channels.tables.js'
import { channelView } from './channels.views.js'
import { newWidget, updatedWidget } from './web-chat/web-chat.settings.js'

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
    return this.k.paginate({ list: 'listChannels', tenant, filters, query: q, fetch: (page) => repo.listChannels(this.k.db, tenant, q, page), key: (r) => r.id, view: (r) => channelView(this.k, r) })
  }

  async get(tenant: Tenant, id: string): Promise<ChannelT> {
    return channelView(this.k, await channelOr404(this.k, tenant, id))
  }

  async create(principal: Principal, body: CreateChannelBodyT): Promise<ChannelT> {
    const provider = body.type === 'web_chat' ? 'widget' : (body.provider ?? (body.credentials ? 'twilio' : 'simulated'))
    this.checkTypeFields(body)
    if (body.bot_id) await this.checkBot(principal, body.bot_id)
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
      created_at: now,
      updated_at: now,
    }
    Object.assign(row, this.credentialsOf(principal, row, body.credentials))
    const widget = newWidget(this.k, id, row.type, body.web_chat)
    Object.assign(row, widget.columns)
    if (row.phone_number && (await repo.findChannelByNumber(this.k.db, principal, row.type, row.phone_number))) throw this.taken(row)
    try {
      return await this.k.transaction(principal, async (tx) => {
        await repo.insertChannel(tx, row)
        const view = channelView(this.k, row)
        await this.k.events.emit(tx, principal, 'channel.created', view)
        // The identity secret is shown once, to the caller; never in events or webhooks.
        return widget.secret ? channelView(this.k, row, widget.secret) : view
      })
    } catch (err) {
      // Taken meanwhile by a concurrent create (the unique index decides).
      throw isUniqueViolation(err) ? this.taken(row) : err
    }
  }

  async update(principal: Principal, id: string, body: UpdateChannelBodyT): Promise<ChannelT> {
    const row = await channelOr404(this.k, principal, id)
    if (body.bot_id && body.bot_id !== row.bot_id) await this.checkBot(principal, body.bot_id)
    if (body.credentials?.base_url) await this.checkBaseUrl(body.credentials.base_url)
    const next: ChannelsTable = {
      ...row,
      name: body.name ?? row.name,
      bot_id: body.bot_id !== undefined ? body.bot_id : row.bot_id,
      ...(body.credentials ? this.credentialsOf(principal, row, body.credentials) : {}),
    }
    const widget = updatedWidget(this.k, row, body.web_chat)
    Object.assign(next, widget.columns)
    const changed =
      next.name !== row.name || next.bot_id !== row.bot_id || next.account_sid !== row.account_sid || next.auth_token_sealed !== row.auth_token_sealed || next.base_url !== row.base_url ||
      next.widget_settings !== (row.widget_settings ?? null) || next.widget_secret_sealed !== (row.widget_secret_sealed ?? null)
    if (!changed) return channelView(this.k, row)
    next.updated_at = iso(this.k.clock.now())
    return this.k.transaction(principal, async (tx) => {
      const { id: _id, workspace_id: _w, mode: _m, created_at: _c, ...patch } = next
      await repo.updateChannel(tx, principal, id, patch)
      const view = channelView(this.k, next)
      await this.k.events.emit(tx, principal, 'channel.updated', view)
      return widget.secret ? channelView(this.k, next, widget.secret) : view
    })
  }

  /** Forgets the channel and its customers' opt-outs; its conversations stay in the inbox, and replies in them no longer go out. */
  async delete(principal: Principal, id: string): Promise<DeletedChannelT> {
    const row = await channelOr404(this.k, principal, id)
    return this.k.transaction(principal, async (tx) => {
      await repo.deleteChannel(tx, principal, id)
      await this.k.events.emit(tx, principal, 'channel.deleted', channelView(this.k, row))
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
  private credentialsOf(tenant: Tenant, row: ChannelsTable, input: CreateChannelBodyT['credentials']): Pick<ChannelsTable, 'account_sid' | 'auth_token_sealed' | 'base_url'> {
    if (row.provider === 'widget') {
      if (input) throw invalid('/body/credentials', 'not for web_chat', 'A web chat channel is served by this service: it takes no provider credentials.')
      return { account_sid: null, auth_token_sealed: null, base_url: null }
    }
    if (row.provider === 'simulated') {
      if (input) throw invalid('/body/credentials', 'only for provider twilio', 'The simulated provider takes no credentials.')
      return { account_sid: null, auth_token_sealed: null, base_url: null }
    }
    if (tenant.mode !== 'live') throw invalid('/body/provider', 'simulated only in the sandbox', 'The sandbox reaches no real provider: use the simulated provider there.')
    if (!input) throw invalid('/body/credentials', 'required for provider twilio', 'A Twilio channel needs its account: credentials.account_sid and credentials.auth_token.')
    const kept = row.account_sid === input.account_sid ? row.auth_token_sealed : null
    const sealed = input.auth_token !== undefined ? this.k.secrets.seal(input.auth_token, tokenContext(row.id)) : kept
    if (!sealed) throw invalid('/body/credentials/auth_token', 'required', 'A Twilio account needs its auth_token the first time.')
    return { account_sid: input.account_sid, auth_token_sealed: sealed, base_url: (input.base_url ?? row.base_url ?? TWILIO_API).replace(/\/$/, '') }
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

  private async checkBot(tenant: Tenant, botId: string): Promise<void> {
    await referenced('/body/bot_id', () => this.services.bots.replies.answering(tenant, botId))
  }

  private taken(row: ChannelsTable): AppError {
    return new AppError('channel_number_taken', `Another ${row.type} channel of this workspace already answers ${row.phone_number}.`, { errors: [{ pointer: '/body/phone_number', detail: 'taken' }] })
  }
}
