import { SCOPES } from '../kernel/auth/scopes.js'
import type { ModuleDefinition } from '../kernel/module.js'
import { healthModule } from './health/health.module.js'
import { workspacesModule } from './workspaces/workspaces.module.js'
import { knowledgeModule } from './knowledge/knowledge.module.js'
import { inboxModule } from './inbox/inbox.module.js'
import { liveModule } from './live/live.module.js'
import { webhooksModule } from './webhooks/webhooks.module.js'
import { botsModule } from './bots/bots.module.js'
import { agentsModule } from './agents/agents.module.js'
import { leadsModule } from './leads/leads.module.js'
import { voiceModule } from './voice/voice.module.js'
import { channelsModule } from './channels/channels.module.js'
import { complianceModule } from './compliance/compliance.module.js'
import { developerModule } from './developer/developer.module.js'
import { v1Module } from './v1/v1.module.js'
import { dashboardModule } from './dashboard/dashboard.module.js'

/** Every module of this build, in init order (a module may use the services of those before it). */
export const MODULES: ModuleDefinition[] = [
  healthModule,
  workspacesModule,
  knowledgeModule,
  inboxModule,
  botsModule,
  agentsModule,
  leadsModule,
  voiceModule,
  channelsModule,
  webhooksModule,
  liveModule,
  complianceModule,
  developerModule,
  v1Module,
  dashboardModule,
]

// The scopes the modules declare, assembled as soon as the list exists: route schemas, the CLI's help and the
// role defaults read them (kernel/auth/scopes.ts). createKernel assembles again from the modules it is given.
SCOPES.assemble(MODULES)
