import { defineRoute } from '../../../kernel/http/define-route.js'
import { CreateAgentBody, CreatedAgent } from '../agents.schemas.js'

export const createAgent = defineRoute({
  operationId: 'createAgent',
  method: 'POST',
  url: '/agents',
  module: 'agents',
  scope: 'write',
  summary: 'Create an agent',
  description:
    'Instructions, tools (HTTP or built-in, the bots tool model) each with an approval policy (`never`, `always`, or `when` an ' +
    'argument meets a condition), knowledge bases, an optional input schema, step and time limits. The answer carries ' +
    '`signing_secret`, which signs every HTTP tool call of the agent; it is shown only here.',
  schema: { body: CreateAgentBody, response: { 201: CreatedAgent } },
  errors: ['invalid_reference', 'invalid_agent_tools', 'unprocessable'],
  handler: ({ body, principal, services }) => services.agents.agents.create(principal, body),
})
