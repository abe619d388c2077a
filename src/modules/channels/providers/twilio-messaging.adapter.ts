import type { Kernel } from '../../../kernel/kernel.js'
import { CarrierError, parseJson, sendTwilioRequest, twilioErrorOf } from '../../../kernel/twilio/http.js'
import type { ChannelType } from '../channels.tables.js'
import { deliveryStatusOf, type MessagingProvider, type OutboundText, type SentText } from './provider.types.js'

// Twilio Messaging's REST API 2010-04-01: POST /Accounts/{AccountSid}/Messages.json, form-encoded To,
// From (or MessagingServiceSid: the service picks the sender from its pool), Body, MediaUrl (repeated),
// or ContentSid + ContentVariables (an approved template, JSON), StatusCallback; HTTP basic auth
// AccountSid:AuthToken. WhatsApp addresses are `whatsapp:+E164`. Twilio takes no idempotency key for Messages: the send job makes sure
// it asks only once (jobs/send-message.job.ts).

const TIMEOUT_MS = 10_000
const MAX_JSON_BYTES = 256 * 1024

export interface TwilioAccount {
  account_sid: string
  auth_token: string
  base_url: string
}

export class TwilioMessagingAdapter implements MessagingProvider {
  constructor(
    private readonly k: Kernel,
    private readonly account: TwilioAccount,
    private readonly type: ChannelType,
  ) {}

  private address(e164: string): string {
    return this.type === 'whatsapp' ? `whatsapp:${e164}` : e164
  }

  async send(text: OutboundText): Promise<SentText> {
    const form = new URLSearchParams({ To: this.address(text.to) })
    if (text.messagingServiceSid) form.set('MessagingServiceSid', text.messagingServiceSid)
    else form.set('From', this.address(text.from))
    form.set('StatusCallback', text.statusCallback)
    if (text.template) {
      // A template carries its own text and media; Twilio takes the variables as one JSON object.
      form.set('ContentSid', text.template.contentSid)
      if (Object.keys(text.template.variables).length) form.set('ContentVariables', JSON.stringify(text.template.variables))
    } else {
      if (text.body !== '') form.set('Body', text.body)
      for (const url of text.mediaUrls) form.append('MediaUrl', url)
    }
    const auth = `Basic ${Buffer.from(`${this.account.account_sid}:${this.account.auth_token}`).toString('base64')}`
    const res = await sendTwilioRequest(
      this.k,
      { method: 'POST', url: `${this.account.base_url}/2010-04-01/Accounts/${encodeURIComponent(this.account.account_sid)}/Messages.json`, authorization: auth, form, accept: 'application/json' },
      { timeoutMs: TIMEOUT_MS, maxBytes: MAX_JSON_BYTES, peer: 'Twilio' },
    )
    if (res.status < 200 || res.status >= 300) throw twilioErrorOf(res)
    const body = parseJson(res.body) as { sid?: unknown; status?: unknown } | null
    if (!body || typeof body.sid !== 'string' || body.sid === '') throw new CarrierError(`Twilio answered HTTP ${res.status} without a message sid.`, false, res.status)
    return { sid: body.sid, status: (typeof body.status === 'string' && deliveryStatusOf(body.status)) || 'queued' }
  }
}
