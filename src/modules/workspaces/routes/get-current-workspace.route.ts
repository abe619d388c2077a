import { defineRoute } from '../../../kernel/http/define-route.js'
import { Workspace } from '../workspaces.schemas.js'

export const getCurrentWorkspace = defineRoute({
  operationId: 'getCurrentWorkspace',
  method: 'GET',
  url: '/workspaces/current',
  module: 'workspaces',
  scope: 'read',
  summary: 'Get the workspace of the API key',
  schema: { response: { 200: Workspace } },
  handler: ({ principal, services }) => services.workspaces.getCurrent(principal),
})
