import { defineModule } from '../../../kernel/module.js'
import { createSandboxWorkspace } from './routes/create-sandbox-workspace.route.js'
import { listSandboxWorkspaces } from './routes/list-sandbox-workspaces.route.js'
import { SANDBOX_ERRORS } from './sandbox.errors.js'
import { SANDBOX_EVENTS } from './sandbox.events.js'
import { sandboxMigrations } from './sandbox.migrations.js'
import { sandboxUsage, SandboxWorkspacesService } from './sandbox-workspaces.service.js'

/** Part of the developer module (merged by the lead): sandbox workspaces seeded with sample data. */
export const developerSandboxModule = defineModule({
  name: 'developer-sandbox',
  // Seeding goes through every one of these modules' services.
  uses: ['workspaces', 'knowledge', 'inbox', 'bots', 'agents', 'leads', 'webhooks'],
  errors: SANDBOX_ERRORS,
  migrations: sandboxMigrations,
  routes: [listSandboxWorkspaces, createSandboxWorkspace],
  init(kernel, services) {
    kernel.events.declare(SANDBOX_EVENTS)
    const sandbox = new SandboxWorkspacesService(kernel, services)
    kernel.jobs.register(sandbox.seedJob)
    services.developerSandbox = sandbox
  },
  usage: sandboxUsage,
})
