import { createHash } from 'node:crypto'
import type { Kernel } from '../../../kernel/kernel.js'
import type { Tenant } from '../../../kernel/tenant.js'

/** The feed signal that carries a bot's reply while it is written (web-chat.stream.ts sends it as `draft`). */
export const DRAFT_SIGNAL = 'widget_draft'
/** At most one signal per reply this often: a NOTIFY or PUBLISH per token would cost more than it shows. */
const FLUSH_MS = 120
/**
 * Up to this many characters a signal carries the whole draft (offset 0), so a visitor who missed one — a
 * lost message, a reconnect mid-reply — is whole again with the next; past it only what is new (the
 * PostgreSQL bus drops payloads over ~8 KB).
 */
const WHOLE_UP_TO = 2_000

/** What the visitor's widget gets: the text from `offset` on, then once `done` (with the message, when posted). */
export type DraftSignal =
  | { object: 'widget_draft'; conversation_id: string; draft_id: string; offset: number; text: string }
  | { object: 'widget_draft'; conversation_id: string; draft_id: string; done: 'posted' | 'discarded'; message_id: string | null }

/**
 * A channel bot's reply on a web chat while it is composed: the pieces the engine hands over
 * (bots' `answer`, guardrails applied) go to the visitor's open widget as ephemeral feed signals
 * (kernel/events/feed-bus.ts: PostgreSQL NOTIFY, Redis pub/sub, the cluster's IPC, or this process alone),
 * so they reach the API node holding the visitor's stream from the worker that runs the bot. They are
 * losable and never stored: the posted message, through the outbox and the event feed, is the answer;
 * `posted` tells the widget which message replaces the draft. The id comes from the customer's message,
 * so a retried job writes into the same draft instead of a second one.
 */
export class BotDraft {
  readonly id: string
  private text = ''
  private sent = 0
  private timer: NodeJS.Timeout | null = null
  private over = false

  constructor(
    private readonly k: Kernel,
    private readonly tenant: Tenant,
    private readonly conversationId: string,
    answering: string,
  ) {
    this.id = `drf_${createHash('sha256').update(answering).digest('hex').slice(0, 24)}`
  }

  /** A piece of the reply (may be called per token). */
  push = (piece: string): void => {
    if (this.over || !piece) return
    this.text += piece
    // The first piece at once (the visitor sees the reply start), then at most one signal per FLUSH_MS.
    if (this.sent === 0) this.flush()
    else this.timer ??= setTimeout(() => this.flush(), FLUSH_MS)
  }

  /** The reply was posted as `messageId`: the widget swaps the draft for it. */
  posted(messageId: string): void {
    this.end('posted', messageId)
  }

  /** Nothing will be posted of it (another run answered, the bot failed or stopped): the widget drops it. */
  discard(): void {
    this.end('discarded', null)
  }

  private end(done: 'posted' | 'discarded', messageId: string | null): void {
    if (this.over) return
    this.over = true
    if (this.timer) clearTimeout(this.timer)
    this.timer = null
    // A draft nobody saw needs no end.
    if (this.sent === 0 && this.text === '') return
    this.signal({ object: 'widget_draft', conversation_id: this.conversationId, draft_id: this.id, done, message_id: messageId })
  }

  private flush(): void {
    this.timer = null
    if (this.over || this.text.length === this.sent) return
    const offset = this.text.length <= WHOLE_UP_TO ? 0 : this.sent
    this.sent = this.text.length
    this.signal({ object: 'widget_draft', conversation_id: this.conversationId, draft_id: this.id, offset, text: this.text.slice(offset) })
  }

  private signal(data: DraftSignal): void {
    this.k.feed.signal(this.tenant, DRAFT_SIGNAL, data)
  }
}
