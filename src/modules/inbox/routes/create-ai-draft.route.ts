import { defineRoute } from '../../../kernel/http/define-route.js'
import { AiDraft, ConversationIdParams, CreateAiDraftBody } from '../inbox.schemas.js'

export const createAiDraft = defineRoute({
  operationId: 'createAiDraft',
  method: 'POST',
  url: '/inbox/conversations/{id}/ai-draft',
  module: 'inbox',
  scope: 'messages:write',
  summary: 'Draft a reply with the AI engine (never sent)',
  description:
    'The engine (AI_PROVIDER) reads the latest messages and ranks the reply templates. `builtin` answers with the best ' +
    'matching template, placeholders filled, and says so with confidence 0 when nothing matches; `openai` asks an ' +
    'OpenAI-compatible server. `sources` names the templates and the message used. Provider failures answer 502 ' +
    '`ai_provider_error`, 503 `ai_provider_unavailable` or 504 `ai_provider_timeout` (after AI_TIMEOUT_MS).',
  schema: { params: ConversationIdParams, body: CreateAiDraftBody, response: { 201: AiDraft } },
  errors: ['resource_not_found', 'ai_provider_error', 'ai_provider_unavailable', 'ai_provider_timeout'],
  handler: ({ params, body, principal, services }) => services.inbox.aiDrafts.create(principal, params.id, body),
})
