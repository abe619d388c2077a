import { defineModule } from '../../kernel/module.js'
import { AGENTS_ERRORS } from './agents.errors.js'
import { AGENTS_EVENTS } from './agents.events.js'
import { agentsMigrations } from './agents.migrations.js'
import { forgetRunsOfDeletedConversation } from './agents-conversation-deleted.js'
import { agentsPrivacy } from './agents.privacy.js'
import { AgentsService, agentsUsage } from './agents.service.js'
import { approveAgentRun } from './routes/approve-agent-run.route.js'
import { cancelAgentRun } from './routes/cancel-agent-run.route.js'
import { createAgentRun } from './routes/create-agent-run.route.js'
import { createAgent } from './routes/create-agent.route.js'
import { dryRunAgent } from './routes/dry-run-agent.route.js'
import { getAgentRun } from './routes/get-agent-run.route.js'
import { getAgent } from './routes/get-agent.route.js'
import { listAgentApprovals } from './routes/list-agent-approvals.route.js'
import { listAgentRuns } from './routes/list-agent-runs.route.js'
import { listAgents } from './routes/list-agents.route.js'
import { streamAgentDryRun } from './routes/stream-agent-dry-run.route.js'
import { updateAgent } from './routes/update-agent.route.js'

export const agentsModule = defineModule({
  name: 'agents',
  uses: ['workspaces', 'knowledge', 'inbox'],
  errors: AGENTS_ERRORS,
  migrations: agentsMigrations,
  routes: [listAgents, createAgent, getAgent, updateAgent, listAgentRuns, createAgentRun, getAgentRun, approveAgentRun, cancelAgentRun, dryRunAgent, streamAgentDryRun, listAgentApprovals],
  init(kernel, services) {
    kernel.events.declare(AGENTS_EVENTS)
    const agents = new AgentsService(kernel, services)
    kernel.jobs.register(agents.jobs.run)
    kernel.jobs.register(agents.jobs.expire)
    services.agents = agents
    kernel.events.subscribeInTransaction('agents.conversation-deleted', forgetRunsOfDeletedConversation)
  },
  health: (_kernel, services) => services.agents.health(),
  usage: agentsUsage,
  reseal: (_kernel, services) => services.agents.agents.reseal(),
  privacy: agentsPrivacy,
})
