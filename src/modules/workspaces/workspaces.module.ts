import { defineModule } from '../../kernel/module.js'
import { getCurrentWorkspace } from './routes/get-current-workspace.route.js'
import { getWorkspace } from './routes/get-workspace.route.js'
import { getWorkspaceUsage } from './routes/get-workspace-usage.route.js'
import { inviteWorkspaceMember } from './routes/invite-workspace-member.route.js'
import { listWorkspaceMembers } from './routes/list-workspace-members.route.js'
import { removeWorkspaceMember } from './routes/remove-workspace-member.route.js'
import { updateWorkspaceMember } from './routes/update-workspace-member.route.js'
import { updateWorkspace } from './routes/update-workspace.route.js'
import { workspacesMigrations } from './workspaces.migrations.js'
import { WorkspacesService } from './workspaces.service.js'
import { WORKSPACES_ERRORS } from './workspaces.errors.js'
import { signInMigrations } from './sign-in/sign-in.migrations.js'
import { signInPages } from './sign-in/sign-in.routes.js'
import { SignInService } from './sign-in/sign-in.service.js'

export const workspacesModule = defineModule({
  name: 'workspaces',
  errors: WORKSPACES_ERRORS,
  migrations: [...workspacesMigrations, ...signInMigrations],
  routes: [getCurrentWorkspace, getWorkspace, updateWorkspace, listWorkspaceMembers, inviteWorkspaceMember, updateWorkspaceMember, removeWorkspaceMember, getWorkspaceUsage],
  init(kernel, services) {
    services.workspaces = new WorkspacesService(kernel)
    services.signIn = new SignInService(kernel)
  },
  // Member sign-in pages (/login, /logout, /invitations/{token}): docs/developer-tools.md "Sign-in".
  callbacks: async (app, _kernel, services) => {
    await app.register(signInPages(services))
  },
  maintenance: (_kernel, services) => services.signIn.purge(),
  // Members are the workspace's own users, not the people it serves (docs/compliance.md "Who is a data subject").
  noSubjectData: {
    'workspaces.name': 'the workspace’s name',
    'workspaces.metadata': 'the workspace’s own key-value settings',
    'workspace_members.email': 'a member’s sign-in address, removed with the member',
    'workspace_members.name': 'a member’s display name, removed with the member',
    'member_credentials.email': 'a member’s sign-in address (password hash beside it)',
    'member_sessions.email': 'the member a dashboard session belongs to; sessions expire',
    'member_sessions.ip': 'where a member signed in from: session security; sessions expire',
    'member_sessions.user_agent': 'the browser a member signed in with: session security; sessions expire',
  },
  reseal: (_kernel, services) => services.workspaces.reseal(),
})
