import type { Static } from 'typebox'
import { roleAtLeast } from '../../kernel/auth/roles.js'
import { hasScope } from '../../kernel/auth/scopes.js'
import { iso } from '../../kernel/clock.js'
import { AppError } from '../../kernel/errors.js'
import { floorAt, type FeedEvent } from '../../kernel/events/event-feed.js'
import type { EventType } from '../../kernel/events/events.js'
import type { EventStream } from '../../kernel/http/sse.js'
import { idTime } from '../../kernel/ids.js'
import type { Kernel } from '../../kernel/kernel.js'
import type { Services } from '../../kernel/services.js'
import type { Principal, Tenant } from '../../kernel/tenant.js'
import { EVENT_ID, type Presence, type PresenceState } from './live.schemas.js'

/** The pseudo-type of presence signals in `types`; they need the conversations' read scope. */
export const PRESENCE = 'presence'
const PRESENCE_SCOPE = 'conversations:read'
/** A presence not refreshed within this long is gone: clients refresh every ~10 s. */
export const PRESENCE_TTL_MS = 30_000
/** Stored events one read of a resume takes; the stream waits for the client between reads. */
const BACKLOG_BATCH = 500

type PresenceT = Static<typeof Presence>

/**
 * The live event stream (GET /events/stream) and presence (POST …/presence). Stored events come from the
 * kernel's feed (one tail per process, kernel/events/event-feed.ts); a resume reads the events table, so it
 * works on any node. Each event is sent only when the credential may read its type, checked again as the
 * credential changes (a revoked key ends the stream, a demoted member stops getting admin events).
 */
export class LiveService {
  constructor(
    private readonly k: Kernel,
    private readonly services: Services,
  ) {}

  /**
   * The types `types` names (comma-separated; exact, `prefix.*`, `*`, `presence`), as a predicate, and the
   * list the principal may read. Unknown names → 422; a type the principal may not read, named → 403.
   */
  select(principal: Principal, types: string | undefined): { wants: (type: string) => boolean; list: string[] } {
    const catalog = this.k.events.catalog()
    const may = (t: EventType) => this.mayRead(principal, t.scope, t.minRole)
    const parts = (types ?? '*')
      .split(',')
      .map((s) => s.trim())
      .filter(Boolean)
    if (parts.length === 0) throw invalidTypes('names no event type')
    const exact = new Set<string>()
    const prefixes: string[] = []
    for (const part of parts) {
      if (part === '*') {
        prefixes.push('')
        exact.add(PRESENCE)
        continue
      }
      if (part === PRESENCE) {
        if (!this.mayRead(principal, PRESENCE_SCOPE, 'member')) throw notReadable(part, PRESENCE_SCOPE)
        exact.add(part)
        continue
      }
      const prefix = part.endsWith('.*') ? part.slice(0, -1) : null
      const matching = catalog.filter((t) => (prefix === null ? t.type === part : t.type.startsWith(prefix)))
      if (matching.length === 0) throw invalidTypes(`names "${part}", which is not an event type (GET /events lists them)`)
      const refused = matching.find((t) => !may(t))
      if (refused) throw notReadable(part, refused.scope)
      if (prefix === null) exact.add(part)
      else prefixes.push(prefix)
    }
    const wanted = (type: string) => exact.has(type) || prefixes.some((p) => type.startsWith(p))
    const list = [...catalog.filter((t) => wanted(t.type) && may(t)).map((t) => t.type), ...(exact.has(PRESENCE) && this.mayRead(principal, PRESENCE_SCOPE, 'member') ? [PRESENCE] : [])]
    return { wants: wanted, list }
  }

  /** Serves one stream until the client leaves, the server closes, or the credential stops admitting it. */
  async stream(first: Principal, query: { types?: string; after?: string }, stream: EventStream, reauthenticate: () => Promise<Principal | null>): Promise<void> {
    const tenant: Tenant = { workspaceId: first.workspaceId, mode: first.mode }
    const { wants, list } = this.select(first, query.types)
    const after = query.after ?? lastEventIdOf(stream.lastEventId)
    let principal = first
    const types = new Map(this.k.events.catalog().map((t) => [t.type, t]))
    const allowed = (type: string) => {
      const t = types.get(type)
      return t !== undefined && wants(type) && this.mayRead(principal, t.scope, t.minRole)
    }
    const presenceAllowed = () => wants(PRESENCE) && this.mayRead(principal, PRESENCE_SCOPE, 'member')
    // At least once: ids sent within the lookback are remembered, so a late commit re-read is not sent twice.
    const sent = new Map<string, number>()
    const lookback = this.k.feed.opts.lookbackMs
    const send = (e: FeedEvent) => {
      if (sent.has(e.envelope.id) || !allowed(e.envelope.type)) return
      const now = Date.now()
      sent.set(e.envelope.id, now)
      for (const [id, at] of sent) {
        if (now - at <= lookback * 2) break
        sent.delete(id)
      }
      stream.sendJson('event', e.json, e.envelope.id)
    }
    // Subscribed before the backlog is read, so nothing committed meanwhile falls between the two.
    let buffered: FeedEvent[] | null = after ? [] : null
    const unsubscribe = this.k.feed.subscribe(tenant, {
      event: (e) => (buffered ? buffered.push(e) : send(e)),
      signal: (name, data) => {
        if (name === PRESENCE && presenceAllowed()) stream.send('presence', data)
      },
    })
    try {
      // `ready` carries a position: a client that loses the connection before any event resumes from it.
      stream.send('ready', { object: 'event_stream', types: list, resumed_after: after ?? null, bus: this.k.feed.busName }, after ?? floorAt(Date.now()))
      if (after) {
        let from = this.k.feed.resumeFloor(idTime(after))
        for (;;) {
          const batch = await this.k.feed.backlog(this.k.db, tenant, from, BACKLOG_BATCH)
          for (const e of batch) send(e)
          if (batch.length < BACKLOG_BATCH || stream.signal.aborted) break
          from = batch[batch.length - 1].envelope.id
          await stream.drain()
        }
        const live = buffered ?? []
        buffered = null
        for (const e of live) send(e)
      }
      await this.untilStopped(stream.signal, async () => {
        const now = await reauthenticate()
        if (!now) throw new AppError('unauthorized', 'The credential of this stream was revoked, expired, or no longer admits it; connect again with a valid one.')
        principal = now
      })
    } finally {
      unsubscribe()
    }
  }

  /** Announces who is in a conversation to the workspace's streams on every node; nothing is stored. */
  async presence(principal: Principal, conversationId: string, state: Static<typeof PresenceState>): Promise<PresenceT> {
    const tenant: Tenant = { workspaceId: principal.workspaceId, mode: principal.mode }
    await this.services.inbox.conversations.get(tenant, conversationId)
    const actor = await this.actorOf(principal, tenant)
    const presence: PresenceT = {
      object: 'presence',
      conversation_id: conversationId,
      actor,
      state,
      expires_at: iso(new Date(this.k.clock.now().getTime() + (state === 'idle' ? 0 : PRESENCE_TTL_MS))),
    }
    // Nothing to store, but an Idempotency-Key commits with the answer (a repeat answers it again without a second signal).
    await this.k.transaction(principal, async () => presence)
    this.k.feed.signal(tenant, PRESENCE, presence)
    return presence
  }

  private async actorOf(principal: Principal, tenant: Tenant): Promise<PresenceT['actor']> {
    if (principal.actor?.type === 'member') {
      const member = await this.services.workspaces.getMember(tenant, principal.actor.id)
      return { type: 'member', id: principal.actor.id, name: member?.name ?? member?.email ?? null }
    }
    if (principal.actor?.type === 'oauth_app') return { type: 'oauth_app', id: principal.actor.id, name: null }
    return { type: 'api_key', id: principal.keyId, name: null }
  }

  private mayRead(principal: Principal, scope: string, minRole: EventType['minRole']): boolean {
    return hasScope(principal.scopes, scope) && (!principal.role || roleAtLeast(principal.role, minRole))
  }

  /** Waits until `signal` aborts, re-checking the credential every EVENT_STREAM_RECHECK_MS; a failed check rejects. */
  private untilStopped(signal: AbortSignal, recheck: () => Promise<void>): Promise<void> {
    return new Promise<void>((resolve, reject) => {
      if (signal.aborted) return resolve()
      let checking = false
      const timer = setInterval(() => {
        if (checking) return
        checking = true
        recheck()
          .then(() => (checking = false))
          .catch((err: unknown) => {
            stop()
            reject(err)
          })
      }, this.k.config.eventFeed.recheckMs)
      timer.unref()
      const stop = () => {
        clearInterval(timer)
        signal.removeEventListener('abort', onAbort)
      }
      const onAbort = () => {
        stop()
        resolve()
      }
      signal.addEventListener('abort', onAbort)
    })
  }
}

const EVENT_ID_RE = new RegExp(EVENT_ID)

function lastEventIdOf(header: string | null): string | undefined {
  if (header === null) return undefined
  const id = header.trim()
  if (!EVENT_ID_RE.test(id)) {
    throw new AppError('validation_failed', 'Last-Event-ID must be the id of an event this stream sent (evt_…).', {
      errors: [{ pointer: '/headers/last-event-id', detail: 'must be an event id (evt_…)' }],
    })
  }
  return id
}

function invalidTypes(detail: string): AppError {
  return new AppError('validation_failed', `types ${detail}.`, { errors: [{ pointer: '/query/types', detail }] })
}

function notReadable(type: string, scope: string): AppError {
  return new AppError('insufficient_scope', `The credential may not read "${type}" events: they need the scope '${scope}' (and, for a member, the role the module's reads need).`, {
    required_scope: scope,
  })
}
