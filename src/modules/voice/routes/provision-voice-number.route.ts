import { defineRoute } from '../../../kernel/http/define-route.js'
import { ProvisionVoiceNumberBody, VoiceNumber } from '../voice.schemas.js'

export const provisionVoiceNumber = defineRoute({
  operationId: 'provisionVoiceNumber',
  method: 'POST',
  url: '/voice/numbers',
  module: 'voice',
  scope: 'write',
  summary: 'Provision a voice number',
  description:
    'A number in `country` (and `area_code`), answered by `bot_id`, `agent_id` or only `greeting`. The simulated carrier (the sandbox, and live ' +
    'without Twilio) hands out numbers only from ranges reserved for fiction (NANP 555-01xx, Ofcom drama numbers, ACMA fictitious ranges); ' +
    'with Twilio configured, live numbers are bought from it. 422 `country_not_supported`, 409 `number_not_available`.',
  schema: { body: ProvisionVoiceNumberBody, response: { 201: VoiceNumber } },
  errors: ['country_not_supported', 'number_not_available', 'invalid_reference', 'bot_not_published', 'carrier_error'],
  handler: ({ body, principal, services }) => services.voice.numbers.provision(principal, body),
})
