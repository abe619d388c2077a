import { defineRoute } from '../../../../kernel/http/define-route.js'
import { ListSandboxWorkspacesQuery, SandboxWorkspaceList } from '../sandbox.schemas.js'

export const listSandboxWorkspaces = defineRoute({
  operationId: 'listSandboxWorkspaces',
  method: 'GET',
  url: '/sandbox-workspaces',
  module: 'developer',
  scope: 'read',
  summary: 'List sandbox workspaces',
  description:
    'The sandbox workspaces this workspace made, newest first, with their status (seeding, ready, failed) and how many sample objects of each kind were seeded. ' +
    'Their keys are never shown again; filter by `status`.',
  schema: { querystring: ListSandboxWorkspacesQuery, response: { 200: SandboxWorkspaceList } },
  handler: ({ query, principal, services }) => services.developerSandbox.list(principal, query),
})
