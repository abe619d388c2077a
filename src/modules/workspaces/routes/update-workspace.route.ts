import { defineRoute } from '../../../kernel/http/define-route.js'
import { UpdateWorkspaceBody, Workspace, WorkspaceIdParams } from '../workspaces.schemas.js'

export const updateWorkspace = defineRoute({
  operationId: 'updateWorkspace',
  method: 'PATCH',
  url: '/workspaces/{id}',
  module: 'workspaces',
  scope: 'write',
  summary: 'Update the workspace name, time zone, language or metadata',
  schema: { params: WorkspaceIdParams, body: UpdateWorkspaceBody, response: { 200: Workspace } },
  errors: ['resource_not_found'],
  handler: ({ params, body, principal, services }) => services.workspaces.update(principal, params.id, body),
})
