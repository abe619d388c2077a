import { defineRoute } from '../../../kernel/http/define-route.js'
import { Workspace, WorkspaceIdParams } from '../workspaces.schemas.js'

export const getWorkspace = defineRoute({
  operationId: 'getWorkspace',
  method: 'GET',
  url: '/workspaces/{id}',
  module: 'workspaces',
  scope: 'read',
  summary: 'Get a workspace by id',
  description: 'A key sees only its own workspace; any other id answers 404.',
  schema: { params: WorkspaceIdParams, response: { 200: Workspace } },
  errors: ['resource_not_found'],
  handler: ({ params, principal, services }) => services.workspaces.get(principal, params.id),
})
