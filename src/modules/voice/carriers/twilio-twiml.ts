import type { Kernel } from '../../../kernel/kernel.js'
import type { Services } from '../../../kernel/services.js'
import type { Tenant } from '../../../kernel/tenant.js'
import { answererFor } from '../voice-answerer.js'
import type { VoiceCallsTable } from '../voice.tables.js'
import { gather, hangup, response, say, type Twiml } from './twiml.js'

/** Where Twilio reaches us: outside the versioned API (carrier callbacks are not API operations). */
export const CALLBACK_BASE = '/carriers/twilio'
/** Caller turns a call answers before it says goodbye (a loop guard; a human takes longer calls). */
export const MAX_TURNS = 20

/** Listen for the caller's next line; what Twilio heard comes to /gather with the turn number. */
export const listen = (base: string, callId: string, turn: number, ...while_: Twiml[]) =>
  gather({ action: `${base}/gather?call=${callId}&turn=${turn}`, input: 'speech', speechTimeout: 'auto', language: 'en-US', actionOnEmptyResult: true }, ...while_)

/** The first instructions of a call: our greeting, then listening (a bot or agent), or the greeting alone. */
export async function callTwiml(k: Kernel, services: Services, tenant: Tenant, call: VoiceCallsTable, base: string): Promise<Twiml> {
  const answerer = await answererFor(k, services, tenant, call)
  if (!answerer.reply) return response(say(answerer.greeting), hangup())
  return response(listen(base, call.id, 0, say(answerer.greeting)), say(answerer.closing ?? 'Goodbye.'), hangup())
}
