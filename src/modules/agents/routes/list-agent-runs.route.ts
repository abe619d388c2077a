import { defineRoute } from '../../../kernel/http/define-route.js'
import { AgentRunList, IdParams, ListAgentRunsQuery } from '../agents.schemas.js'

export const listAgentRuns = defineRoute({
  operationId: 'listAgentRuns',
  method: 'GET',
  url: '/agents/{id}/runs',
  module: 'agents',
  scope: 'read',
  summary: "List an agent's runs",
  description:
    'Newest first, without their steps; `status` filters. `include=postmortem` is deprecated (removed in v3.0): it still adds ' +
    "each run's postmortem but answers with `Deprecation`, `Sunset` and `Link` headers — read a run's postmortem with getAgentRun.",
  schema: { params: IdParams, querystring: ListAgentRunsQuery, response: { 200: AgentRunList } },
  errors: ['resource_not_found'],
  handler: async ({ params, query, principal, services, reply }) => {
    const page = await services.agents.runs.list(principal, params.id, query)
    if (query.include === 'postmortem') reply.headers(services.agents.runs.postmortemDeprecation())
    return page
  },
})
