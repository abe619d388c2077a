import { defineRoute } from '../../../kernel/http/define-route.js'
import { CreateVoiceTokenBody, VoiceToken } from '../voice.schemas.js'

export const createVoiceToken = defineRoute({
  operationId: 'createVoiceToken',
  method: 'POST',
  url: '/voice/token',
  module: 'voice',
  scope: 'write',
  minRole: 'member', // a member answers calls in the browser
  summary: 'Create a voice client token',
  description:
    'A signed JWT (HS256) for a browser or mobile client, laid out like a Twilio access token: `grants.identity`, `grants.voice.incoming.allow`, ' +
    '`grants.voice.outgoing` (a number of yours). `ttl_seconds` 60–86400 (default 3600; above the maximum is 422).',
  schema: { body: CreateVoiceTokenBody, response: { 201: VoiceToken } },
  errors: ['invalid_reference'],
  handler: ({ body, principal, services }) => services.voice.tokens.create(principal, body),
})
